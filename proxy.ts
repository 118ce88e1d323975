// Optimistic redirects only: a visitor without a session cookie who opens /account is sent to the
// sign-in page first. Every real check (is the session valid, whose keys are these) is made again
// by the page and its server actions; this only saves a round trip.
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

export function proxy(req: NextRequest) {
  if (SESSION_COOKIES.some((name) => req.cookies.has(name))) return NextResponse.next();
  const url = req.nextUrl.clone();
  url.pathname = "/signin";
  url.search = new URLSearchParams({ callbackUrl: req.nextUrl.pathname + req.nextUrl.search }).toString();
  return NextResponse.redirect(url);
}

export const config = { matcher: ["/account", "/account/:path*"] };
