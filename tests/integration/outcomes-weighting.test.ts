// Every weight and cap of docs/ranking.md ("How outcome reports are weighted"), pinned one by one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { CAPS, WEIGHTS, getObservedFigures, recordOutcome, recordProbeOutcome, reportRowOf, rollUpAll } from "@/lib/outcomes";
import { pruneReporterWeights, rollUpReports } from "@/lib/outcomes/rollup";
import { addAccount, addDiscovery, addEndpoint, addProvider, anonymous, rollupOf, storedWeights } from "./outcomes-fixtures";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => t?.close());

const report = (endpoint_id: string, success = true, extra: { discovery_id?: string; latency_ms?: number } = {}) => ({
  endpoint_id,
  success,
  ...extra,
});

describe("weights by tier and discovery", () => {
  it("weighs an anonymous report 0 and an authenticated one 4", async () => {
    const ep = await addEndpoint(t.db);
    const user = await addAccount(t.db, 1);
    await recordOutcome(t.db, report(ep), anonymous("192.0.2.1"));
    await recordOutcome(t.db, report(ep), user);
    expect((await storedWeights(t.db, ep)).sort()).toEqual([WEIGHTS.anonymous, WEIGHTS.authenticated].sort());
    expect(WEIGHTS).toMatchObject({ anonymous: 0, authenticated: 4 });
  });

  it("counts reports without an API key as reports of no weight, however many addresses send them", async () => {
    const ep = await addEndpoint(t.db);
    for (let a = 0; a < 30; a++) {
      const who = anonymous(`10.3.0.${a}`);
      const discovery_id = await addDiscovery(t.db, who, [ep]);
      for (let i = 0; i < 3; i++) await recordOutcome(t.db, report(ep, false, { discovery_id }), who);
    }
    await recordOutcome(t.db, report(ep, true), await addAccount(t.db, 31));
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 91, successes: 1, w_success: 4, w_total: 4 });
    const f = (await getObservedFigures(t.db, [ep])).get(ep)!;
    expect(f).toMatchObject({ sample_size_7d: 91, success_rate_7d: 1 });
  });

  it("doubles the weight of a report tied to the caller's own discovery of this endpoint in the last hour", async () => {
    const ep = await addEndpoint(t.db);
    const user = await addAccount(t.db, 2);
    const late = await addAccount(t.db, 20);
    await recordOutcome(t.db, report(ep, true, { discovery_id: await addDiscovery(t.db, user, [ep]) }), user);
    await recordOutcome(t.db, report(ep, true, { discovery_id: await addDiscovery(t.db, late, [ep], 59) }), late);
    // Stored at the tier's weight; the bonus is applied when counted.
    expect((await storedWeights(t.db, ep)).sort((a, b) => a - b)).toEqual([4, 4]);
    await rollUpAll(t.db);
    expect(WEIGHTS.discoveryBonus).toBe(2);
    expect((await rollupOf(t.db, ep)).w_total).toBe(8 + 8);
  });

  it("gives the bonus for any key of the same account, and for a discovery logged just after the report", async () => {
    const ep = await addEndpoint(t.db);
    const user = await addAccount(t.db, 21);
    const otherKey = await addAccount(t.db, 22);
    const sameUserOtherKey = { ...user, apiKeyId: otherKey.apiKeyId, key: otherKey.key };
    await t.db.execute(sql`update api_keys set user_id = ${user.userId} where id = ${otherKey.apiKeyId}::uuid`);
    // The discovery log is written in batches, so its row may be stamped a little after the report.
    const d = await addDiscovery(t.db, user, [ep], -1);
    await recordOutcome(t.db, report(ep, true, { discovery_id: d }), sameUserOtherKey);
    await rollUpAll(t.db);
    expect((await rollupOf(t.db, ep)).w_total).toBe(8);
  });

  it("counts a foreign, expired, unrelated or unknown discovery_id at the base weight", async () => {
    const ep = await addEndpoint(t.db);
    const other = await addEndpoint(t.db);
    const me = await addAccount(t.db, 25);
    const someoneElse = anonymous("192.0.2.4");
    const foreign = await addDiscovery(t.db, someoneElse, [ep]);
    const expired = await addDiscovery(t.db, me, [ep], 61);
    const unrelated = await addDiscovery(t.db, me, [other]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const discovery_id of [foreign, expired, unrelated, unknown]) {
      const res = await recordOutcome(t.db, report(ep, true, { discovery_id }), me);
      expect(res.accepted).toBe(true);
    }
    const user = await addAccount(t.db, 23);
    const stranger = await addAccount(t.db, 24);
    await recordOutcome(t.db, report(ep, true, { discovery_id: await addDiscovery(t.db, stranger, [ep]) }), user);
    await rollUpAll(t.db);
    expect(await storedWeights(t.db, ep)).toEqual([4, 4, 4, 4, 4]);
    expect((await rollupOf(t.db, ep)).w_total).toBe(5 * 4);
  });

  it("stores probe outcomes at weight 3 as reporter kind probe", async () => {
    const ep = await addEndpoint(t.db);
    await recordProbeOutcome(t.db, { endpointId: ep, success: true, latencyMs: 120, statusCode: 402 });
    const [row] = await queryRows<{ reporter_kind: string; weight: number; latency_ms: number; status_code: number }>(
      t.db,
      sql`select reporter_kind, weight, latency_ms, status_code from outcome_reports where endpoint_id = ${ep}::uuid`,
    );
    expect(row).toMatchObject({ reporter_kind: "probe", latency_ms: 120, status_code: 402 });
    expect(Number(row.weight)).toBe(WEIGHTS.probe);
    expect(WEIGHTS.probe).toBeGreaterThan(WEIGHTS.anonymous);
    expect(WEIGHTS.probe).toBeLessThan(WEIGHTS.authenticated * WEIGHTS.discoveryBonus);
  });

  it("never stores an address in the clear", async () => {
    const ep = await addEndpoint(t.db);
    await recordOutcome(t.db, report(ep), anonymous("203.0.113.99"));
    const rows = await queryRows<{ reporter_key: string }>(t.db, sql`select reporter_key from outcome_reports where endpoint_id = ${ep}::uuid`);
    expect(rows[0].reporter_key).toMatch(/^a:[0-9a-f]{32}$/);
    expect(rows[0].reporter_key).not.toContain("203.0.113.99");
  });
});

/**
 * Reports from one address as recordOutcome stored them while addresses weighed 1: rows still
 * pending when the weight became 0 are counted under the same caps. Distinct times, oldest first.
 */
async function storeWeighted(endpointId: string, who: Principal, count: number, success: (i: number) => boolean) {
  for (let i = 0; i < count; i++) {
    await t.db.insert(outcomeReports).values({ ...reportRowOf(report(endpointId, success(i)), who), weight: 1 });
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("caps, applied when reports are counted", () => {
  it("still caps one address at 4 per endpoint and hour when its reports carry weight (stored before addresses weighed 0)", async () => {
    const ep = await addEndpoint(t.db);
    await storeWeighted(ep, anonymous("192.0.2.10"), 20, () => true);
    await rollUpAll(t.db);
    expect(CAPS.anonymousPerReporter).toBe(4);
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 20, successes: 20, w_success: 4, w_total: 4 });
  });

  it("counts one account at most 64 per endpoint and hour, all its keys together", async () => {
    const ep = await addEndpoint(t.db);
    const user = await addAccount(t.db, 3);
    const secondKey = { ...user, apiKeyId: "00000000-0000-4000-8000-000000000001", key: "key:00000000-0000-4000-8000-000000000001" };
    const d = await addDiscovery(t.db, user, [ep]);
    // "Oldest first" needs distinct times: PGlite's clock moves in whole milliseconds, and reports
    // stored within one tie (and are then taken in id order).
    for (let i = 0; i < 10; i++) {
      await recordOutcome(t.db, report(ep, i % 2 === 0, { discovery_id: d }), user); // 10 x 8
      await new Promise((r) => setTimeout(r, 2));
    }
    for (let i = 0; i < 10; i++) await recordOutcome(t.db, report(ep, false), secondKey); // 10 x 4
    await rollUpAll(t.db);
    expect(CAPS.authenticatedPerReporter).toBe(64);
    // The first eight reports (weight 8 each) use the whole allowance, oldest first.
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 20, successes: 5, w_success: 32, w_total: 64 });
  });

  it("still caps all addresses together at 20 per endpoint and hour when their reports carry weight", async () => {
    const ep = await addEndpoint(t.db);
    for (let a = 0; a < 30; a++) await storeWeighted(ep, anonymous(`10.1.0.${a}`), 3, () => false);
    const user = await addAccount(t.db, 4);
    await recordOutcome(t.db, report(ep, true), user);
    await rollUpAll(t.db);
    expect(CAPS.anonymousPerEndpoint).toBe(20);
    // 90 anonymous reports (each address under its own cap) count 20; the account's report still counts 4.
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 91, successes: 1, w_success: 4, w_total: 24 });
  });

  it("keeps the caps exact when the reports are counted in many small batches", async () => {
    const ep = await addEndpoint(t.db);
    for (let a = 0; a < 12; a++) await storeWeighted(ep, anonymous(`10.2.0.${a}`), 7, (i) => i < 5);
    while ((await rollUpReports(t.db, 5)) > 0);
    // Each address: its first 4 count (all successes); together capped at 20, oldest first.
    const r = await rollupOf(t.db, ep);
    expect(r).toEqual({ reports: 84, successes: 60, w_success: 20, w_total: 20 });
  });

  it("does not cap probes", async () => {
    const ep = await addEndpoint(t.db);
    for (let i = 0; i < 40; i++) await recordProbeOutcome(t.db, { endpointId: ep, success: i < 30, latencyMs: 100 });
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 40, successes: 30, w_success: 90, w_total: 120 });
  });

  it("counts reports by the endpoint's own provider account as zero", async () => {
    const owner = await addAccount(t.db, 5);
    const ep = await addEndpoint(t.db, { providerId: await addProvider(t.db, { userId: owner.userId }) });
    const d = await addDiscovery(t.db, owner, [ep]);
    for (let i = 0; i < 5; i++) await recordOutcome(t.db, report(ep, true, { discovery_id: d }), owner);
    await recordOutcome(t.db, report(ep, false), await addAccount(t.db, 6));
    await rollUpAll(t.db);
    // Stored with their weight (everything is kept), counted as nothing.
    expect((await storedWeights(t.db, ep)).filter((w) => w === WEIGHTS.authenticated)).toHaveLength(6);
    expect(await rollupOf(t.db, ep)).toEqual({ reports: 6, successes: 5, w_success: 0, w_total: 4 });
    const figures = (await getObservedFigures(t.db, [ep])).get(ep)!;
    expect(figures.success_rate_7d).toBe(0);
  });

  it("counts reports by an account that owns a provider of a rival endpoint of the same capability as zero", async () => {
    const rival = await addAccount(t.db, 32);
    await addEndpoint(t.db, { capabilityId: "weather.current", providerId: await addProvider(t.db, { userId: rival.userId }) });
    const target = await addEndpoint(t.db, { capabilityId: "weather.current" });
    const elsewhere = await addEndpoint(t.db, { capabilityId: "weather.forecast" });
    const d = await addDiscovery(t.db, rival, [target, elsewhere]);
    for (let i = 0; i < 5; i++) await recordOutcome(t.db, report(target, false, { discovery_id: d }), rival);
    await recordOutcome(t.db, report(elsewhere, false, { discovery_id: d }), rival);
    await rollUpAll(t.db);
    expect(WEIGHTS.competitor).toBe(0);
    expect(await rollupOf(t.db, target)).toEqual({ reports: 5, successes: 0, w_success: 0, w_total: 0 });
    // In a capability where it has no endpoint of its own, the account is an ordinary caller.
    expect((await rollupOf(t.db, elsewhere)).w_total).toBe(8);
  });

  it("starts a fresh allowance in the next hour", async () => {
    const ep = await addEndpoint(t.db);
    const user = await addAccount(t.db, 33);
    for (let i = 0; i < 40; i++) await recordOutcome(t.db, report(ep, true), user);
    // Twenty of them an hour earlier (as if sent then).
    await t.db.execute(sql`update outcome_reports set created_at = created_at - interval '1 hour'
                           where id in (select id from outcome_reports where endpoint_id = ${ep}::uuid limit 20)`);
    await rollUpAll(t.db);
    expect((await rollupOf(t.db, ep)).w_total).toBe(2 * CAPS.authenticatedPerReporter);
  });
});

describe("housekeeping", () => {
  it("drops cap totals of hours that can no longer receive reports", async () => {
    const ep = await addEndpoint(t.db);
    await rollUpAll(t.db);
    await t.db.execute(sql`insert into reporter_weights (endpoint_id, hour, reporter_key, weight) values
      (${ep}::uuid, date_trunc('hour', now()) - interval '3 hours', 'a:old', 4),
      (${ep}::uuid, date_trunc('hour', now()) - interval '1 hour', 'a:recent', 4),
      (${ep}::uuid, date_trunc('hour', now()), 'a:now', 4)`);
    expect(await pruneReporterWeights(t.db)).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ reporter_key: string }>(
      t.db,
      sql`select reporter_key from reporter_weights where endpoint_id = ${ep}::uuid order by reporter_key`,
    );
    expect(left.map((r) => r.reporter_key)).toEqual(["a:now", "a:recent"]);
  });
});

describe("figures", () => {
  it("marks an endpoint's figures for recomputing only when some weight was counted", async () => {
    const ep = await addEndpoint(t.db);
    const dirty = async () =>
      (await queryRows<{ dirty: boolean }>(t.db, sql`select dirty from endpoint_figures where endpoint_id = ${ep}::uuid`))[0]?.dirty ?? null;
    await recordOutcome(t.db, report(ep), await addAccount(t.db, 34));
    while ((await rollUpReports(t.db)) > 0);
    expect(await dirty()).toBe(true);
    await rollUpAll(t.db);
    expect(await dirty()).toBe(false);
    // A flood of reports of no weight does not decide when the figures move (the hourly sweep does).
    for (let i = 0; i < 10; i++) await recordOutcome(t.db, report(ep, false), anonymous(`10.4.0.${i}`));
    while ((await rollUpReports(t.db)) > 0);
    expect(await dirty()).toBe(false);
  });

  it("reads the weighted 7-day success rate and sample size from the rollups", async () => {
    const ep = await addEndpoint(t.db);
    const users = await Promise.all([7, 8, 9].map((n) => addAccount(t.db, n)));
    for (const [i, u] of users.entries()) {
      for (let k = 0; k < 4; k++) await recordOutcome(t.db, report(ep, !(i === 0 && k === 0), { latency_ms: 100 + k }), u);
    }
    // Not counted until the rollup job has run: figures come from rollups only.
    expect((await getObservedFigures(t.db, [ep])).get(ep)!.sample_size_7d).toBe(0);
    await rollUpAll(t.db);
    const f = (await getObservedFigures(t.db, [ep])).get(ep)!;
    expect(f.sample_size_7d).toBe(12);
    expect(f.weighted_total_7d).toBe(48);
    expect(f.success_rate_7d).toBeCloseTo(44 / 48, 4);
    expect(f.p95_latency_ms).toBeGreaterThanOrEqual(98);
    expect(f.p95_latency_ms).toBeLessThanOrEqual(108);
  });
});

describe("accounts together, and new accounts", () => {
  it("caps what all unpaid accounts together add to an endpoint-hour at authenticatedPerEndpoint", async () => {
    const ep = await addEndpoint(t.db);
    // 5 accounts at their own cap (16 plain reports of 4 each) would add 320; together they add 256.
    for (let a = 0; a < 5; a++) {
      const who = await addAccount(t.db, `pool${a}`);
      for (let i = 0; i < 16; i++) await recordOutcome(t.db, report(ep), who);
    }
    await rollUpAll(t.db);
    expect(CAPS.authenticatedPerEndpoint).toBe(256);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 80, w_total: CAPS.authenticatedPerEndpoint });
  });

  it("weighs an account younger than newAccountDays at newAccountFactor", async () => {
    const ep = await addEndpoint(t.db);
    const fresh = await addAccount(t.db, "fresh", { ageDays: 1 });
    const old = await addAccount(t.db, "old", { ageDays: WEIGHTS.newAccountDays + 1 });
    await recordOutcome(t.db, report(ep, true), fresh);
    await rollUpAll(t.db);
    // Stored and counted as a report, but of no weight until the account is a week old.
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 1, w_success: 0, w_total: 0 });
    await recordOutcome(t.db, report(ep, false), old);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 2, w_success: 0, w_total: WEIGHTS.authenticated });
    expect(WEIGHTS).toMatchObject({ newAccountFactor: 0, newAccountDays: 7 });
  });

  it("weighs an aged account without historyDays days of reports at newAccountFactor; each UTC day with a counted report adds one", async () => {
    const ep = await addEndpoint(t.db);
    const idle = await addAccount(t.db, "idle", { ageDays: 30, reportDays: 0 });
    const historyOf = async () =>
      (await queryRows<{ days: number; last: string | null }>(t.db, sql`select report_days as days, last_report_day::text as last from users where id = ${idle.userId}`))[0];
    // Reports sent on three earlier days (two on the first), counted in one batch: the batch is
    // weighed with the history before it (none), then the history has three days.
    for (const daysAgo of [3, 3, 2, 1]) {
      const r = await recordOutcome(t.db, report(ep, true), idle);
      await t.db.execute(sql`update outcome_reports set created_at = now() - ${daysAgo} * interval '1 day' where id = ${r.report_id}::uuid`);
    }
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 4, w_success: 0, w_total: 0 });
    expect(await historyOf()).toMatchObject({ days: WEIGHTS.historyDays });
    // Now it weighs as an account; today is one more day, counted once however many reports it has.
    await recordOutcome(t.db, report(ep, false), idle);
    await recordOutcome(t.db, report(ep, false), idle);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 6, w_success: 0, w_total: 2 * WEIGHTS.authenticated });
    const [{ today }] = await queryRows<{ today: string }>(t.db, sql`select (now() at time zone 'UTC')::date::text as today`);
    expect(await historyOf()).toEqual({ days: WEIGHTS.historyDays + 1, last: today });
    // A report dated before the last day recorded (late, out of order) adds no day.
    const late = await recordOutcome(t.db, report(ep, true), idle);
    await t.db.execute(sql`update outcome_reports set created_at = now() - interval '5 days' where id = ${late.report_id}::uuid`);
    await rollUpAll(t.db);
    expect(await historyOf()).toEqual({ days: WEIGHTS.historyDays + 1, last: today });
    expect(WEIGHTS.historyDays).toBe(3);
  });

  it("lets unpaid accounts' failures outweigh their successes of an endpoint-hour by at most accountFailureExcess, oldest first, across batches", async () => {
    expect(CAPS.accountFailureExcess).toBe(16);
    const ep = await addEndpoint(t.db);
    // A burst of failures with no successes in the hour: 6 of 4 each (24), of which 16 count.
    const burst = await addAccount(t.db, "excess-a");
    for (let i = 0; i < 6; i++) await recordOutcome(t.db, report(ep, false), burst);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 6, w_success: 0, w_total: 16 });
    // Later in the hour, in one batch: 3 successes (12) from one account, then 4 failures (16) from
    // another. Room left: 16 + 12 successes - 24 failures tallied before = 4, so one failure counts.
    const good = await addAccount(t.db, "excess-b");
    const other = await addAccount(t.db, "excess-c");
    for (let i = 0; i < 3; i++) await recordOutcome(t.db, report(ep, true), good);
    // Strictly later (reports of one millisecond are counted in id order, which is random).
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 4; i++) await recordOutcome(t.db, report(ep, false), other);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 13, successes: 3, w_success: 12, w_total: 12 + 16 + 4 });
    // Probes are not limited: a failed probe counts its weight in full.
    await recordProbeOutcome(t.db, { endpointId: ep, success: false, latencyMs: 10_000 });
    await rollUpAll(t.db);
    expect((await rollupOf(t.db, ep)).w_total).toBe(12 + 16 + 4 + WEIGHTS.probe);
  });

  it("counts unpaid accounts' failures in full while they do not outnumber the hour's successes by more than the excess", async () => {
    const ep = await addEndpoint(t.db);
    const good = await addAccount(t.db, "excess-d");
    const bad = await addAccount(t.db, "excess-e");
    // Half the calls failed: 8 successes and 8 failures of 4 each, all counted (a 50% rate shows as 50%).
    for (let i = 0; i < 8; i++) await recordOutcome(t.db, report(ep, true), good);
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 8; i++) await recordOutcome(t.db, report(ep, false), bad);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, ep)).toMatchObject({ reports: 16, w_success: 32, w_total: 64 });
    expect((await getObservedFigures(t.db, [ep])).get(ep)!.success_rate_7d).toBeCloseTo(0.5, 5);
  });
});
