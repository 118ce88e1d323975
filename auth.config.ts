// The edge-safe half of the Auth.js configuration: pages, the OAuth provider and host trust. No
// database here, so anything (even an edge proxy) could import it; auth.ts adds the adapter and e-mail.
import type { NextAuthConfig } from "next-auth";
import GitHub from "next-auth/providers/github";

/** GitHub sign-in is offered only when both of its variables are set. */
export function githubConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return !!(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET);
}

/**
 * Whether Auth.js may build its URLs from the request's Host. AUTH_TRUST_HOST=1|true|0|false decides;
 * unset, the host is trusted for local runs (no DATABASE_URL, or `next dev`) and a deployment must
 * set AUTH_URL (then the host is not needed) or AUTH_TRUST_HOST behind a proxy that sets Host itself.
 */
export function trustHost(env: Record<string, string | undefined> = process.env): boolean | undefined {
  const v = env.AUTH_TRUST_HOST?.trim().toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  if (!env.DATABASE_URL || env.NODE_ENV === "development") return true;
  return undefined;
}

export const authConfig = {
  pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
  providers: githubConfigured() ? [GitHub] : [],
  trustHost: trustHost(),
  session: { strategy: "database", maxAge: 30 * 24 * 3600, updateAge: 24 * 3600 },
} satisfies NextAuthConfig;
