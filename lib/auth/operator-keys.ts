// Operator access to API keys (the CLI): find a key by id or display prefix and revoke it, whoever owns it.
import { and, eq, isNull, like, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, users } from "@/lib/db/schema";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type OperatorKeyRow = { id: string; prefix: string; name: string; email: string | null; revokedAt: Date | null };

/** Keys whose id is `ref`, or whose display prefix starts with `ref` (at least `cdx_` + 4 characters). */
export async function findKeysByRef(db: Db, ref: string): Promise<OperatorKeyRow[]> {
  const byId = UUID.test(ref);
  const byPrefix = /^cdx_[0-9A-Za-z]{4,}$/.test(ref);
  if (!byId && !byPrefix) return [];
  // A pasted whole key also works: its display prefix is its first 12 characters.
  const prefix = ref.slice(0, 12).replace(/[%_\\]/g, "\\$&");
  return db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix, name: apiKeys.name, email: users.email, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.userId))
    .where(byId ? eq(apiKeys.id, ref) : like(apiKeys.prefix, `${prefix}%`))
    .orderBy(apiKeys.createdAt);
}

export async function revokeKeyAsOperator(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
