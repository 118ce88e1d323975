// API keys: created (shown once), listed and revoked by their owner, and looked up for each request
// through a short-lived in-process cache so that a revoked key stops working everywhere within 5 s.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { apiKeys, type ApiKey } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey } from "./key-format";

export const apiKeyNameSchema = z.string().trim().min(1, "Give the key a name.").max(60, "At most 60 characters.");
export const MAX_ACTIVE_KEYS = 25;
/** A cached lookup is trusted this long: revocation reaches every instance within this plus one query. */
export const KEY_CACHE_TTL_MS = 4_000;
/** last_used_at is written at most this often per key, so using a key costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const KEY_CACHE_MAX = 10_000;

export type ApiKeySummary = Pick<ApiKey, "id" | "name" | "prefix" | "createdAt" | "lastUsedAt" | "revokedAt">;
export type KeyOwner = { apiKeyId: string; userId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createApiKey(db: Db, userId: string, name: string): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const parsedName = apiKeyNameSchema.safeParse(name);
  if (!parsedName.success) {
    throw new ApiError("validation_failed", parsedName.error.issues[0]?.message, {
      errors: [{ pointer: "#/name", detail: parsedName.error.issues[0]?.message ?? "invalid" }],
    });
  }
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  if (Number(n) >= MAX_ACTIVE_KEYS) {
    throw new ApiError("conflict", `You have ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another.`);
  }
  const key = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, name: parsedName.data, prefix: displayPrefix(key), hash: hashApiKey(key) })
    .returning(summaryColumns);
  return { key, apiKey: row };
}

const summaryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** The user's keys, newest first, revoked ones included (marked by revokedAt). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeySummary[]> {
  return db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/**
 * Revokes one of the user's own keys. False when there is no such active key of that user: someone
 * else's key id is answered exactly like an unknown one, so ids cannot be probed.
 */
export async function revokeApiKey(db: Db, userId: string, keyId: string): Promise<boolean> {
  if (!UUID.test(keyId)) return false;
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ hash: apiKeys.hash });
  for (const r of rows) cacheOf(db).delete(r.hash);
  return rows.length > 0;
}

// ---------------------------------------------------------------- lookups for requests

type CacheEntry = { owner: KeyOwner | null; expires: number };
// On globalThis: Next bundles route handlers and server actions separately, each with its own copy of
// this module, and a revocation on the account page must reach the API routes' cache at once.
const shared = globalThis as unknown as { __capdexKeyCaches?: WeakMap<Db, Map<string, CacheEntry>>; __capdexKeyTouched?: Map<string, number> };
const caches = (shared.__capdexKeyCaches ??= new WeakMap());
const lastTouched = (shared.__capdexKeyTouched ??= new Map());

function cacheOf(db: Db): Map<string, CacheEntry> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
}

/**
 * The owner of an active key, or null (malformed, unknown or revoked).
 * Looked up by the SHA-256 of the presented key, never by comparing the key itself: an index probe
 * on the digest can only leak how much of a digest matched, and since nobody can choose inputs
 * whose digests share a prefix with a secret key's digest, that reveals nothing about the key.
 */
export async function findKeyOwner(db: Db, key: string, now = Date.now()): Promise<KeyOwner | null> {
  if (!isWellFormedKey(key)) return null;
  const hash = hashApiKey(key);
  const cache = cacheOf(db);
  const hit = cache.get(hash);
  if (hit && hit.expires > now) return hit.owner;
  const [row] = await db
    .select({ apiKeyId: apiKeys.id, userId: apiKeys.userId })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  const owner = row ?? null;
  if (cache.size >= KEY_CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.delete(hash);
  cache.set(hash, { owner, expires: now + KEY_CACHE_TTL_MS });
  return owner;
}

/** Records that a key was used, at most once a minute per key per instance (and per key overall, in SQL). */
export async function touchApiKey(db: Db, apiKeyId: string, now = Date.now()): Promise<boolean> {
  const last = lastTouched.get(apiKeyId);
  if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return false;
  if (lastTouched.size >= KEY_CACHE_MAX) lastTouched.clear();
  lastTouched.set(apiKeyId, now);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, apiKeyId),
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - ${LAST_USED_RESOLUTION_MS} * interval '1 millisecond')`,
      ),
    );
  return true;
}

/** Forgets cached lookups (tests; and after an operator revokes from the CLI in-process). */
export function clearKeyCache(db?: Db): void {
  if (db) caches.delete(db);
  lastTouched.clear();
}
