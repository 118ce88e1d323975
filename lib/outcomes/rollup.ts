// Counts raw outcome reports into the hourly rollups. Each batch claims its reports with
// FOR UPDATE SKIP LOCKED and marks them rolled up in the same statement, so any number of
// instances can run it at once and every report is counted exactly once.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import { bucketSql } from "./histogram";

/** Rolls up at most `limit` pending reports; returns how many it counted. */
export async function rollUpReports(db: Db, limit = 20_000): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with batch as (
          update outcome_reports r set rolled_up = true
          where r.id in (
            select id from outcome_reports where not rolled_up
            order by created_at limit ${limit} for update skip locked)
          returning r.endpoint_id, date_trunc('hour', r.created_at) as hour, r.success, r.latency_ms, r.weight
        ),
        per_bucket as (
          select endpoint_id, hour, ${bucketSql(sql`latency_ms`)} as b, sum(weight) as w
          from batch where latency_ms is not null group by 1, 2, 3
        ),
        hists as (
          select endpoint_id, hour, jsonb_object_agg(b::text, w) as h from per_bucket group by 1, 2
        ),
        agg as (
          select endpoint_id, hour, count(*)::int as reports, (count(*) filter (where success))::int as successes,
                 coalesce(sum(weight) filter (where success), 0) as ws, sum(weight) as wt
          from batch group by 1, 2
        ),
        ins as (
          insert into outcome_rollups (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
          select a.endpoint_id, a.hour, 0, a.reports, a.successes, a.ws, a.wt, coalesce(h.h, '{}'::jsonb)
          from agg a left join hists h using (endpoint_id, hour)
          on conflict (endpoint_id, hour, shard) do update set
            reports = outcome_rollups.reports + excluded.reports,
            successes = outcome_rollups.successes + excluded.successes,
            w_success = outcome_rollups.w_success + excluded.w_success,
            w_total = outcome_rollups.w_total + excluded.w_total,
            latency_hist = (
              select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from (
                select key as k, sum(value::float8) as v from (
                  select * from jsonb_each_text(outcome_rollups.latency_hist)
                  union all select * from jsonb_each_text(excluded.latency_hist)) u
                group by key) s)
          returning 1
        )
        select (select count(*) from batch)::int as n, (select count(*) from ins)::int as rollups`,
  );
  return Number(row?.n ?? 0);
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
