// What a portal page knows about its request: the site's origin and the caller as the API sees it,
// so pages and server actions apply the same principal (and rate limits) as the HTTP API.
import { headers } from "next/headers";
import type { Db } from "@/lib/db/client";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { getSessionUser, type SessionUser } from "@/lib/auth/session";
import { siteOrigin } from "@/lib/http/problem";
import { errorFields, logger } from "@/lib/log";

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
  // x-capdex-peer: the socket address stamped at start-up (lib/auth/client-address.ts); without it every page caller is "unknown".
  for (const name of ["x-forwarded-for", "x-real-ip", "user-agent", "x-capdex-peer"]) {
    const v = h.get(name);
    if (v) forwarded.set(name, v);
  }
  const url = new URL("http://portal.invalid/");
  return resolvePrincipal(new Request(url, { headers: forwarded }), db, url);
}

/** The signed-in person, or null (also when sign-in is not configured: pages must still work). */
export async function portalUser(): Promise<SessionUser | null> {
  try {
    return await getSessionUser();
  } catch (err) {
    logger().warn(errorFields(err), "session lookup failed");
    return null;
  }
}

/**
 * The wizard's submitter: a signed-in person acts as their account (the authenticated tier, and the
 * submission and its proven domain are theirs, as with an API key); anyone else by address.
 */
export async function portalSubmitter(db: Db): Promise<Principal> {
  const base = await portalPrincipal(db);
  const user = await portalUser();
  if (!user) return base;
  return { kind: "authenticated", key: `user:${user.id}`, ip: base.ip, apiKeyId: "session", userId: user.id };
}
