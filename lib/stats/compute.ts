// Computing the public statistics from the database: one statement over the registry, the hourly
// discover counters and the network-wide outcome rollups (lib/outcomes), shaped as lib/schemas/stats.ts.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { quantileOf, type Histogram } from "@/lib/outcomes/histogram";
import type { Stats } from "@/lib/schemas/stats";
import { listImportRuns } from "@/lib/imports";

export const TOP_CAPABILITIES = 10;
export const HOURLY_HOURS = 48;

type Row = {
  generated_at: Date | string;
  capabilities: { total: number; with_endpoints: number };
  endpoints: { total: number; verified: number; failing: number };
  providers: number;
  submissions: { pending: number; verified_7d: number };
  discover: { requests_24h: number; requests_7d: number; intent_7d: number };
  outcomes: { reports_24h: number; reports_7d: number; w_success: number; w_total: number };
  payments: { paid_reports_7d: number; paid_usd_7d: number; payers_7d: number };
  latency_hist: Histogram | null;
  top: Array<{ capability_id: string; requests: number }> | null;
  categories: Array<{ id: string; capabilities: number; endpoints: number }> | null;
  hourly: Array<{ hour: string; discover_requests: number; outcome_reports: number; w_success: number; w_total: number }>;
};

// Windows match the observed figures: "7 days" is the current hour and the 167 before it.
// Each big table is read once: endpoints grouped by capability, discover counters with grouping
// sets (per hour for the totals, per capability for the top list).
export const STATS_QUERY = sql`
  with epc as (
    select capability_id, count(*)::int as n,
           (count(*) filter (where check_state = 'verified'))::int as verified,
           (count(*) filter (where check_state = 'failing'))::int as failing
    from endpoints where status = 'listed' group by capability_id
  ),
  dcg as (
    select grouping(hour) as by_cap, hour, capability_id, sum(requests)::int as requests, sum(intent_requests)::int as intent
    from discover_counters where hour > now() - interval '7 days'
    group by grouping sets ((hour), (capability_id))
  ),
  dc as (select hour, requests, intent from dcg where by_cap = 0),
  nr as (select * from network_rollups where hour > now() - interval '7 days')
  select now() as generated_at,
    (select json_build_object('total', (select count(*)::int from capabilities), 'with_endpoints', count(*)::int) from epc) as capabilities,
    (select json_build_object('total', coalesce(sum(n), 0)::int, 'verified', coalesce(sum(verified), 0)::int,
                              'failing', coalesce(sum(failing), 0)::int) from epc) as endpoints,
    (select count(*)::int from providers p
     where exists (select 1 from endpoints e where e.provider_id = p.id and e.status = 'listed')) as providers,
    (select json_build_object(
        'pending', (count(*) filter (where status = 'pending_verification'))::int,
        'verified_7d', (count(*) filter (where status = 'verified'
                          and coalesce(checked_at, updated_at) > now() - interval '7 days'))::int)
     from submissions) as submissions,
    (select json_build_object(
        'requests_24h', coalesce(sum(requests) filter (where hour > now() - interval '24 hours'), 0)::int,
        'requests_7d', coalesce(sum(requests), 0)::int,
        'intent_7d', coalesce(sum(intent), 0)::int)
     from dc) as discover,
    (select json_build_object(
        'reports_24h', coalesce(sum(reports) filter (where hour > now() - interval '24 hours'), 0)::int,
        'reports_7d', coalesce(sum(reports), 0)::int,
        'w_success', coalesce(sum(w_success), 0), 'w_total', coalesce(sum(w_total), 0))
     from nr) as outcomes,
    (select json_build_object(
        'paid_reports_7d', count(*)::int, 'paid_usd_7d', coalesce(sum(paid_amount), 0)::float8,
        'payers_7d', count(distinct reporter_key)::int)
     from outcome_reports
     where paid_amount > 0 and created_at > date_trunc('hour', now()) - interval '167 hours' and reporter_kind <> 'probe') as payments,
    (select jsonb_object_agg(k, v) from (
        select key as k, sum(value::float8) as v from nr, jsonb_each_text(nr.latency_hist) group by key) b) as latency_hist,
    (select json_agg(t) from (
        select capability_id, requests from dcg where by_cap = 1 and requests > 0
        order by requests desc, capability_id limit ${TOP_CAPABILITIES}) t) as top,
    (select json_agg(c order by c.position, c.id) from (
        select cat.id, cat.position, coalesce(cc.capabilities, 0)::int as capabilities, coalesce(cc.endpoints, 0)::int as endpoints
        from categories cat
        left join (select cap.category_id, count(*) as capabilities, sum(epc.n) as endpoints
                   from capabilities cap left join epc on epc.capability_id = cap.id group by 1) cc
          on cc.category_id = cat.id) c) as categories,
    (select json_agg(json_build_object(
        'hour', h.hour, 'discover_requests', coalesce(dc.requests, 0), 'outcome_reports', coalesce(nr.reports, 0),
        'w_success', coalesce(nr.w_success, 0), 'w_total', coalesce(nr.w_total, 0)) order by h.hour)
     from generate_series(date_trunc('hour', now()) - interval '${sql.raw(String(HOURLY_HOURS - 1))} hours',
                          date_trunc('hour', now()), interval '1 hour') as h(hour)
     left join dc on dc.hour = h.hour left join nr on nr.hour = h.hour) as hourly`;

/** Computes the statistics now, from the live tables. */
export async function computeStats(db: Db): Promise<Stats> {
  const [[r], runs] = await Promise.all([queryRows<Row>(db, STATS_QUERY), listImportRuns(db, { perSource: true, limit: 20 })]);
  const d = r.discover;
  const o = r.outcomes;
  const p95 = quantileOf(r.latency_hist ?? {}, 0.95);
  return {
    generated_at: new Date(r.generated_at).toISOString(),
    capabilities: r.capabilities,
    endpoints: r.endpoints,
    providers: { total: Number(r.providers) },
    submissions: r.submissions,
    discover: {
      requests_24h: d.requests_24h,
      requests_7d: d.requests_7d,
      intent_share_7d: d.requests_7d > 0 ? round(d.intent_7d / d.requests_7d, 4) : 0,
    },
    outcomes: {
      reports_24h: o.reports_24h,
      reports_7d: o.reports_7d,
      // Weighted like the ranking, so a flood of cheap reports moves the public figure no more than a ranking.
      success_rate_7d: o.w_total > 0 ? round(o.w_success / o.w_total, 4) : null,
      p95_latency_ms_7d: p95 === null ? null : Math.round(p95),
      // What callers said they paid (report_outcome paid_amount), as reported: not weighted
      paid_reports_7d: r.payments?.paid_reports_7d ?? 0,
      paid_usd_7d: round(Number(r.payments?.paid_usd_7d ?? 0), 6),
      payers_7d: r.payments?.payers_7d ?? 0,
    },
    top_capabilities: (r.top ?? []).map((t) => ({ capability_id: t.capability_id, discover_requests_7d: t.requests })),
    categories: (r.categories ?? []).map((c) => ({ id: c.id, capabilities: c.capabilities, endpoints: c.endpoints })),
    imports: runs
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
      .map((run) => ({
        source: run.source,
        status: run.status,
        finished_at: run.finishedAt?.toISOString() ?? null,
        seen: run.summary.seen ?? 0,
        new: run.summary.new ?? 0,
        updated: run.summary.updated ?? 0,
        unmapped: run.summary.unmapped ?? 0,
        delisted: run.summary.delisted ?? 0,
        skipped: run.summary.skipped ?? {},
        ms: run.summary.ms ?? 0,
      })),
    hourly: r.hourly.map((h) => ({
      hour: new Date(h.hour).toISOString(),
      discover_requests: h.discover_requests,
      outcome_reports: h.outcome_reports,
      success_rate: h.w_total > 0 ? round(h.w_success / h.w_total, 4) : null,
    })),
  };
}

function round(x: number, digits: number) {
  const m = 10 ** digits;
  return Math.round(x * m) / m;
}
