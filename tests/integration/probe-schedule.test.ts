import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDb, queryRows, type DbHandle } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { claimDueEndpoints, runProbePass } from "@/lib/probes/schedule";
import { runIfDue } from "@/lib/jobs";
import { ALL_JOBS } from "@/lib/jobs/all";
import { createTestDb, type TestDb } from "../helpers/db";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

let t: TestDb;
let second: DbHandle | null = null;
let x402: X402TestServer;
let capabilityId: string;
let providerId: string;

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  // A second instance: its own connection pool on the same Postgres database (PGlite is one
  // in-process database, so there both "instances" share it and interleave at every await).
  if (t.url) second = await openDb({ url: t.url, migrate: false });
  x402 = await startX402Server();
  [{ id: capabilityId }] = await queryRows<{ id: string }>(t.db, sql`select id from capabilities order by id limit 1`);
  [{ id: providerId }] = await t.db.insert(providers).values({ name: "Schedule Labs" }).returning({ id: providers.id });
  process.env.ALLOW_PRIVATE_TARGETS = "1";
});

afterAll(async () => {
  await x402.close();
  await second?.close();
  await t.close();
});

beforeEach(async () => {
  // Each test starts with nothing due.
  await t.db.execute(sql`update endpoints set status = 'delisted'`);
  x402.reset();
});

let n = 0;
async function listings(count: number, opts: { isDemo?: boolean; status?: string } = {}) {
  const paths = Array.from({ length: count }, () => `/e/${n++}`);
  for (const p of paths) x402.route(p, { kind: "v1", network: "base", amount: "1000", delayMs: 50 });
  const rows = await t.db
    .insert(endpoints)
    .values(
      paths.map((p) => ({
        capabilityId,
        providerId,
        url: x402.url(p),
        host: "127.0.0.1",
        domain: "127.0.0.1",
        pricePerCall: 0.001,
        network: "base",
        isDemo: opts.isDemo ?? false,
        status: opts.status ?? "listed",
      })),
    )
    .returning({ id: endpoints.id });
  return rows.map((r, i) => ({ id: r.id, path: paths[i] }));
}

async function checksPerEndpoint(ids: string[]): Promise<number[]> {
  const rows = await queryRows<{ endpoint_id: string; n: number }>(
    t.db,
    sql`select endpoint_id, count(*)::int as n from endpoint_checks group by endpoint_id`,
  );
  const byId = new Map(rows.map((r) => [r.endpoint_id, Number(r.n)]));
  return ids.map((id) => byId.get(id) ?? 0);
}

async function claimedCount(ids: string[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from endpoints where id = any(${`{${ids.join(",")}}`}::uuid[]) and check_claimed_until > now()`,
  );
  return Number(row.n);
}

describe("the probe schedule", () => {
  it("probes every due endpoint once and skips demo and delisted ones", async () => {
    const live = await listings(6);
    const demo = await listings(2, { isDemo: true });
    const delisted = await listings(1, { status: "delisted" });

    expect(await runProbePass(t.db, { concurrency: 3 })).toEqual({ probed: 6, passed: 6, failed: 0 });
    expect(live.map((e) => x402.hits(e.path))).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...demo, ...delisted].map((e) => x402.hits(e.path))).toEqual([0, 0, 0]);
    expect(await checksPerEndpoint(live.map((e) => e.id))).toEqual([1, 1, 1, 1, 1, 1]);

    // Nothing is due again until the interval has passed.
    expect(await runProbePass(t.db)).toEqual({ probed: 0, passed: 0, failed: 0 });
    const [due] = await queryRows<{ min: number; max: number }>(
      t.db,
      sql`select min(extract(epoch from next_check_at - now()))::float8 as min, max(extract(epoch from next_check_at - now()))::float8 as max
          from endpoints where status = 'listed' and not is_demo`,
    );
    expect(Number(due.min)).toBeGreaterThan(600 * 0.9 - 10);
    expect(Number(due.max)).toBeLessThan(600 * 1.1 + 1);
  });

  it("has two instances probing together probe each endpoint once per interval", async () => {
    const live = await listings(24);
    const other = second?.db ?? t.db;
    const runTogether = () =>
      Promise.all([runProbePass(t.db, { concurrency: 4 }), runProbePass(other, { concurrency: 4 })]);

    const [a, b] = await runTogether();
    expect(a.probed + b.probed).toBe(24);
    expect(live.map((e) => x402.hits(e.path))).toEqual(live.map(() => 1));
    expect(await checksPerEndpoint(live.map((e) => e.id))).toEqual(live.map(() => 1));

    // Within the same interval: nothing more.
    const [c, d] = await runTogether();
    expect(c.probed + d.probed).toBe(0);

    // The next interval (due times moved into the past): each endpoint once more.
    await t.db.execute(sql`update endpoints set next_check_at = now() - interval '1 second' where status = 'listed'`);
    const [e, f] = await runTogether();
    expect(e.probed + f.probed).toBe(24);
    expect(live.map((x) => x402.hits(x.path))).toEqual(live.map(() => 2));
    expect(await checksPerEndpoint(live.map((x) => x.id))).toEqual(live.map(() => 2));
  });

  it("does not hand out an endpoint another instance has claimed until its lease runs out", async () => {
    const [one] = await listings(1);
    expect((await claimDueEndpoints(t.db, 10)).map((e) => e.id)).toEqual([one.id]);
    expect(await claimDueEndpoints(second?.db ?? t.db, 10)).toEqual([]);
    await t.db.execute(sql`update endpoints set check_claimed_until = now() - interval '1 second' where id = ${one.id}`);
    expect((await claimDueEndpoints(second?.db ?? t.db, 10)).map((e) => e.id)).toEqual([one.id]);
  });

  it("cuts probes in flight short when the process stops: nothing stored, claims released", async () => {
    const slow = await listings(2);
    for (const l of slow) x402.route(l.path, { kind: "v1", network: "base", amount: "1000", delayMs: 30_000 });
    const ac = new AbortController();
    const started = Date.now();
    const pass = runProbePass(t.db, { concurrency: 2, signal: ac.signal });
    // Both probes are in flight (claimed) before the stop.
    for (let i = 0; i < 100 && (await claimedCount(slow.map((l) => l.id))) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    const summary = await pass;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(summary.probed).toBe(0);
    expect(await checksPerEndpoint(slow.map((l) => l.id))).toEqual([0, 0]);
    expect(await claimedCount(slow.map((l) => l.id))).toBe(0);
    // Due again at once for the next pass (of this or another instance).
    expect((await claimDueEndpoints(t.db, 10)).map((c) => c.id).sort()).toEqual(slow.map((l) => l.id).sort());
  });

  it("runs as background jobs: probes.run probes what is due, probes.expire lets verified lapse", async () => {
    const jobs = new Map(ALL_JOBS.map((j) => [j.name, j]));
    expect([...jobs.keys()]).toEqual(expect.arrayContaining(["probes.run", "probes.expire"]));
    const live = await listings(3);
    expect(await runIfDue(t.db, jobs.get("probes.run")!, { force: true })).toEqual({ probed: 3, passed: 3, failed: 0 });
    expect(live.map((e) => x402.hits(e.path))).toEqual([1, 1, 1]);

    await t.db.execute(sql`update endpoints set last_verified_at = now() - interval '2 hours' where id = ${live[0].id}`);
    expect(await runIfDue(t.db, jobs.get("probes.expire")!, { force: true })).toEqual({ expired: 1 });
    const states = await queryRows<{ id: string; check_state: string }>(t.db, sql`select id, check_state from endpoints where status = 'listed'`);
    expect(new Map(states.map((s) => [s.id, s.check_state]))).toEqual(
      new Map([
        [live[0].id, "unverified"],
        [live[1].id, "verified"],
        [live[2].id, "verified"],
      ]),
    );
  });
});
