// Proof that N instances enforce ONE limit: two production servers (`next start`) on two ports share
// one Postgres, and concurrent requests split across both get exactly the limit between them.
// Needs a production build (NEXT_DIST_DIR or .next) and the Postgres server of DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, KEY_CACHE_TTL_MS, revokeApiKey } from "@/lib/auth/keys";
import { openDb, type DbHandle } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";

let database: { url: string; drop: () => Promise<void> };
let a: TestServer;
let b: TestServer;
let handle: DbHandle;

beforeAll(async () => {
  database = await createServerDatabase();
  // Bursts of 100 concurrent requests on a busy CI machine may queue past the default 8 s deadline;
  // this test counts the limiter's answers, so a 503 from the deadline must not stand in for them.
  const env = { DATABASE_URL: database.url, CAPDEX_WORKER: "off", CAPDEX_SEED: "demo", DATABASE_POOL_MAX: "8", CAPDEX_REQUEST_DEADLINE_MS: "60000" };
  // One after the other: the first migrates and seeds, the second finds it done.
  a = await startServer(env, { timeoutMs: 240_000 });
  b = await startServer(env, { timeoutMs: 240_000 });
  handle = await openDb({ url: database.url, migrate: false });
}, 600_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await handle?.close();
  await database?.drop();
});

type Result = { status: number; policy: string | null };

/** Sends `n` requests, alternating between the two servers, at most `concurrency` in flight. */
async function burst(n: number, concurrency: number, make: (i: number) => [string, RequestInit]): Promise<Result[]> {
  const out: Result[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const [path, init] = make(i);
      const res = await fetch(`${(i % 2 ? b : a).url}${path}`, init);
      await res.arrayBuffer();
      out[i] = { status: res.status, policy: res.headers.get("ratelimit-policy") };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

const discover = (headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ capability_id: "weather.current" }),
});

const count = (rs: Result[], status: number) => rs.filter((r) => r.status === status).length;

describe("two instances, one Postgres", () => {
  it("let exactly 60 of 200 concurrent anonymous discover requests through, whatever X-Forwarded-For says", async () => {
    // Half the requests claim to come from elsewhere; without TRUST_PROXY_HOPS that must not matter.
    const results = await burst(200, 200, (i) => ["/api/discover", discover(i % 4 < 2 ? { "x-forwarded-for": `198.51.100.${i % 250}` } : {})]);
    expect(count(results, 200)).toBe(60);
    expect(count(results, 429)).toBe(140);
    expect(results.every((r) => r.policy === '"discover";q=60;w=60')).toBe(true);
  }, 120_000);

  it("let exactly 600 requests with one API key through (its own, larger limit)", async () => {
    const [{ id: userId }] = await handle.db.insert(users).values({ email: "agent@example.com" }).returning({ id: users.id });
    const { key } = await createApiKey(handle.db, userId, "burst");
    const results = await burst(700, 100, () => ["/api/discover", discover({ authorization: `Bearer ${key}` })]);
    expect(count(results, 200)).toBe(600);
    expect(count(results, 429)).toBe(100);
    expect(results.every((r) => r.policy === '"discover";q=600;w=60')).toBe(true);
  }, 300_000);

  it("let exactly 10 anonymous submits an hour through", async () => {
    // An empty body is refused (422) after the limit is counted, so nothing is stored.
    const results = await burst(40, 40, () => ["/api/submit", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }]);
    expect(count(results, 422)).toBe(10);
    expect(count(results, 429)).toBe(30);
    expect(results.every((r) => r.policy === '"submit";q=10;w=3600')).toBe(true);
  }, 120_000);

  it("stop accepting a revoked key on both instances once their cached lookups expire", async () => {
    const [{ id: userId }] = await handle.db.insert(users).values({ email: "revoker@example.com" }).returning({ id: users.id });
    const { key, apiKey } = await createApiKey(handle.db, userId, "short-lived");
    const get = (s: TestServer) => fetch(`${s.url}/api/capabilities?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect([await get(a), await get(b)]).toEqual([200, 200]);
    expect(await revokeApiKey(handle.db, userId, apiKey.id)).toBe(true);
    // Both instances have the key cached; neither heard of the revocation. After the cache's life:
    await new Promise((r) => setTimeout(r, KEY_CACHE_TTL_MS + 500));
    expect([await get(a), await get(b)]).toEqual([401, 401]);
  }, 60_000);
});
