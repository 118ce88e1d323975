// What a portal page knows about its request: the site's origin and the caller as the API sees it,
// so pages and server actions apply the same principal (and rate limits) as the HTTP API.
import { headers } from "next/headers";
import type { Db } from "@/lib/db/client";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { siteOrigin } from "@/lib/http/problem";

export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http";
  return siteOrigin(`${proto}://${host}`);
}

/** The caller of this page as a Principal (by address; the portal never sees API keys). */
export async function portalPrincipal(db: Db): Promise<Principal> {
  const h = await headers();
  const forwarded = new Headers();
  for (const name of ["x-forwarded-for", "x-real-ip", "user-agent"]) {
    const v = h.get(name);
    if (v) forwarded.set(name, v);
  }
  const url = new URL("http://portal.invalid/");
  return resolvePrincipal(new Request(url, { headers: forwarded }), db, url);
}
