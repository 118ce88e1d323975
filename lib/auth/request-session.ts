// The signed-in person behind an API request's session cookie (Auth.js database sessions: the cookie
// holds the session token). Only for requests from Capdex's own pages (Origin names this site), so a
// cookie never authenticates a cross-site request; API clients send a key instead.
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sessions, users } from "@/lib/db/schema";
import { isSameOrigin } from "./origin";

export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

export async function sessionUserOfRequest(db: Db, req: Request): Promise<{ userId: string; email: string | null } | null> {
  const cookie = req.headers.get("cookie");
  const token = SESSION_COOKIES.map((n) => cookieValue(cookie, n)).find((v) => v) ?? null;
  if (!token || !isSameOrigin(req.headers)) return null;
  const [row] = await db
    .select({ userId: sessions.userId, email: users.email })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.sessionToken, token), gt(sessions.expires, sql`now()`)))
    .limit(1);
  return row ?? null;
}
