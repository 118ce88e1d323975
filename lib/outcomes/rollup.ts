// Counts raw outcome reports into the hourly rollups, applying the caps of lib/outcomes/weights.ts.
// Each batch claims its reports with FOR UPDATE SKIP LOCKED and marks them rolled up in the same
// statement, so any number of runs can overlap and every report is counted exactly once; the caps
// are running totals in reporter_weights, updated by upsert in that statement, so they stay exact too.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import { bucketSql } from "./histogram";
import { ANONYMOUS_POOL_KEY, CAPS, WEIGHTS, reporterSecret } from "./weights";

const num = (n: number) => sql.raw(String(n));

/** Sum of two sparse histograms (jsonb maps bucket -> weight), bucket by bucket. */
function mergeHistSql(a: SQL, b: SQL): SQL {
  return sql`(select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from (
      select key as k, sum(value::float8) as v from (
        select * from jsonb_each_text(${a}) union all select * from jsonb_each_text(${b})) u
      group by key) s)`;
}

/** Rolls up at most `limit` pending reports; returns how many it counted. */
export async function rollUpReports(db: Db, limit = 20_000): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, rollupStatement(limit));
  return Number(row?.n ?? 0);
}

/** The one statement of a rollup batch (exported for EXPLAIN). */
export function rollupStatement(limit: number): SQL {
  // Discoveries are logged by principal key (key:<api key id> or ip:<address>); reports keep only
  // the account (user_id) or a hash of the address (anonymousReporterKey, recomputed here).
  const ownDiscovery = sql`b.discovery_id is not null and b.reporter_kind <> 'probe' and exists (
      select 1 from discoveries d
      where d.id = b.discovery_id and b.endpoint_id = any(d.endpoint_ids)
        and d.created_at > b.created_at - ${num(WEIGHTS.discoveryWindowMinutes)} * interval '1 minute'
        and d.created_at < b.created_at + ${num(WEIGHTS.discoveryClockSlackMinutes)} * interval '1 minute'
        and case when b.reporter_kind = 'authenticated' then exists (
                   select 1 from api_keys k
                   where k.id = (case when d.principal_key ~ '^key:[0-9a-fA-F-]{36}$' then substr(d.principal_key, 5)::uuid end)
                     and k.user_id = b.user_id)
                 else b.reporter_key = 'a:' || substr(encode(sha256(convert_to(${reporterSecret()} || '|' || d.principal_key, 'UTF8')), 'hex'), 1, 32)
            end)`;
  return sql`with batch as (
          update outcome_reports r set rolled_up = true
          where r.id in (
            select id from outcome_reports where not rolled_up
            order by created_at limit ${limit} for update skip locked)
          returning r.id, r.endpoint_id, date_trunc('hour', r.created_at) as hour, r.created_at, r.success,
                    r.latency_ms, r.reporter_kind, r.reporter_key, r.user_id, r.weight, r.discovery_id
        ),
        -- The tier's weight, doubled when the caller had received this endpoint from that discovery
        -- within the hour before the report; zero for the account that owns the endpoint's provider.
        weighed as (
          select b.id, b.endpoint_id, b.hour, b.created_at, b.success, b.latency_ms, b.reporter_kind, b.reporter_key,
                 case when b.user_id is not null and p.user_id = b.user_id then ${num(WEIGHTS.ownProvider)}::float8
                      when ${ownDiscovery} then b.weight * ${num(WEIGHTS.discoveryBonus)}
                      else b.weight end as w
          from batch b left join endpoints e on e.id = b.endpoint_id left join providers p on p.id = e.provider_id
        ),
        -- Per-reporter cap: add this batch to each reporter's running total for the endpoint-hour
        -- (rows locked in key order, so overlapping runs cannot deadlock) ...
        per_reporter as (
          select endpoint_id, hour, reporter_key, sum(w) as w from weighed
          where reporter_kind <> 'probe' and w > 0 group by 1, 2, 3
        ),
        reporter_totals as (
          insert into reporter_weights as rw (endpoint_id, hour, reporter_key, weight)
          select endpoint_id, hour, reporter_key, w from per_reporter order by 1, 2, 3
          on conflict (endpoint_id, hour, reporter_key) do update set weight = rw.weight + excluded.weight
          returning endpoint_id, hour, reporter_key, weight as total
        ),
        -- ... and count each report, oldest first, only as far as the reporter's allowance goes.
        capped as (
          select x.*, case
              when x.reporter_kind = 'probe' or x.w = 0 then x.w
              else greatest(0, least(x.w,
                (case when x.reporter_kind = 'authenticated' then ${num(CAPS.authenticatedPerReporter)}
                      else ${num(CAPS.anonymousPerReporter)} end)
                - (t.total - pr.w) - (x.cum - x.w)))
            end as cw
          from (select w.*, sum(w.w) over (partition by w.endpoint_id, w.hour, w.reporter_key order by w.created_at, w.id) as cum
                from weighed w) x
          left join per_reporter pr using (endpoint_id, hour, reporter_key)
          left join reporter_totals t using (endpoint_id, hour, reporter_key)
        ),
        -- The same again for the allowance all anonymous reporters of an endpoint-hour share.
        anon_batch as (
          select endpoint_id, hour, sum(cw) as w from capped
          where reporter_kind = 'anonymous' and cw > 0 group by 1, 2
        ),
        pool_totals as (
          insert into reporter_weights as rw (endpoint_id, hour, reporter_key, weight)
          select endpoint_id, hour, ${ANONYMOUS_POOL_KEY}, w from anon_batch order by 1, 2
          on conflict (endpoint_id, hour, reporter_key) do update set weight = rw.weight + excluded.weight
          returning endpoint_id, hour, weight as total
        ),
        counted as (
          select y.endpoint_id, y.hour, y.success, y.latency_ms, case
              when y.reporter_kind = 'anonymous' and y.cw > 0
              then greatest(0, least(y.cw, ${num(CAPS.anonymousPerEndpoint)} - (pt.total - ab.w) - (y.acum - y.cw)))
              else y.cw
            end as fw
          from (select c.*, sum(case when c.reporter_kind = 'anonymous' then c.cw else 0 end)
                              over (partition by c.endpoint_id, c.hour order by c.created_at, c.id) as acum
                from capped c) y
          left join anon_batch ab using (endpoint_id, hour)
          left join pool_totals pt using (endpoint_id, hour)
        ),
        per_bucket as (
          select endpoint_id, hour, ${bucketSql(sql`latency_ms`)} as b, sum(fw) as w
          from counted where latency_ms is not null and fw > 0 group by 1, 2, 3
        ),
        hists as (
          select endpoint_id, hour, jsonb_object_agg(b::text, w) as h from per_bucket group by 1, 2
        ),
        agg as (
          select endpoint_id, hour, count(*)::int as reports, (count(*) filter (where success))::int as successes,
                 coalesce(sum(fw) filter (where success), 0) as ws, coalesce(sum(fw), 0) as wt
          from counted group by 1, 2
        ),
        ins as (
          insert into outcome_rollups as o (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
          select a.endpoint_id, a.hour, 0, a.reports, a.successes, a.ws, a.wt, coalesce(h.h, '{}'::jsonb)
          from agg a left join hists h using (endpoint_id, hour)
          order by a.endpoint_id, a.hour
          on conflict (endpoint_id, hour, shard) do update set
            reports = o.reports + excluded.reports,
            successes = o.successes + excluded.successes,
            w_success = o.w_success + excluded.w_success,
            w_total = o.w_total + excluded.w_total,
            latency_hist = ${mergeHistSql(sql`o.latency_hist`, sql`excluded.latency_hist`)}
          returning 1
        ),
        net_hists as (
          select hour, jsonb_object_agg(b::text, w) as h
          from (select hour, b, sum(w) as w from per_bucket group by 1, 2) nb group by 1
        ),
        net as (
          insert into network_rollups as n (hour, reports, successes, w_success, w_total, latency_hist)
          select t.hour, t.reports, t.successes, t.ws, t.wt, coalesce(h.h, '{}'::jsonb)
          from (select hour, sum(reports)::int as reports, sum(successes)::int as successes, sum(ws) as ws, sum(wt) as wt
                from agg group by hour) t
          left join net_hists h using (hour)
          order by t.hour
          on conflict (hour) do update set
            reports = n.reports + excluded.reports,
            successes = n.successes + excluded.successes,
            w_success = n.w_success + excluded.w_success,
            w_total = n.w_total + excluded.w_total,
            latency_hist = ${mergeHistSql(sql`n.latency_hist`, sql`excluded.latency_hist`)}
          returning 1
        )
        select (select count(*) from batch)::int as n, (select count(*) from ins)::int as rollups,
               (select count(*) from net)::int as hours`;
}

/** Rolls up until nothing is pending (used by the seed and tests). */
export async function rollUpAll(db: Db, batch = 50_000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await rollUpReports(db, batch);
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Drops cap totals of hours that can no longer receive reports (two hours before the oldest
 * report still pending), so reporter_weights stays as small as one or two hours of reporters.
 */
export async function pruneReporterWeights(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from reporter_weights
          where hour < date_trunc('hour', least(now(),
                  coalesce((select min(created_at) from outcome_reports where not rolled_up), now()))) - interval '2 hours'
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
}
