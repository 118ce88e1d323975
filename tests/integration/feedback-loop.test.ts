// The loop, proven: simulated callers discover, call and report; the ranking learns the true
// success rates; then two cheap attacks fail to move the top of the ranking.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows, type Db } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { discover, flushDiscoveryLog, invalidateCandidates } from "@/lib/discovery";
import { WEIGHTS, recordOutcome, reportRowOf, rollUpAll } from "@/lib/outcomes";
import { createRandom } from "@/lib/seed/random";
import type { ReportOutcomeBody } from "@/lib/schemas/outcomes";
import { addAccount, addEndpoint, anonymous, rollupOf } from "./outcomes-fixtures";

const CAPABILITY = "weather.current";
// True success rates and median latencies (ms): the latencies differ and do not follow the rates.
const TRUTH = [
  { rate: 0.99, median: 110 },
  { rate: 0.95, median: 130 },
  { rate: 0.9, median: 100 },
  { rate: 0.7, median: 160 },
  { rate: 0.4, median: 120 },
];
const HONEST_REPORTS = 2_500;

let t: TestDb;
let ids: string[];
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  ids = [];
  // Fixed ids, so that every run makes the same random choices.
  for (let i = 0; i < TRUTH.length; i++) {
    ids.push(await addEndpoint(t.db, { id: `00000000-0000-4000-8000-00000000000${i + 1}`, capabilityId: CAPABILITY, price: 0.002 }));
  }
});
afterAll(async () => {
  if (t) await flushDiscoveryLog(t.db);
  await t?.close();
});

// Seeds 1 to 4 all pass (LOOP_SEED=n to try another); the top's lead after the attacks is 0.03 to 0.09.
const rnd = createRandom(Number(process.env.LOOP_SEED ?? 1));
const normal = () => Math.sqrt(-2 * Math.log(1 - rnd.next())) * Math.cos(2 * Math.PI * rnd.next());

async function rankingFor(principal: Principal): Promise<string[]> {
  const res = await discover(t.db, { capability_id: CAPABILITY, preferences: { ranking_preset: "reliability" } }, principal);
  return res.ranked_endpoints.map((e) => e.endpoint_id);
}

/** What the rollup job does every few seconds, and the minute-long figures cache expiring. */
async function letTimePass(db: Db) {
  await flushDiscoveryLog(db);
  await rollUpAll(db);
  invalidateCandidates(db);
}

/**
 * Many identical reports from one caller: exactly the rows recordOutcome stores (same reporter
 * kind, key and weight; checked below), inserted 500 at a time to keep the test quick.
 */
async function flood(principal: Principal, body: ReportOutcomeBody, count: number) {
  const row = reportRowOf(body, principal);
  for (let i = 0; i < count; i += 500) {
    await t.db.insert(outcomeReports).values(Array.from({ length: Math.min(500, count - i) }, () => row));
  }
}

describe("the feedback loop", () => {
  it("learns the true order from caller reports, and holds its top against cheap attacks", async () => {
    const accounts = await Promise.all(Array.from({ length: 40 }, (_, i) => addAccount(t.db, i)));
    const addresses = Array.from({ length: 60 }, (_, i) => anonymous(`100.64.${i}.9`));

    // Honest callers: a mix of API-key holders and anonymous addresses. Each discovers, calls one of
    // the ranked endpoints at random, and reports what happened with its discovery_id.
    for (let n = 0; n < HONEST_REPORTS; n++) {
      const caller = rnd.next() < 0.6 ? rnd.pick(accounts) : rnd.pick(addresses);
      const answer = await discover(t.db, { capability_id: CAPABILITY, preferences: { ranking_preset: "reliability" } }, caller);
      // Any of the answer's endpoints, at random (in id order, so the choice does not depend on rank).
      const chosen = rnd.pick([...answer.ranked_endpoints].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id)));
      const truth = TRUTH[ids.indexOf(chosen.endpoint_id)];
      const success = rnd.next() < truth.rate;
      const latency = Math.max(5, Math.round(truth.median * Math.exp(0.35 * normal())));
      await recordOutcome(
        t.db,
        { endpoint_id: chosen.endpoint_id, success, latency_ms: latency, status_code: success ? 200 : 502, discovery_id: answer.discovery_id },
        caller,
      );
      if (n % 500 === 499) await letTimePass(t.db);
    }
    await letTimePass(t.db);
    const learned = await rankingFor(accounts[0]);
    expect(learned).toEqual(ids); // ids are in order of true rate
    const counted = await Promise.all(ids.map((id) => rollupOf(t.db, id)));
    expect(counted.reduce((s, c) => s + c.reports, 0)).toBe(HONEST_REPORTS);

    // The honest week is compressed into seconds; move it two hours back so that the attacks meet
    // fresh hourly allowances (their best case), without changing which day the reports fall in.
    await moveHistoryBack(t.db, 2);
    invalidateCandidates(t.db);
    expect(await rankingFor(accounts[0])).toEqual(learned);

    // Attack 1: 5,000 anonymous "success" reports for the 0.4 endpoint from one address, each tied to
    // a discovery the attacker made itself.
    const attacker = anonymous("198.18.0.1");
    const own = await discover(t.db, { capability_id: CAPABILITY }, attacker);
    const worst = ids[4];
    const probe = await recordOutcome(t.db, { endpoint_id: worst, success: true, latency_ms: 5, discovery_id: own.discovery_id }, attacker);
    await flood(attacker, { endpoint_id: worst, success: true, latency_ms: 5, discovery_id: own.discovery_id }, 4_999);
    await expectSameRowAsRecordOutcome(probe.report_id, worst);

    // Attack 2: 5,000 "failure" reports for the 0.99 endpoint from 50 addresses (100 each).
    const best = ids[0];
    for (let a = 0; a < 50; a++) {
      const bot = anonymous(`198.18.1.${a}`);
      const d = await discover(t.db, { capability_id: CAPABILITY }, bot);
      await flood(bot, { endpoint_id: best, success: false, latency_ms: 30_000, status_code: 500, discovery_id: d.discovery_id }, 100);
    }
    const before = { worst: await rollupOf(t.db, worst), best: await rollupOf(t.db, best) };
    await letTimePass(t.db);
    const after = { worst: await rollupOf(t.db, worst), best: await rollupOf(t.db, best) };

    // Every attack report is stored and counted as a report...
    expect(after.worst.reports - before.worst.reports).toBe(5_000);
    expect(after.best.reports - before.best.reports).toBe(5_000);
    // ...but reports without an API key weigh nothing, from one address or from fifty.
    expect(WEIGHTS.anonymous).toBe(0);
    expect(after.worst.w_total - before.worst.w_total).toBe(0);
    expect(after.best.w_total - before.best.w_total).toBe(0);
    expect(after.best.w_success).toBe(before.best.w_success);

    const attacked = await rankingFor(accounts[1]);
    expect(attacked[0]).toBe(best);
    expect(attacked[attacked.length - 1]).toBe(worst);
  });
});

async function moveHistoryBack(db: Db, hours: number) {
  const by = sql`${hours} * interval '1 hour'`;
  await db.execute(sql`update outcome_reports set created_at = created_at - ${by}`);
  await db.execute(sql`update outcome_rollups set hour = hour - ${by}`);
  await db.execute(sql`update network_rollups set hour = hour - ${by}`);
  await db.execute(sql`update reporter_weights set hour = hour - ${by}`);
  await db.execute(sql`update discoveries set created_at = created_at - ${by}`);
  // The stored figures follow the rollups they are computed from.
  await db.execute(sql`update endpoint_figures set dirty = true`);
  await rollUpAll(db);
}

async function expectSameRowAsRecordOutcome(reportId: string, endpointId: string) {
  const rows = await queryRows<{ n: number; kinds: number }>(
    t.db,
    sql`select count(*)::int as n,
               count(distinct (reporter_kind, reporter_key, weight, success, latency_ms, discovery_id))::int as kinds
        from outcome_reports
        where endpoint_id = ${endpointId}::uuid and reporter_key = (select reporter_key from outcome_reports where id = ${reportId}::uuid)`,
  );
  expect(rows[0]).toEqual({ n: 5_000, kinds: 1 });
}
