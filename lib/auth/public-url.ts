// The URL Auth.js should see. `next start` builds a route handler's request URL from its own listen
// address ("http://localhost:3000/..."), not from the Host the browser used, so sign-in links and
// redirects would name the wrong host. With AUTH_URL set, next-auth rewrites the URL itself; when the
// host is trusted (local runs, AUTH_TRUST_HOST) we rebuild it from Host / X-Forwarded-Host here.
import type { NextRequest } from "next/server";
import { trustHost } from "@/auth.config";

export function publicOrigin(headers: Headers, env: Record<string, string | undefined> = process.env): string | null {
  if (env.AUTH_URL || !trustHost(env)) return null;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${proto}://${host}`;
}

export function withPublicOrigin(req: NextRequest, env: Record<string, string | undefined> = process.env): NextRequest {
  const origin = publicOrigin(req.headers, env);
  const current = new URL(req.url);
  if (!origin || origin === current.origin) return req;
  // A plain Request: NextRequest would turn 127.0.0.1 and [::1] back into "localhost" (NextURL does),
  // and the browser's cookies for 127.0.0.1 are not sent to localhost. Auth.js reads only req.url here.
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: req.headers, signal: req.signal };
  if (req.method !== "GET" && req.method !== "HEAD") Object.assign(init, { body: req.body, duplex: "half" });
  return new Request(new URL(current.pathname + current.search, origin), init) as NextRequest;
}
