// The limiter with REDIS_URL set: the same policies, windows and headers as the Postgres store, each
// check one atomic script in Redis (nothing written to rate_limits), limits shared by every process
// that uses the same Redis, and the same fallback when Redis cannot be reached (reads served, writes
// 503). Needs the Redis of REDIS_TEST_URL (default redis://127.0.0.1:6379).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as list from "@/app/api/capabilities/route";
import * as report from "@/app/api/report_outcome/route";
import type { Principal } from "@/lib/auth/principal";
import { queryRows } from "@/lib/db/client";
import { checkRateLimit } from "@/lib/ratelimit";
import { closeRedis } from "@/lib/ratelimit/redis";

const URL = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
// Keys of this run only, so runs (and other people's tests on the same Redis) never meet.
const PREFIX = `capdex-test:${randomBytes(6).toString("hex")}:`;

let t: TestDb;
let admin: Redis;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  admin = new Redis(URL, { keyPrefix: PREFIX });
  process.env.REDIS_KEY_PREFIX = PREFIX;
});
afterEach(async () => {
  delete process.env.REDIS_URL;
  await closeRedis();
});
afterAll(async () => {
  delete process.env.REDIS_KEY_PREFIX;
  const keys = await admin.keys(`${PREFIX}*`);
  if (keys.length) await new Redis(URL).del(...keys);
  admin.disconnect();
  await t?.close();
});

const anon = (ip: string): Principal => ({ kind: "anonymous", key: `ip:${ip}`, ip });
const useRedis = () => (process.env.REDIS_URL = URL);

describe("rate limits in Redis", () => {
  it("allow exactly the limit, with the same headers, and 429 over it", async () => {
    useRedis();
    const p = anon("198.51.100.21");
    const results = [];
    for (let i = 0; i < 62; i++) results.push(await checkRateLimit(t.db, "discover", p));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    expect(results[0].headers).toEqual({ "RateLimit-Policy": '"discover";q=60;w=60', RateLimit: expect.stringMatching(/^"discover";r=59;t=(59|60)$/) });
    const over = results[61];
    expect(over.allowed).toBe(false);
    if (over.allowed) return;
    expect(over.error.code).toBe("rate_limited");
    expect(Number(over.error.headers?.["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(over.headers.RateLimit).toMatch(/^"discover";r=0;t=\d+$/);
    // Counted in Redis, with the window as its expiry; nothing in Postgres.
    expect(Number(await admin.get("rl:60:discover:ip:198.51.100.21"))).toBe(62);
    expect(await admin.pttl("rl:60:discover:ip:198.51.100.21")).toBeGreaterThan(55_000);
    expect(await queryRows(t.db, sql`select key from rate_limits where key like '%198.51.100.21'`)).toEqual([]);
  });

  it("count concurrent checks exactly, and hourly windows too", async () => {
    useRedis();
    const results = await Promise.all(Array.from({ length: 150 }, () => checkRateLimit(t.db, "capabilities", anon("198.51.100.22"))));
    expect(results.filter((r) => r.allowed)).toHaveLength(120);
    let last;
    for (let i = 0; i < 11; i++) last = await checkRateLimit(t.db, "submit", anon("198.51.100.23"));
    expect(last?.allowed).toBe(false);
    if (last?.allowed === false) expect(last.error.extras?.retry_after).toBeGreaterThan(3500);
  });

  it("are one limit for every process that shares the Redis", async () => {
    useRedis();
    // Another process checks the same caller at the same time as this one.
    const other = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `const { checkRateLimit } = await import("./lib/ratelimit/index.ts");
         const { closeRedis } = await import("./lib/ratelimit/redis.ts");
         const p = { kind: "anonymous", key: "ip:198.51.100.24", ip: "198.51.100.24" };
         const rs = await Promise.all(Array.from({ length: 100 }, () => checkRateLimit(null, "discover", p)));
         console.log(rs.filter((r) => r.allowed).length);
         await closeRedis();`,
      ],
      { env: { ...process.env, REDIS_URL: URL, REDIS_KEY_PREFIX: PREFIX, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    other.stdout.on("data", (d) => (out += d));
    const exited = new Promise((r) => other.once("exit", r));
    const mine = await Promise.all(Array.from({ length: 100 }, () => checkRateLimit(t.db, "discover", anon("198.51.100.24"))));
    await exited;
    expect(mine.filter((r) => r.allowed).length + Number(out.trim())).toBe(60);
  }, 60_000);

  it("fall back when Redis cannot be reached: reads served without headers, writes 503 at once", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    const t0 = Date.now();
    const read = await call(list.GET, "/api/capabilities?limit=1", { headers: { "x-forwarded-for": "192.0.2.31" } });
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit")).toBeNull();
    const write = await call(report.POST, "/api/report_outcome", {
      method: "POST",
      json: { endpoint_id: "00000000-0000-4000-8000-000000000000", success: true },
      headers: { "x-forwarded-for": "192.0.2.31" },
    });
    expect(write.status).toBe(503);
    expect(write.body.code).toBe("unavailable");
    expect(write.headers.get("retry-after")).toBe("5");
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});
