import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as list from "@/app/api/capabilities/route";
import { checkRateLimit, POLICIES } from "@/lib/ratelimit";
import { deleteExpiredCounters, hit, hitStats } from "@/lib/ratelimit/store";
import { COUNTER_RETENTION_SECONDS } from "@/lib/ratelimit/jobs";
import { openDb, queryRows } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => t?.close());
afterEach(() => {
  delete process.env.CAPDEX_RATE_LIMIT;
});

const anon = (ip: string): Principal => ({ kind: "anonymous", key: `ip:${ip}`, ip });
const authed = (id: string): Principal => ({ kind: "authenticated", key: `key:${id}`, ip: "203.0.113.50", apiKeyId: id, userId: "u1" });
const counters = async () => (await queryRows<{ key: string; count: number }>(t.db, sql`select key, count from rate_limits order by key`));

describe("checkRateLimit", () => {
  it("allows exactly the limit per window and then answers 429 rate_limited", async () => {
    const p = anon("198.51.100.1");
    const results = [];
    for (let i = 0; i < 62; i++) results.push(await checkRateLimit(t.db, "discover", p));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    expect(results.slice(0, 60).every((r) => r.allowed)).toBe(true);
    expect(results[0].headers).toEqual({ "RateLimit-Policy": '"discover";q=60;w=60', RateLimit: expect.stringMatching(/^"discover";r=59;t=(59|60)$/) });
    expect(results[59].headers.RateLimit).toMatch(/^"discover";r=0;t=\d+$/);
    const over = results[60];
    expect(over.allowed).toBe(false);
    if (over.allowed) return;
    expect(over.error.code).toBe("rate_limited");
    expect(over.error.status).toBe(429);
    const retry = Number(over.error.headers?.["Retry-After"]);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.error.extras).toEqual({ retry_after: retry, violated_policy: "discover" });
    expect(over.headers.RateLimit).toMatch(/^"discover";r=0;t=\d+$/);
  });

  it("counts concurrent checks exactly (one atomic statement each)", async () => {
    const p = anon("198.51.100.2");
    const results = await Promise.all(Array.from({ length: 150 }, () => checkRateLimit(t.db, "capabilities", p)));
    expect(results.filter((r) => r.allowed)).toHaveLength(120);
  });

  it("counts concurrent hits in shared statements, each hit its own count, keys apart", async () => {
    const before = hitStats(t.db);
    const keys = ["batch:a", 'batch:"quoted\\key', "batch:b"];
    const hits = await Promise.all(Array.from({ length: 90 }, (_, i) => hit(t.db, keys[i % 3], 60)));
    const after = hitStats(t.db);
    expect(after.hits - before.hits).toBe(90);
    // Requests that arrive while a statement is in flight share the next: far fewer than one each.
    expect(after.statements - before.statements).toBeLessThan(30);
    for (let k = 0; k < 3; k++) {
      const counts = hits.filter((_, i) => i % 3 === k).map((h) => h.count);
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    }
    const stored = await counters();
    for (const key of keys) expect(stored.find((c) => c.key === key)?.count).toBe(30);
  });

  it("keeps callers, policies and tiers apart", async () => {
    for (let i = 0; i < 10; i++) await checkRateLimit(t.db, "submit", anon("198.51.100.3"));
    expect((await checkRateLimit(t.db, "submit", anon("198.51.100.3"))).allowed).toBe(false);
    expect((await checkRateLimit(t.db, "submit", anon("198.51.100.4"))).allowed).toBe(true);
    expect((await checkRateLimit(t.db, "stats", anon("198.51.100.3"))).allowed).toBe(true);
    const a = await checkRateLimit(t.db, "submit", authed("00000000-0000-4000-8000-000000000001"));
    expect(a.headers["RateLimit-Policy"]).toBe('"submit";q=100;w=3600');
  });

  it("gives submit an hourly window", async () => {
    const p = anon("198.51.100.5");
    let last;
    for (let i = 0; i < 11; i++) last = await checkRateLimit(t.db, "submit", p);
    expect(last?.allowed).toBe(false);
    if (last?.allowed !== false) return;
    expect(last.error.extras?.retry_after).toBeGreaterThan(3500);
    expect(last.error.message).toMatch(/10 per hour/);
  });

  it("starts a new window once the old one has passed (database clock)", async () => {
    const p = anon("198.51.100.6");
    for (let i = 0; i < 61; i++) await checkRateLimit(t.db, "discover", p);
    expect((await checkRateLimit(t.db, "discover", p)).allowed).toBe(false);
    await t.db.execute(sql`update rate_limits set window_start = now() - interval '61 seconds' where key = 'discover:ip:198.51.100.6'`);
    const again = await checkRateLimit(t.db, "discover", p);
    expect(again.allowed).toBe(true);
    expect(again.headers.RateLimit).toMatch(/^"discover";r=59;t=(59|60)$/);
  });

  it("is switched off by CAPDEX_RATE_LIMIT=off (no counting, no headers)", async () => {
    process.env.CAPDEX_RATE_LIMIT = "off";
    const before = (await counters()).length;
    const r = await checkRateLimit(t.db, "discover", anon("198.51.100.7"));
    expect(r).toEqual({ allowed: true, headers: {} });
    expect((await counters()).length).toBe(before);
  });

  it("serves reads and refuses writes with 503 when its storage fails", async () => {
    // A database handle that cannot connect (nothing listens on port 1).
    const broken = await openDb({ url: "postgres://postgres@127.0.0.1:1/nowhere", migrate: false, poolMax: 1 });
    try {
      for (const policy of ["discover", "capabilities", "stats"] as const) {
        expect(await checkRateLimit(broken.db, policy, anon("198.51.100.8"))).toEqual({ allowed: true, headers: {} });
      }
      for (const policy of ["submit", "report_outcome", "submission"] as const) {
        const r = await checkRateLimit(broken.db, policy, anon("198.51.100.8"));
        expect(r.allowed).toBe(false);
        if (r.allowed) continue;
        expect(r.error.code).toBe("unavailable");
        expect(r.error.status).toBe(503);
        expect(r.error.headers?.["Retry-After"]).toBe("5");
      }
    } finally {
      await broken.close();
    }
  });

  it("also fails safe when the counter table is missing (a half-migrated database)", async () => {
    const bare = await openDb({ pgliteDir: "memory://", migrate: false });
    try {
      expect((await checkRateLimit(bare.db, "capabilities", anon("198.51.100.9"))).allowed).toBe(true);
      expect((await checkRateLimit(bare.db, "report_outcome", anon("198.51.100.9"))).allowed).toBe(false);
    } finally {
      await bare.close();
    }
  });
});

describe("the counter table", () => {
  it("is UNLOGGED: a check costs no write-ahead-log flush (counters may restart after a crash)", async () => {
    const [row] = await queryRows<{ p: string }>(t.db, sql`select relpersistence::text as p from pg_class where relname = 'rate_limits'`);
    expect(row.p).toBe("u");
  });
});

describe("through the route wrapper", () => {
  it("sends RateLimit headers on every limited answer and 429 problem+json over the limit", async () => {
    const headers = { "x-forwarded-for": "192.0.2.77" };
    let res;
    for (let i = 0; i < POLICIES.capabilities.anonymous; i++) {
      res = await call(list.GET, "/api/capabilities?limit=1", { headers });
      expect(res.status).toBe(200);
    }
    expect(res?.headers.get("ratelimit-policy")).toBe('"capabilities";q=120;w=60');
    expect(res?.headers.get("ratelimit")).toMatch(/^"capabilities";r=0;t=\d+$/);
    const over = await call(list.GET, "/api/capabilities?limit=1", { headers });
    expect(over.status).toBe(429);
    expect(over.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("ratelimit")).toMatch(/^"capabilities";r=0;t=\d+$/);
    expect(over.body).toMatchObject({ code: "rate_limited", status: 429, violated_policy: "capabilities", retry_after: Number(over.headers.get("retry-after")) });
    // A bad query on a limited caller is still 429 (the limit is checked first) and never a 500.
    const bad = await call(list.GET, "/api/capabilities?limit=0", { headers });
    expect(bad.status).toBe(429);
  });

  it("counts an IPv6 /64 as one caller", async () => {
    for (let i = 0; i < 120; i++) {
      const res = await call(list.GET, "/api/capabilities?limit=1", { headers: { "x-forwarded-for": `2001:db8:77:1::${(i + 1).toString(16)}` } });
      expect(res.status).toBe(200);
    }
    const over = await call(list.GET, "/api/capabilities?limit=1", { headers: { "x-forwarded-for": "2001:db8:77:1:ffff::1" } });
    expect(over.status).toBe(429);
    const other = await call(list.GET, "/api/capabilities?limit=1", { headers: { "x-forwarded-for": "2001:db8:77:2::1" } });
    expect(other.status).toBe(200);
  });
});

describe("counter cleanup", () => {
  it("deletes counters whose window ended more than two hours ago, and only those", async () => {
    await checkRateLimit(t.db, "discover", anon("198.51.100.10"));
    await checkRateLimit(t.db, "discover", anon("198.51.100.11"));
    await t.db.execute(sql`update rate_limits set window_start = now() - interval '3 hours' where key = 'discover:ip:198.51.100.10'`);
    expect(COUNTER_RETENTION_SECONDS).toBe(7200);
    const deleted = await deleteExpiredCounters(t.db, COUNTER_RETENTION_SECONDS);
    expect(deleted).toBe(1);
    const keys = (await counters()).map((c) => c.key);
    expect(keys).not.toContain("discover:ip:198.51.100.10");
    expect(keys).toContain("discover:ip:198.51.100.11");
  });
});
