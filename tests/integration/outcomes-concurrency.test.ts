// Many writers and overlapping rollup runs at once (real concurrency on Postgres; PGlite runs the
// same test one statement at a time): every report stored and counted exactly once, caps exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { openDb, queryRows, type Db, type DbHandle } from "@/lib/db/client";
import { CAPS, WEIGHTS, recordOutcome, recordProbeOutcome } from "@/lib/outcomes";
import { rollUpReports, rollUpAll } from "@/lib/outcomes/rollup";
import { createRandom } from "@/lib/seed/random";
import { addAccount, addDiscovery, addEndpoint, anonymous } from "./outcomes-fixtures";

let t: TestDb;
const extra: DbHandle[] = [];
let writers: Db;
let rollerA: Db;
let rollerB: Db;

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  if (t.url) {
    // Separate pools, so the writes and both rollup runs really overlap on different connections.
    for (const poolMax of [16, 1, 1]) extra.push(await openDb({ url: t.url, poolMax, migrate: false }));
    [writers, rollerA, rollerB] = extra.map((h) => h.db);
  } else {
    writers = rollerA = rollerB = t.db;
  }
});
afterAll(async () => {
  for (const h of extra) await h.close();
  await t?.close();
});

type Raw = { endpoint_id: string; hour: string; reporter_key: string; reporter_kind: string; weight: number };

/** Counted weight per endpoint as the caps define it, from the raw reports (order-independent). */
function expectedWeights(raw: Raw[]): Map<string, number> {
  const perReporter = new Map<string, { ep: string; hour: string; kind: string; w: number }>();
  for (const r of raw) {
    const k = r.reporter_kind === "probe" ? `${r.endpoint_id}|${r.hour}|probe|${Math.random()}` : `${r.endpoint_id}|${r.hour}|${r.reporter_key}`;
    const e = perReporter.get(k) ?? { ep: r.endpoint_id, hour: r.hour, kind: r.reporter_kind, w: 0 };
    e.w += Number(r.weight);
    perReporter.set(k, e);
  }
  const anonPool = new Map<string, number>();
  // Unpaid account reports share one allowance per endpoint-hour too (CAPS.authenticatedPerEndpoint).
  const authPool = new Map<string, number>();
  const out = new Map<string, number>();
  for (const e of perReporter.values()) {
    if (e.kind === "probe") out.set(e.ep, (out.get(e.ep) ?? 0) + e.w);
    else if (e.kind === "authenticated") authPool.set(`${e.ep}|${e.hour}`, (authPool.get(`${e.ep}|${e.hour}`) ?? 0) + Math.min(e.w, CAPS.authenticatedPerReporter));
    else anonPool.set(`${e.ep}|${e.hour}`, (anonPool.get(`${e.ep}|${e.hour}`) ?? 0) + Math.min(e.w, CAPS.anonymousPerReporter));
  }
  for (const [pool, cap] of [[anonPool, CAPS.anonymousPerEndpoint], [authPool, CAPS.authenticatedPerEndpoint]] as const) {
    for (const [k, w] of pool) {
      const ep = k.split("|")[0];
      out.set(ep, (out.get(ep) ?? 0) + Math.min(w, cap));
    }
  }
  return out;
}

describe("concurrent reports and rollups", () => {
  it("counts every report exactly once and keeps every cap exact", async () => {
    const [flooded, oneAccount, manyAddresses, probed, mixed] = await Promise.all([1, 2, 3, 4, 5].map(() => addEndpoint(t.db)));
    const account = await addAccount(t.db, 1);
    const discovery = await addDiscovery(t.db, account, [oneAccount, mixed]);
    const accounts = await Promise.all(Array.from({ length: 40 }, (_, i) => addAccount(t.db, 10 + i)));
    const r = createRandom(11);
    const jobs: Array<() => Promise<unknown>> = [];
    const sent = new Map<string, { reports: number; successes: number }>();
    const send = (endpoint_id: string, fn: (success: boolean) => Promise<unknown>) => {
      const success = r.next() < 0.8;
      const s = sent.get(endpoint_id) ?? { reports: 0, successes: 0 };
      s.reports++;
      if (success) s.successes++;
      sent.set(endpoint_id, s);
      jobs.push(() => fn(success));
    };
    const anon = anonymous("192.0.2.50");
    for (let i = 0; i < 300; i++) send(flooded, (success) => recordOutcome(writers, { endpoint_id: flooded, success }, anon));
    for (let i = 0; i < 200; i++) {
      send(oneAccount, (success) => recordOutcome(writers, { endpoint_id: oneAccount, success, discovery_id: discovery }, account));
    }
    for (let i = 0; i < 300; i++) {
      const who = anonymous(`10.9.${i % 100}.1`);
      send(manyAddresses, (success) => recordOutcome(writers, { endpoint_id: manyAddresses, success, latency_ms: 50 + i }, who));
    }
    for (let i = 0; i < 200; i++) send(probed, (success) => recordProbeOutcome(writers, { endpointId: probed, success, latencyMs: 80 }));
    for (let i = 0; i < 400; i++) {
      const who = accounts[i % accounts.length];
      send(mixed, (success) => recordOutcome(writers, { endpoint_id: mixed, success, latency_ms: 120 }, who));
    }
    // Shuffle, then run 32 writers at once while two rollup loops keep counting beside them.
    for (let i = jobs.length - 1; i > 0; i--) {
      const j = Math.floor(r.next() * (i + 1));
      [jobs[i], jobs[j]] = [jobs[j], jobs[i]];
    }
    let writing = true;
    let next = 0;
    const writer = async () => {
      while (next < jobs.length) await jobs[next++]();
    };
    const roller = async (db: Db) => {
      let runs = 0;
      while (writing || (await rollUpReports(db, 37)) > 0) {
        await rollUpReports(db, 37);
        runs++;
      }
      return runs;
    };
    const rollers = [roller(rollerA), roller(rollerB)];
    await Promise.all(Array.from({ length: 32 }, writer));
    writing = false;
    await Promise.all(rollers);
    await rollUpAll(t.db);

    const total = jobs.length;
    const [counts] = await queryRows<{ stored: number; pending: number; rolled: number; net: number; net_w: number; w: number }>(
      t.db,
      sql`select (select count(*) from outcome_reports)::int as stored,
                 (select count(*) from outcome_reports where not rolled_up)::int as pending,
                 (select sum(reports) from outcome_rollups)::int as rolled,
                 (select sum(w_total) from outcome_rollups)::float8 as w,
                 (select sum(reports) from network_rollups)::int as net,
                 (select sum(w_total) from network_rollups)::float8 as net_w`,
    );
    expect(counts).toMatchObject({ stored: total, pending: 0, rolled: total, net: total });
    expect(Number(counts.net_w)).toBeCloseTo(Number(counts.w), 6);

    const rollups = await queryRows<{ endpoint_id: string; reports: number; successes: number; w_total: number }>(
      t.db,
      sql`select endpoint_id::text, sum(reports)::int as reports, sum(successes)::int as successes, sum(w_total)::float8 as w_total
          from outcome_rollups group by 1`,
    );
    const raw = await queryRows<Raw>(
      t.db,
      sql`select endpoint_id::text, date_trunc('hour', created_at)::text as hour, reporter_key, reporter_kind, weight from outcome_reports`,
    );
    const expected = expectedWeights(raw);
    for (const row of rollups) {
      expect({ reports: row.reports, successes: row.successes }).toEqual(sent.get(row.endpoint_id));
      expect(Number(row.w_total)).toBe(expected.get(row.endpoint_id));
    }
    // In one hour these are exactly the caps (more when the test happens to straddle an hour).
    const byEndpoint = new Map(rollups.map((x) => [x.endpoint_id, Number(x.w_total)]));
    // Reports without an API key are counted as reports, at no weight, however they arrive.
    expect(byEndpoint.get(flooded)).toBe(0);
    expect(byEndpoint.get(oneAccount)! % CAPS.authenticatedPerReporter).toBe(0);
    expect(byEndpoint.get(manyAddresses)).toBe(0);
    expect(byEndpoint.get(probed)).toBe(200 * WEIGHTS.probe);
    // 40 accounts under their own caps, together over the endpoint's allowance for unpaid accounts.
    expect(byEndpoint.get(mixed)).toBe(Math.min(400 * WEIGHTS.authenticated, CAPS.authenticatedPerEndpoint));
  });
});
