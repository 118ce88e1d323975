import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as list from "@/app/api/capabilities/route";
import { apiKeys, users } from "@/lib/db/schema";
import { createApiKey, findKeyOwner, KEY_CACHE_TTL_MS, listApiKeys, MAX_ACTIVE_KEYS, revokeApiKey, touchApiKey } from "@/lib/auth/keys";
import { hashApiKey } from "@/lib/auth/key-format";

let t: TestDb;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  [{ id: alice }, { id: bob }] = await t.db.insert(users).values([{ email: "alice@example.com" }, { email: "bob@example.com" }]).returning({ id: users.id });
});
afterAll(async () => t?.close());

const bearer = (key: string, ip = "192.0.2.10") => ({ authorization: `Bearer ${key}`, "x-forwarded-for": ip });

describe("API keys", () => {
  it("are shown once and stored only as a SHA-256 digest with a display prefix", async () => {
    const { key, apiKey } = await createApiKey(t.db, alice, "laptop");
    expect(key).toMatch(/^cdx_[0-9A-Za-z]{40}$/);
    expect(apiKey).toMatchObject({ name: "laptop", prefix: key.slice(0, 12), lastUsedAt: null, revokedAt: null });
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row.hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
  });

  it("list only the owner's keys, newest first", async () => {
    await createApiKey(t.db, alice, "server");
    await createApiKey(t.db, bob, "bob's");
    const mine = await listApiKeys(t.db, alice);
    expect(mine.map((k) => k.name)).toEqual(["server", "laptop"]);
    expect((await listApiKeys(t.db, bob)).map((k) => k.name)).toEqual(["bob's"]);
  });

  it("refuse a bad name and store nothing", async () => {
    const before = (await listApiKeys(t.db, alice)).length;
    await expect(createApiKey(t.db, alice, "   ")).rejects.toMatchObject({ code: "validation_failed" });
    await expect(createApiKey(t.db, alice, "x".repeat(61))).rejects.toMatchObject({ code: "validation_failed" });
    expect((await listApiKeys(t.db, alice)).length).toBe(before);
  });

  it("cannot be revoked by anyone but their owner", async () => {
    const { apiKey, key } = await createApiKey(t.db, alice, "target");
    expect(await revokeApiKey(t.db, bob, apiKey.id)).toBe(false);
    expect(await revokeApiKey(t.db, bob, "not-a-uuid")).toBe(false);
    expect(await findKeyOwner(t.db, key)).toEqual({ apiKeyId: apiKey.id, userId: alice });
    expect(await revokeApiKey(t.db, alice, apiKey.id)).toBe(true);
    expect(await revokeApiKey(t.db, alice, apiKey.id)).toBe(false);
    expect(await findKeyOwner(t.db, key)).toBeNull();
  });

  it("are capped per user", async () => {
    const [{ id: carol }] = await t.db.insert(users).values({ email: "carol@example.com" }).returning({ id: users.id });
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await createApiKey(t.db, carol, `k${i}`);
    await expect(createApiKey(t.db, carol, "one too many")).rejects.toMatchObject({ code: "conflict" });
  });
});

describe("a key revoked on another instance", () => {
  it("stops working once the cached lookup (at most 4 s old) expires", async () => {
    const { key, apiKey } = await createApiKey(t.db, alice, "elsewhere");
    const now = Date.now();
    expect(await findKeyOwner(t.db, key, now)).not.toBeNull();
    // Another instance revokes: our cache does not hear of it.
    await t.db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, apiKey.id));
    expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
    expect(await findKeyOwner(t.db, key, now + KEY_CACHE_TTL_MS - 1)).not.toBeNull();
    expect(await findKeyOwner(t.db, key, now + KEY_CACHE_TTL_MS)).toBeNull();
  });
});

describe("last used", () => {
  it("is written at most once a minute per key", async () => {
    const { apiKey } = await createApiKey(t.db, bob, "busy");
    const now = Date.now();
    expect(await touchApiKey(t.db, apiKey.id, now)).toBe(true);
    const [first] = await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(first.at).toBeInstanceOf(Date);
    expect(await touchApiKey(t.db, apiKey.id, now + 59_000)).toBe(false);
    // Even when this instance tries again, the SQL guard keeps a fresh stamp (another instance's) as is.
    expect(await touchApiKey(t.db, apiKey.id, now + 60_000)).toBe(true);
    const [second] = await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(second.at?.getTime()).toBe(first.at?.getTime());
  });
});

describe("Authorization: Bearer on the API", () => {
  it("makes the caller authenticated (the 10x tier) and records the use", async () => {
    const { key, apiKey } = await createApiKey(t.db, bob, "api");
    const res = await call(list.GET, "/api/capabilities?limit=1", { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"capabilities";q=1200;w=60');
    const [row] = await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row.at).toBeInstanceOf(Date);
  });

  it("keys the limit by the key, not the address", async () => {
    const { key } = await createApiKey(t.db, bob, "roaming");
    const a = await call(list.GET, "/api/capabilities?limit=1", { headers: bearer(key, "192.0.2.20") });
    const b = await call(list.GET, "/api/capabilities?limit=1", { headers: bearer(key, "192.0.2.21") });
    expect(a.headers.get("ratelimit")).toMatch(/r=1199;/);
    expect(b.headers.get("ratelimit")).toMatch(/r=1198;/);
  });

  it.each([
    ["an unknown key", `Bearer cdx_${"A".repeat(40)}`],
    ["a malformed key", "Bearer cdx_short"],
    ["another scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["an empty header", ""],
    ["Bearer without a key", "Bearer "],
  ])("answers 401 invalid_api_key for %s (never falls back to anonymous)", async (_what, authorization) => {
    const res = await call(list.GET, "/api/capabilities?limit=1", { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(res.body).toMatchObject({ code: "invalid_api_key", status: 401 });
  });

  it("answers 401 for a revoked key", async () => {
    const { key, apiKey } = await createApiKey(t.db, bob, "to revoke");
    expect((await call(list.GET, "/api/capabilities?limit=1", { headers: bearer(key) })).status).toBe(200);
    await revokeApiKey(t.db, bob, apiKey.id);
    const res = await call(list.GET, "/api/capabilities?limit=1", { headers: bearer(key) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_api_key");
  });

  it.each([
    ["a key-looking value", () => `?search=cdx_${"B".repeat(40)}`],
    ["api_key", () => "?api_key=whatever"],
    ["key", () => "?key=whatever"],
    ["token", () => "?token=whatever"],
  ])("answers 400 for %s in the query string and counts nothing", async (_what, q) => {
    const before = await t.db.execute(sql`select count(*)::int as n from rate_limits`);
    const res = await call(list.GET, `/api/capabilities${q()}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "bad_request", status: 400 });
    expect(String(res.body.detail)).toMatch(/Authorization: Bearer/);
    const after = await t.db.execute(sql`select count(*)::int as n from rate_limits`);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
