// Observed 7-day figures of endpoints. getObservedFigures computes them from the hourly rollups (at
// most 168 rows each); the rollup job stores the result per endpoint in endpoint_figures
// (refreshDueFigures), which is what discovery reads. Reports still pending are left out on
// purpose: their caps are applied only when the rollup job counts them (within ROLLUP_INTERVAL_MS),
// and counting them raw would let a burst weigh more for a few seconds than it ever will. Tests
// call rollUpAll(db), which also refreshes the stored figures, before reading figures.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import { quantileOf, type Histogram } from "./histogram";

export type ObservedFigures = {
  success_rate_7d: number | null;
  p95_latency_ms: number | null;
  sample_size_7d: number;
  /** Different callers that reported in 7 days (probes and the provider's own reports left out). */
  distinct_reporters_7d: number;
  /** Reports backed by a verified payment in 7 days (the provider's own wallets and account left out). */
  paid_reports_7d: number;
  /** Different wallets that paid for those reports. */
  distinct_payers_7d: number;
  /** Weighted successes and total, for smoothing in the ranking. */
  weighted_success_7d: number;
  weighted_total_7d: number;
  /** Weighted success rate per day (oldest first), for the stability factor. */
  daily_success: Array<number | null>;
};

type Row = { endpoint_id: string; reports: number; w_success: number; w_total: number; daily: Record<string, number | null>; hist: Histogram | null };

/** The ids as one uuid[] parameter (a malformed id fails the cast; nothing is spliced into the SQL). */
const uuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

export function emptyFigures(): ObservedFigures {
  return {
    success_rate_7d: null,
    p95_latency_ms: null,
    sample_size_7d: 0,
    distinct_reporters_7d: 0,
    paid_reports_7d: 0,
    distinct_payers_7d: 0,
    weighted_success_7d: 0,
    weighted_total_7d: 0,
    daily_success: Array(7).fill(null),
  };
}

/** 7-day figures for the given endpoints, keyed by endpoint id (every id present). */
export async function getObservedFigures(db: Db, endpointIds: string[]): Promise<Map<string, ObservedFigures>> {
  const out = new Map<string, ObservedFigures>(endpointIds.map((id) => [id, emptyFigures()]));
  if (!endpointIds.length) return out;
  // One row per endpoint: the sums, the weighted success rate of each day (0 = today) and the
  // histogram merged in the database, so only a few numbers per endpoint cross the wire and are
  // parsed here (merging ~168 hourly histograms in JS cost ~0.3 ms of server CPU per endpoint).
  const rows = await queryRows<Row>(
    db,
    sql`with r as (
          select endpoint_id, reports, w_success, w_total, latency_hist,
                 least(6, greatest(0, floor(extract(epoch from (now() - hour)) / 86400)))::int as day
          from outcome_rollups
          where endpoint_id = any(${uuidArray(endpointIds)}) and hour > now() - interval '7 days'
        ),
        d as (select endpoint_id, day, sum(reports) as n, sum(w_success) as ws, sum(w_total) as wt from r group by 1, 2),
        h as (select endpoint_id, jsonb_object_agg(b, w) as hist from (
                select endpoint_id, e.key as b, sum(e.value::float8) as w
                from r cross join lateral jsonb_each_text(r.latency_hist) e group by 1, 2) x
              group by 1)
        select d.endpoint_id::text as endpoint_id, sum(d.n)::int as reports, sum(d.ws)::float8 as w_success,
               sum(d.wt)::float8 as w_total,
               jsonb_object_agg(d.day, case when d.wt > 0 then d.ws / d.wt end) as daily,
               h.hist
        from d left join h on h.endpoint_id = d.endpoint_id group by d.endpoint_id, h.hist`,
  );
  const hists = new Map<string, Histogram>();
  for (const r of rows) {
    const f = out.get(r.endpoint_id)!;
    f.sample_size_7d = Number(r.reports);
    f.weighted_success_7d = Number(r.w_success);
    f.weighted_total_7d = Number(r.w_total);
    for (const [day, rate] of Object.entries(r.daily)) f.daily_success[6 - Number(day)] = rate === null ? null : Number(rate);
    if (r.hist) hists.set(r.endpoint_id, r.hist);
  }
  // Distinct callers cannot be summed from hourly rollups: counted from the reports themselves (the
  // rolled-up ones, like every other figure), over the (endpoint_id, created_at) index, in the same
  // window as the rollups above (whole hours that start within the last 7 days).
  const reporters = await queryRows<{ endpoint_id: string; n: number }>(
    db,
    sql`select r.endpoint_id::text as endpoint_id, count(distinct r.reporter_key)::int as n
        from outcome_reports r
        join endpoints e on e.id = r.endpoint_id
        join providers p on p.id = e.provider_id
        where r.endpoint_id = any(${uuidArray(endpointIds)})
          and r.created_at >= date_trunc('hour', now() - interval '7 days') + interval '1 hour'
          and r.rolled_up and r.reporter_kind not in ('probe', 'paid_check')
          and (p.user_id is null or r.user_id is distinct from p.user_id)
        group by r.endpoint_id`,
  );
  for (const r of reporters) out.get(r.endpoint_id)!.distinct_reporters_7d = Number(r.n);
  // Paid reports and their wallets, from the evidence of rolled-up reports in the same window.
  const paid = await queryRows<{ endpoint_id: string; n: number; payers: number }>(
    db,
    sql`select pe.endpoint_id::text as endpoint_id, count(*)::int as n, count(distinct pe.network || ' ' || pe.payer)::int as payers
        from payment_evidence pe
        join outcome_reports r on r.id = pe.report_id
        join endpoints e on e.id = pe.endpoint_id
        join providers p on p.id = e.provider_id
        where pe.endpoint_id = any(${uuidArray(endpointIds)})
          and pe.created_at >= date_trunc('hour', now() - interval '7 days') + interval '1 hour'
          and r.created_at >= date_trunc('hour', now() - interval '7 days') + interval '1 hour'
          and pe.status = 'verified' and not pe.payer_is_provider and r.rolled_up
          and (p.user_id is null or r.user_id is distinct from p.user_id)
        group by pe.endpoint_id`,
  );
  for (const r of paid) {
    const f = out.get(r.endpoint_id)!;
    f.paid_reports_7d = Number(r.n);
    f.distinct_payers_7d = Number(r.payers);
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

/**
 * Stored figures are recomputed this long after the last time at the soonest, however often new
 * reports arrive for the endpoint (FIGURES_REFRESH_MS, default 60 s): a busy endpoint costs one
 * 7-day aggregation a minute, not one per rollup run.
 */
export function figuresRefreshMs(): number {
  const n = Number(process.env.FIGURES_REFRESH_MS);
  return process.env.FIGURES_REFRESH_MS?.trim() && Number.isFinite(n) && n >= 0 ? n : 60_000;
}
/** Every endpoint with reports is recomputed at least this often, as its 7-day window slides. */
export const FIGURES_SWEEP_MS = 3_600_000;

/** Computes the given endpoints' figures from their rollups and stores them in endpoint_figures. */
export async function storeFigures(db: Db, endpointIds: string[]): Promise<number> {
  if (!endpointIds.length) return 0;
  const figures = await getObservedFigures(db, endpointIds);
  const rows = JSON.stringify(
    [...figures].map(([id, f]) => ({
      endpoint_id: id,
      reports: f.sample_size_7d,
      distinct_reporters: f.distinct_reporters_7d,
      paid_reports: f.paid_reports_7d,
      distinct_payers: f.distinct_payers_7d,
      w_success: f.weighted_success_7d,
      w_total: f.weighted_total_7d,
      success_rate: f.success_rate_7d,
      p95_latency_ms: f.p95_latency_ms,
      daily: f.daily_success,
    })),
  );
  // changed_at moves only when a value does (discovery reloads what changed, nothing else). Rows of
  // endpoints deleted meanwhile are skipped rather than failing the batch.
  const stored = await queryRows<{ n: number }>(
    db,
    sql`with v as (
          select x.* from jsonb_to_recordset(${rows}::jsonb) as x(endpoint_id uuid, reports int, distinct_reporters int, paid_reports int, distinct_payers int, w_success float8, w_total float8,
                 success_rate float8, p95_latency_ms int, daily jsonb)
          where exists (select 1 from endpoints e where e.id = x.endpoint_id)),
        up as (
          insert into endpoint_figures as f (endpoint_id, reports, distinct_reporters, paid_reports, distinct_payers, w_success, w_total, success_rate, p95_latency_ms, daily, dirty, computed_at, changed_at)
          select endpoint_id, reports, distinct_reporters, paid_reports, distinct_payers, w_success, w_total, success_rate, p95_latency_ms, daily, false, now(), clock_timestamp() from v
          order by endpoint_id
          on conflict (endpoint_id) do update set
            reports = excluded.reports, distinct_reporters = excluded.distinct_reporters,
            paid_reports = excluded.paid_reports, distinct_payers = excluded.distinct_payers, w_success = excluded.w_success, w_total = excluded.w_total,
            success_rate = excluded.success_rate, p95_latency_ms = excluded.p95_latency_ms, daily = excluded.daily,
            computed_at = excluded.computed_at,
            changed_at = case when (f.reports, f.distinct_reporters, f.paid_reports, f.distinct_payers, f.w_success, f.w_total, f.success_rate, f.p95_latency_ms, f.daily)
                                   is distinct from (excluded.reports, excluded.distinct_reporters, excluded.paid_reports, excluded.distinct_payers, excluded.w_success, excluded.w_total,
                                                     excluded.success_rate, excluded.p95_latency_ms, excluded.daily)
                              then excluded.changed_at else f.changed_at end
          returning 1)
        select count(*)::int as n from up`,
  );
  return Number(stored[0]?.n ?? 0);
}

/**
 * Recomputes stored figures that are due, oldest first: up to `limit` with newly counted reports
 * (dirty) last computed over `throttleMs` ago, and up to `sweep` with reports not computed for
 * FIGURES_SWEEP_MS (the window slides; a small `sweep` per run spreads that work over the hour).
 * Each kind is a range scan of its partial index that stops at the first row not due. `dirty` is
 * cleared before computing, so reports counted meanwhile mark the endpoint again and are picked up
 * by a later run (nothing is missed, at worst computed twice).
 */
export async function refreshDueFigures(db: Db, opts: { throttleMs?: number; limit?: number; sweep?: number } = {}): Promise<number> {
  const throttleMs = opts.throttleMs ?? figuresRefreshMs();
  const limit = opts.limit ?? 250;
  const sweep = opts.sweep ?? limit;
  const due = await queryRows<{ id: string }>(
    db,
    // = any(array || array), not "in (...) or in (...)": the planner turns the OR into a scan of
    // the whole table (6.6 ms on 20,000 rows, every run) instead of primary-key lookups (0.1 ms).
    sql`update endpoint_figures f set dirty = false
        where f.endpoint_id = any(
          array(select endpoint_id from endpoint_figures
                where dirty and computed_at <= now() - ${throttleMs} * interval '1 millisecond'
                order by computed_at limit ${limit} for update skip locked)
          || array(select endpoint_id from endpoint_figures
                   where reports > 0 and computed_at < now() - ${FIGURES_SWEEP_MS} * interval '1 millisecond'
                   order by computed_at limit ${sweep} for update skip locked))
        returning f.endpoint_id::text as id`,
  );
  return storeFigures(
    db,
    due.map((r) => r.id),
  );
}

/** Stored figures of the given endpoints (empty figures for those without). */
export async function readStoredFigures(db: Db, endpointIds: string[]): Promise<Map<string, ObservedFigures>> {
  const out = new Map<string, ObservedFigures>(endpointIds.map((id) => [id, emptyFigures()]));
  if (!endpointIds.length) return out;
  const rows = await queryRows<StoredFiguresRow & { endpoint_id: string }>(
    db,
    sql`select endpoint_id::text as endpoint_id, reports, distinct_reporters, paid_reports, distinct_payers, w_success, w_total, success_rate, p95_latency_ms, daily
        from endpoint_figures where endpoint_id = any(${uuidArray(endpointIds)})`,
  );
  for (const r of rows) out.set(r.endpoint_id, figuresOfRow(r));
  return out;
}

export type StoredFiguresRow = {
  reports: number | null;
  distinct_reporters?: number | null;
  paid_reports?: number | null;
  distinct_payers?: number | null;
  w_success: number | null;
  w_total: number | null;
  success_rate: number | null;
  p95_latency_ms: number | null;
  daily: Array<number | null> | null;
};

/** ObservedFigures from a stored row (null, or all null: the endpoint has none yet). */
export function figuresOfRow(r: StoredFiguresRow | null): ObservedFigures {
  if (r === null || r.reports === null) return emptyFigures();
  return {
    success_rate_7d: r.success_rate === null ? null : Number(r.success_rate),
    p95_latency_ms: r.p95_latency_ms === null ? null : Number(r.p95_latency_ms),
    sample_size_7d: Number(r.reports),
    distinct_reporters_7d: Number(r.distinct_reporters ?? 0),
    paid_reports_7d: Number(r.paid_reports ?? 0),
    distinct_payers_7d: Number(r.distinct_payers ?? 0),
    weighted_success_7d: Number(r.w_success),
    weighted_total_7d: Number(r.w_total),
    daily_success: r.daily ?? Array(7).fill(null),
  };
}
