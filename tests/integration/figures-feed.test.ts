// The stored 7-day figures (endpoint_figures, kept by the rollup job) and discovery's change feed:
// cached candidates are reloaded when, and only when, something they show changed in the database,
// whoever changed it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows, type Db } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import { discover, flushDiscoveryLog, invalidateCandidates } from "@/lib/discovery";
import { reloadDiscoverySettings } from "@/lib/discovery/settings";
import { getObservedFigures, readStoredFigures, refreshDueFigures, rollUpAll, rollUpReports } from "@/lib/outcomes";
import { addEndpoint, addProvider, anonymous } from "./outcomes-fixtures";

process.env.DISCOVERY_EXPLORATION_RATE = "0";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => {
  if (t) await flushDiscoveryLog(t.db);
  await t?.close();
});

/** Probe reports (uncapped) for an endpoint, `ok` of `n` successful, stored as the write path would. */
async function addReports(db: Db, endpointId: string, n: number, ok: number, latencyMs = 120) {
  await db.insert(outcomeReports).values(
    Array.from({ length: n }, (_, i) => ({
      endpointId,
      success: i < ok,
      latencyMs,
      reporterKind: "probe",
      reporterKey: "probe",
      weight: 1,
    })),
  );
}

async function figuresRow(db: Db, endpointId: string) {
  const [row] = await queryRows<{ dirty: boolean; computed: number; changed: number; reports: number }>(
    db,
    sql`select dirty, (extract(epoch from computed_at) * 1000)::float8 as computed,
               (extract(epoch from changed_at) * 1000)::float8 as changed, reports
        from endpoint_figures where endpoint_id = ${endpointId}::uuid`,
  );
  return row;
}

describe("stored figures", () => {
  it("are what the rollups give, once the rollup job has counted the reports", async () => {
    const ep = await addEndpoint(t.db);
    await addReports(t.db, ep, 40, 30, 250);
    expect((await readStoredFigures(t.db, [ep])).get(ep)!.sample_size_7d).toBe(0); // nothing counted yet
    await rollUpAll(t.db);
    const stored = (await readStoredFigures(t.db, [ep])).get(ep)!;
    expect(stored).toEqual((await getObservedFigures(t.db, [ep])).get(ep)!);
    expect(stored).toMatchObject({ sample_size_7d: 40, success_rate_7d: 0.75, weighted_total_7d: 40 });
    expect((await figuresRow(t.db, ep)).dirty).toBe(false);
  });

  it("are recomputed no sooner than the throttle allows, however often reports are counted", async () => {
    const ep = await addEndpoint(t.db);
    await addReports(t.db, ep, 10, 10);
    await rollUpAll(t.db);
    await addReports(t.db, ep, 10, 0);
    await rollUpReports(t.db);
    expect((await figuresRow(t.db, ep)).dirty).toBe(true);
    // Computed a moment ago: a one-minute throttle leaves it for later, with its mark kept.
    await refreshDueFigures(t.db, { throttleMs: 60_000 });
    expect(await figuresRow(t.db, ep)).toMatchObject({ dirty: true, reports: 10 });
    expect((await readStoredFigures(t.db, [ep])).get(ep)!.success_rate_7d).toBe(1);
    // Once the throttle has passed, the next run takes it.
    await t.db.execute(sql`update endpoint_figures set computed_at = computed_at - interval '61 seconds' where endpoint_id = ${ep}::uuid`);
    await refreshDueFigures(t.db, { throttleMs: 60_000 });
    expect(await figuresRow(t.db, ep)).toMatchObject({ dirty: false, reports: 20 });
    expect((await readStoredFigures(t.db, [ep])).get(ep)!.success_rate_7d).toBe(0.5);
  });

  it("move changed_at only when a value changes, and are swept hourly as the window slides", async () => {
    const ep = await addEndpoint(t.db);
    await addReports(t.db, ep, 5, 5);
    await rollUpAll(t.db);
    const before = await figuresRow(t.db, ep);
    // Recomputed with nothing new: computed_at moves, changed_at does not.
    await t.db.execute(sql`update endpoint_figures set dirty = true, computed_at = computed_at - interval '2 minutes' where endpoint_id = ${ep}::uuid`);
    await refreshDueFigures(t.db, { throttleMs: 60_000 });
    const after = await figuresRow(t.db, ep);
    expect(after.computed).toBeGreaterThan(before.computed - 120_000);
    expect(after.changed).toBe(before.changed);
    // Eight days later the reports have left the window: the hourly sweep empties the figures.
    await t.db.execute(sql`update outcome_rollups set hour = hour - interval '8 days' where endpoint_id = ${ep}::uuid`);
    await t.db.execute(sql`update endpoint_figures set computed_at = computed_at - interval '61 minutes' where endpoint_id = ${ep}::uuid`);
    await refreshDueFigures(t.db, { throttleMs: 60_000 });
    const swept = await figuresRow(t.db, ep);
    expect(swept.reports).toBe(0);
    expect(swept.changed).toBeGreaterThan(before.changed);
    expect((await readStoredFigures(t.db, [ep])).get(ep)!.success_rate_7d).toBeNull();
  });

  it("sweep at most the given number of rows a run, oldest first", async () => {
    const eps = [await addEndpoint(t.db), await addEndpoint(t.db), await addEndpoint(t.db)];
    for (const ep of eps) await addReports(t.db, ep, 3, 3);
    await rollUpAll(t.db);
    // Everything else is recent; these three were computed 2, 3 and 4 hours ago.
    for (const [i, ep] of eps.entries()) {
      await t.db.execute(sql`update endpoint_figures set computed_at = now() - ${i + 2} * interval '1 hour' where endpoint_id = ${ep}::uuid`);
    }
    expect(await refreshDueFigures(t.db, { throttleMs: 60_000, sweep: 2 })).toBe(2);
    const recent = async (ep: string) => (await figuresRow(t.db, ep)).computed > Date.now() - 600_000;
    expect([await recent(eps[0]), await recent(eps[1]), await recent(eps[2])]).toEqual([false, true, true]);
    expect(await refreshDueFigures(t.db, { throttleMs: 60_000, sweep: 2 })).toBe(1);
    expect(await recent(eps[0])).toBe(true);
  });
});

describe("discovery's change feed", () => {
  const caller = anonymous("192.0.2.77");
  const answer = async (capabilityId: string) => (await discover(t.db, { capability_id: capabilityId, preferences: { limit: 20 } }, caller)).ranked_endpoints;

  it("reloads a capability when its endpoints, provider or figures change in the database, and only then", async () => {
    const cap = "geo.geocode";
    const providerId = await addProvider(t.db, { name: "Before Name" });
    const ep = await addEndpoint(t.db, { capabilityId: cap, providerId, price: 0.002 });
    invalidateCandidates(t.db);
    process.env.DISCOVERY_CACHE_MS = "0";
    reloadDiscoverySettings();
    try {
      const of = async () => (await answer(cap)).find((e) => e.endpoint_id === ep)!;
      expect((await of()).payment.price_per_call).toBe(0.002);

      // A price change written straight into the table (another instance, an operator's SQL).
      await t.db.execute(sql`update endpoints set price_per_call = 0.004 where id = ${ep}::uuid`);
      await vi.waitFor(async () => expect((await of()).payment.price_per_call).toBe(0.004), { timeout: 5_000, interval: 20 });

      // The provider's new name, through the providers trigger.
      await t.db.execute(sql`update providers set name = 'After Name' where id = ${providerId}::uuid`);
      await vi.waitFor(async () => expect((await of()).provider_name).toBe("After Name"), { timeout: 5_000, interval: 20 });

      // New figures from the rollup job.
      await addReports(t.db, ep, 8, 6);
      await rollUpAll(t.db);
      await vi.waitFor(async () => expect((await of()).observed.sample_size_7d).toBe(8), { timeout: 5_000, interval: 20 });

      // Only then: a change the feed does not see (the trigger switched off) is not picked up by
      // time, however many polls run; the cache holds what it loaded.
      await t.db.execute(sql`alter table endpoints disable trigger endpoints_changed_at`);
      try {
        await t.db.execute(sql`update endpoints set price_per_call = 0.009 where id = ${ep}::uuid`);
        for (let i = 0; i < 20; i++) {
          expect((await of()).payment.price_per_call).toBe(0.004);
          await new Promise((r) => setTimeout(r, 10));
        }
      } finally {
        await t.db.execute(sql`alter table endpoints enable trigger endpoints_changed_at`);
      }
      invalidateCandidates(t.db, cap);
      expect((await of()).payment.price_per_call).toBe(0.009);
    } finally {
      delete process.env.DISCOVERY_CACHE_MS;
      reloadDiscoverySettings();
    }
  });

  it("leaves changed_at alone when a probe only reschedules an endpoint, and moves it on a ranked column", async () => {
    const ep = await addEndpoint(t.db, { capabilityId: "geo.geocode" });
    const changedAt = async () =>
      Number((await queryRows<{ at: number }>(t.db, sql`select (extract(epoch from changed_at) * 1000)::float8 as at from endpoints where id = ${ep}::uuid`))[0].at);
    const first = await changedAt();
    await new Promise((r) => setTimeout(r, 5));
    await t.db.execute(sql`update endpoints set next_check_at = now() + interval '1 hour', last_check_at = now(), updated_at = now() where id = ${ep}::uuid`);
    expect(await changedAt()).toBe(first);
    await t.db.execute(sql`update endpoints set consecutive_failures = 1, last_check_ok = false where id = ${ep}::uuid`);
    expect(await changedAt()).toBeGreaterThan(first);
  });
});
