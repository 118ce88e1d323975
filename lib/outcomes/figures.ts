// Observed 7-day figures of endpoints, read from the hourly rollups (at most 168 rows each).
// Reports still pending are left out on purpose: their caps are applied only when the rollup job
// counts them (within ROLLUP_INTERVAL_MS), and counting them raw would let a burst weigh more for a
// few seconds than it ever will. Tests call rollUpAll(db) before reading figures.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import { mergeHistograms, quantileOf, type Histogram } from "./histogram";

export type ObservedFigures = {
  success_rate_7d: number | null;
  p95_latency_ms: number | null;
  sample_size_7d: number;
  /** Weighted successes and total, for smoothing in the ranking. */
  weighted_success_7d: number;
  weighted_total_7d: number;
  /** Weighted success rate per day (oldest first), for the stability factor. */
  daily_success: Array<number | null>;
};

type Row = { endpoint_id: string; day: number; reports: number; w_success: number; w_total: number; hist: Histogram };

export function emptyFigures(): ObservedFigures {
  return {
    success_rate_7d: null,
    p95_latency_ms: null,
    sample_size_7d: 0,
    weighted_success_7d: 0,
    weighted_total_7d: 0,
    daily_success: Array(7).fill(null),
  };
}

/** 7-day figures for the given endpoints, keyed by endpoint id (every id present). */
export async function getObservedFigures(db: Db, endpointIds: string[]): Promise<Map<string, ObservedFigures>> {
  const out = new Map<string, ObservedFigures>(endpointIds.map((id) => [id, emptyFigures()]));
  if (!endpointIds.length) return out;
  // One row per endpoint and day; the histograms of the day's hours are merged in JS.
  const rows = await queryRows<Row>(
    db,
    sql`select endpoint_id::text as endpoint_id,
          least(6, greatest(0, floor(extract(epoch from (now() - hour)) / 86400)))::int as day,
          sum(reports)::int as reports, sum(w_success)::float8 as w_success, sum(w_total)::float8 as w_total,
          jsonb_agg(latency_hist) as hist
        from outcome_rollups
        where endpoint_id in (${sql.join(endpointIds.map((id) => sql`${id}::uuid`), sql`, `)})
          and hour > now() - interval '7 days'
        group by 1, 2`,
  );
  const hists = new Map<string, Histogram>();
  for (const r of rows) {
    const f = out.get(r.endpoint_id)!;
    f.sample_size_7d += Number(r.reports);
    f.weighted_success_7d += Number(r.w_success);
    f.weighted_total_7d += Number(r.w_total);
    const day = 6 - Number(r.day);
    f.daily_success[day] = Number(r.w_total) > 0 ? Number(r.w_success) / Number(r.w_total) : null;
    const h = hists.get(r.endpoint_id) ?? {};
    for (const part of r.hist as unknown as Histogram[]) mergeHistograms(h, part);
    hists.set(r.endpoint_id, h);
  }
  for (const [id, f] of out) {
    if (f.weighted_total_7d > 0) f.success_rate_7d = round(f.weighted_success_7d / f.weighted_total_7d, 4);
    const p95 = quantileOf(hists.get(id) ?? {}, 0.95);
    f.p95_latency_ms = p95 === null ? null : Math.round(p95);
  }
  return out;
}

function round(x: number, digits: number) {
  const m = 10 ** digits;
  return Math.round(x * m) / m;
}
