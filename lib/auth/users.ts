// Users by e-mail address, normalised the way Auth.js's e-mail sign-in stores them, so a user made by
// the CLI is the same row as the person who later signs in with that address.
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { users, type User } from "@/lib/db/schema";

/** NFKC, lower case, trimmed (as @auth/core's default normaliser); throws on a malformed address. */
export function normaliseEmail(raw: string): string {
  const email = raw.normalize("NFKC").toLowerCase().trim();
  if (email.includes('"') || !z.email().max(254).safeParse(email).success) throw new Error(`not an e-mail address: ${JSON.stringify(raw)}`);
  return email;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return row ?? null;
}

export async function findOrCreateUserByEmail(db: Db, email: string): Promise<{ user: User; created: boolean }> {
  const address = normaliseEmail(email);
  const [inserted] = await db.insert(users).values({ email: address }).onConflictDoNothing({ target: users.email }).returning();
  if (inserted) return { user: inserted, created: true };
  const existing = await findUserByEmail(db, address);
  if (!existing) throw new Error(`could not create the user ${address}`);
  return { user: existing, created: false };
}
