// The public network statistics (GET /api/stats and the stats page): one SQL statement over small
// tables and hourly rollups, cached for a few seconds per instance.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { quantileOf, type Histogram } from "@/lib/outcomes/histogram";
import type { Stats } from "@/lib/schemas/stats";

export const STATS_CACHE_MS = Number(process.env.STATS_CACHE_MS ?? 5_000);
const TOP_CAPABILITIES = 10;
const HOURS = 48;

type Row = {
  generated_at: Date | string;
  capabilities_total: number;
  endpoints: { total: number; verified: number; failing: number; providers: number; capabilities: number };
  submissions: { pending: number; verified_7d: number };
  discover: { requests_24h: number; requests_7d: number; intent_7d: number };
  outcomes: { reports_24h: number; reports_7d: number; w_success: number; w_total: number };
  latency_hist: Histogram | null;
  top: Array<{ capability_id: string; requests: number }> | null;
  categories: Array<{ id: string; capabilities: number; endpoints: number }> | null;
  hourly: Array<{ hour: string; discover_requests: number; outcome_reports: number; w_success: number; w_total: number }>;
};

// Windows match the observed figures: "7 days" is the current hour and the 167 before it.
const STATS_QUERY = sql`
  with ep as (
    select count(*)::int as total,
           (count(*) filter (where check_state = 'verified'))::int as verified,
           (count(*) filter (where check_state = 'failing'))::int as failing,
           count(distinct provider_id)::int as providers,
           count(distinct capability_id)::int as capabilities
    from endpoints where status = 'listed'
  ),
  dc as (
    select hour, sum(requests)::int as requests, sum(intent_requests)::int as intent
    from discover_counters where hour > now() - interval '7 days' group by hour
  ),
  nr as (select * from network_rollups where hour > now() - interval '7 days')
  select now() as generated_at,
    (select count(*)::int from capabilities) as capabilities_total,
    (select row_to_json(ep) from ep) as endpoints,
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
    (select jsonb_object_agg(k, v) from (
        select key as k, sum(value::float8) as v from nr, jsonb_each_text(nr.latency_hist) group by key) b) as latency_hist,
    (select json_agg(t) from (
        select capability_id, sum(requests)::int as requests from discover_counters
        where hour > now() - interval '7 days' group by capability_id
        order by 2 desc, 1 limit ${TOP_CAPABILITIES}) t) as top,
    (select json_agg(c order by c.position, c.id) from (
        select cat.id, cat.position, coalesce(cc.capabilities, 0)::int as capabilities, coalesce(ce.endpoints, 0)::int as endpoints
        from categories cat
        left join (select category_id, count(*) as capabilities from capabilities group by 1) cc on cc.category_id = cat.id
        left join (select cap.category_id, count(*) as endpoints from endpoints e
                   join capabilities cap on cap.id = e.capability_id where e.status = 'listed' group by 1) ce
          on ce.category_id = cat.id) c) as categories,
    (select json_agg(json_build_object(
        'hour', h.hour, 'discover_requests', coalesce(dc.requests, 0), 'outcome_reports', coalesce(nr.reports, 0),
        'w_success', coalesce(nr.w_success, 0), 'w_total', coalesce(nr.w_total, 0)) order by h.hour)
     from generate_series(date_trunc('hour', now()) - interval '${sql.raw(String(HOURS - 1))} hours',
                          date_trunc('hour', now()), interval '1 hour') as h(hour)
     left join dc on dc.hour = h.hour left join nr on nr.hour = h.hour) as hourly`;

/** Computes the statistics now (no cache). */
export async function computeStats(db: Db): Promise<Stats> {
  const [r] = await queryRows<Row>(db, STATS_QUERY);
  const d = r.discover;
  const o = r.outcomes;
  const p95 = quantileOf(r.latency_hist ?? {}, 0.95);
  return {
    generated_at: new Date(r.generated_at).toISOString(),
    capabilities: { total: Number(r.capabilities_total), with_endpoints: r.endpoints.capabilities },
    endpoints: { total: r.endpoints.total, verified: r.endpoints.verified, failing: r.endpoints.failing },
    providers: { total: r.endpoints.providers },
    submissions: { pending: r.submissions.pending, verified_7d: r.submissions.verified_7d },
    discover: {
      requests_24h: d.requests_24h,
      requests_7d: d.requests_7d,
      intent_share_7d: d.requests_7d > 0 ? round(d.intent_7d / d.requests_7d, 4) : 0,
    },
    outcomes: {
      reports_24h: o.reports_24h,
      reports_7d: o.reports_7d,
      // Weighted like the ranking, so floods of cheap reports move the public figure no more than a ranking.
      success_rate_7d: o.w_total > 0 ? round(o.w_success / o.w_total, 4) : null,
      p95_latency_ms_7d: p95 === null ? null : Math.round(p95),
    },
    top_capabilities: (r.top ?? []).map((t) => ({ capability_id: t.capability_id, discover_requests_7d: t.requests })),
    categories: (r.categories ?? []).map((c) => ({ id: c.id, capabilities: c.capabilities, endpoints: c.endpoints })),
    hourly: r.hourly.map((h) => ({
      hour: new Date(h.hour).toISOString(),
      discover_requests: h.discover_requests,
      outcome_reports: h.outcome_reports,
      success_rate: h.w_total > 0 ? round(h.w_success / h.w_total, 4) : null,
    })),
  };
}

const cache = new WeakMap<Db, { at: number; value: Promise<Stats> }>();

/** The statistics, at most `maxAgeMs` old (default STATS_CACHE_MS); concurrent misses share one query. */
export async function getStats(db: Db, opts: { maxAgeMs?: number } = {}): Promise<Stats> {
  const maxAge = opts.maxAgeMs ?? STATS_CACHE_MS;
  const hit = cache.get(db);
  if (hit && maxAge > 0 && Date.now() - hit.at < maxAge) return hit.value;
  const value = computeStats(db);
  const entry = { at: Date.now(), value };
  cache.set(db, entry);
  value.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return value;
}

function round(x: number, digits: number) {
  const m = 10 ** digits;
  return Math.round(x * m) / m;
}
