// The 7-day p95 as the ranking reads it (rollups in the database, merged over at most 168 hours)
// against the exact p95 of the raw latencies stored, for several distributions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import { getObservedFigures, rollUpAll } from "@/lib/outcomes";
import { createRandom } from "@/lib/seed/random";
import { addEndpoint } from "./outcomes-fixtures";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => t?.close());

type Rnd = ReturnType<typeof createRandom>;
const normal = (r: Rnd) => Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
const DISTRIBUTIONS: Record<string, (r: Rnd) => number> = {
  lognormal: (r) => 240 * Math.exp(0.7 * normal(r)),
  uniform: (r) => r.between(20, 3000),
  exponential: (r) => -400 * Math.log(1 - r.next()),
  bimodal: (r) => (r.next() < 0.93 ? 60 + 8 * normal(r) : 4000 + 500 * normal(r)),
  "heavy tail": (r) => 30 / Math.pow(1 - r.next(), 1 / 1.3),
};

describe("p95 latency of the observed figures", () => {
  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    it(`is within 5% of the exact p95 of the raw latencies (${name})`, async () => {
      const ep = await addEndpoint(t.db);
      const r = createRandom(name.length * 31);
      // 2,000 probe reports (uncapped, all the same weight) spread over the last 7 days, inserted in
      // batches: what is under test is the rollup and the figures, not the write path.
      const rows = Array.from({ length: 2_000 }, () => ({
        endpointId: ep,
        success: true,
        latencyMs: Math.min(600_000, Math.max(1, Math.round(draw(r)))),
        reporterKind: "probe",
        reporterKey: "probe",
        weight: 3,
        createdAt: sql`now() - ${r.between(0, 6.9 * 24)} * interval '1 hour'` as never,
      }));
      for (let i = 0; i < rows.length; i += 500) await t.db.insert(outcomeReports).values(rows.slice(i, i + 500));
      await rollUpAll(t.db);
      const raw = await queryRows<{ latency_ms: number }>(
        t.db,
        sql`select latency_ms from outcome_reports where endpoint_id = ${ep}::uuid order by latency_ms`,
      );
      const exact = Number(raw[Math.ceil(0.95 * raw.length) - 1].latency_ms);
      const f = (await getObservedFigures(t.db, [ep])).get(ep)!;
      expect(f.sample_size_7d).toBe(2_000);
      expect(Math.abs(f.p95_latency_ms! - exact) / exact).toBeLessThan(0.05);
      // Read from one row per endpoint-hour: never more than 168 of them.
      const [{ hours }] = await queryRows<{ hours: number }>(
        t.db,
        sql`select count(*)::int as hours from outcome_rollups where endpoint_id = ${ep}::uuid and hour > now() - interval '7 days'`,
      );
      expect(Number(hours)).toBeLessThanOrEqual(168);
    });
  }
});
