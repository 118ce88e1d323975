// Counts raw outcome reports into the hourly rollups, applying the weights and caps of
// lib/outcomes/weights.ts. A batch claims its reports with FOR UPDATE SKIP LOCKED and marks them
// rolled up in the same statement, so every report is counted exactly once. Batches take a
// transaction-level advisory lock first: the caps read each reporter's running total (in
// reporter_weights) and add to it, which is exact only if no other batch counts at the same time.
// A report whose payment evidence waits to be judged again (lib/payments/recheck.ts) is not claimed
// until it has its verdict or its hold runs out.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import { heldEvidenceSql } from "@/lib/payments/recheck";
import { refreshDueFigures } from "./figures";
import { bucketSql } from "./histogram";
import { ACCOUNT_FAILURES_KEY, ACCOUNT_SUCCESSES_KEY, ACCOUNTS_POOL_KEY, ANONYMOUS_POOL_KEY, CAPS, PAID_POOL_KEY, WEIGHTS, reporterSecret } from "./weights";

const num = (n: number) => sql.raw(String(n));
const ROLLUP_LOCK_ID = 0x43524f4c; // "CROL"

/** Sum of two sparse histograms (jsonb maps bucket -> weight), bucket by bucket. */
function mergeHistSql(a: SQL, b: SQL): SQL {
  return sql`(select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from (
      select key as k, sum(value::float8) as v from (
        select * from jsonb_each_text(${a}) union all select * from jsonb_each_text(${b})) u
      group by key) s)`;
}

/** Rolls up at most `limit` pending reports; returns how many it counted. */
export async function rollUpReports(db: Db, limit = 20_000): Promise<number> {
  return db.transaction(async (tx) => {
    // Waits for a batch in progress; the statement below then sees its totals (a fresh snapshot).
    await tx.execute(sql`select pg_advisory_xact_lock(${num(ROLLUP_LOCK_ID)})`);
    // No JIT: the statement's cost estimate (the planner cannot know how many reports are pending)
    // is far above jit_above_cost, and compiling it took 1.6 s where running it took 30 ms.
    await tx.execute(sql`set local jit = off`);
    const [row] = await queryRows<{ n: number }>(tx as unknown as Db, rollupStatement(limit));
    return Number(row?.n ?? 0);
  });
}

const runningTotal = (key: SQL) =>
  sql`coalesce((select rw.weight from reporter_weights rw
                where rw.endpoint_id = x.endpoint_id and rw.hour = x.hour and rw.reporter_key = ${key}), 0)`;

/** The pool of a reporter kind: its reporter_weights key and its cap per endpoint-hour. */
const poolKey = (kind: SQL) =>
  sql`(case ${kind} when 'anonymous' then ${ANONYMOUS_POOL_KEY} when 'paid' then ${PAID_POOL_KEY} else ${ACCOUNTS_POOL_KEY} end)`;
const poolCap = (kind: SQL) =>
  sql`(case ${kind} when 'anonymous' then ${num(CAPS.anonymousPerEndpoint)} when 'paid' then ${num(CAPS.paidPerEndpoint)} else ${num(CAPS.authenticatedPerEndpoint)} end)`;

/**
 * The statement of one batch (exported for EXPLAIN). It has no joins between its own steps: the
 * planner cannot know how many reports are pending (a few seconds' worth of a large table), and a
 * nested loop over a 20,000-row batch would be quadratic. Running totals are point lookups instead.
 */
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
  // A paid call: verified evidence on a report of success, from a wallet whose spend is spread
  // (docs/ranking.md, "Weights").
  const paidCall = sql`(pe.status is not distinct from 'verified' and b.success and spread.ok)`;
  // The wallet's spread: what it paid this endpoint's provider (this call, and its earlier verified
  // payments to the provider's endpoints) is at most paidSpreadShare of all it paid in the
  // paidSpreadDays before the report. A payment is valued at its endpoint's listed price, at least
  // paidSpreadMinValue. Evaluated only for verified successes.
  const value = (price: SQL) => sql`greatest(${price}, ${num(WEIGHTS.paidSpreadMinValue)})`;
  const mine = value(sql`e.price_per_call`);
  const spread = sql`left join lateral (
      select coalesce(sum(${value(sql`ep.price_per_call`)}) filter (where ep.provider_id = e.provider_id), 0) + ${mine}
               <= ${num(WEIGHTS.paidSpreadShare)} * (coalesce(sum(${value(sql`ep.price_per_call`)}), 0) + ${mine}) + ${num(WEIGHTS.paidSpreadTolerance)} as ok
      from payment_evidence pw join endpoints ep on ep.id = pw.endpoint_id
      where pe.status = 'verified' and b.success
        and pw.network = pe.network and pw.payer = pe.payer and pw.status = 'verified' and pw.report_id <> b.id
        and pw.created_at > b.created_at - ${num(WEIGHTS.paidSpreadDays)} * interval '1 day' and pw.created_at <= b.created_at
    ) spread on true`;
  return sql`with batch as (
          update outcome_reports r set rolled_up = true
          where r.id in (
            select id from outcome_reports where not rolled_up and not ${heldEvidenceSql(sql.raw("outcome_reports.id"))}
            order by created_at limit ${limit} for update skip locked)
          returning r.id, r.endpoint_id, date_trunc('hour', r.created_at) as hour, r.created_at, r.success,
                    r.latency_ms, r.reporter_kind, r.reporter_key, r.user_id, r.weight, r.discovery_id
        ),
        -- The tier's weight, doubled when the caller had received this endpoint from that discovery
        -- within the hour before the report; zero for the account that owns the endpoint's provider,
        -- and for one that owns a provider of another endpoint of the same capability. A report with
        -- verified payment evidence of a successful call counts as the paying wallet's (kind 'paid'),
        -- at the paid weight, when the wallet's spend is spread over providers (else as its sender's
        -- unpaid report); a failure with verified evidence counts as its sender's unpaid report
        -- (x402 settles only once the answer is served, so the money proves the call, not the failure);
        -- zero when the wallet is the provider's; one whose evidence was rejected counts zero. An
        -- unpaid report from an account younger than newAccountDays, or with reports counted on fewer
        -- than historyDays UTC days before this batch (users.report_days), weighs newAccountFactor as much.
        -- Capdex's own checks (probes, paid test calls) keep their stored weight and are never capped.
        weighed as (
          select b.id, b.endpoint_id, b.hour, b.created_at, b.success, b.latency_ms,
                 case when ${paidCall} then 'paid' else b.reporter_kind end as reporter_kind,
                 case when ${paidCall} then 'p:' || pe.network || ':' || pe.payer else b.reporter_key end as reporter_key,
                 case when b.user_id is not null and p.user_id = b.user_id then ${num(WEIGHTS.ownProvider)}::float8
                      when b.user_id is not null and exists (
                        select 1 from providers rp join endpoints re on re.provider_id = rp.id
                        where rp.user_id = b.user_id and re.capability_id = e.capability_id) then ${num(WEIGHTS.competitor)}::float8
                      when pe.status = 'verified' and pe.payer_is_provider then ${num(WEIGHTS.providerPayer)}::float8
                      when pe.status = 'rejected' then ${num(WEIGHTS.rejectedEvidence)}::float8
                      else (case when ${paidCall} then ${num(WEIGHTS.paid)}::float8 else b.weight end)
                           * (case when ${ownDiscovery} then ${num(WEIGHTS.discoveryBonus)} else 1 end)
                           * (case when not (${paidCall}) and (u.created_at > b.created_at - ${num(WEIGHTS.newAccountDays)} * interval '1 day'
                                                                 or u.report_days < ${num(WEIGHTS.historyDays)})
                                   then ${num(WEIGHTS.newAccountFactor)} else 1 end)
                 end as w
          from batch b left join endpoints e on e.id = b.endpoint_id left join providers p on p.id = e.provider_id
            left join payment_evidence pe on pe.report_id = b.id and b.reporter_kind <> 'probe'
            left join users u on u.id = b.user_id
            ${spread}
        ),
        -- Per-reporter cap: each report counts, oldest first, only as far as the reporter's total for
        -- the endpoint-hour (before this batch, plus its earlier reports in this batch) leaves room.
        capped as (
          select x.*, case
              when x.reporter_kind in ('probe', 'paid_check') or x.w = 0 then x.w
              else greatest(0, least(x.w,
                (case x.reporter_kind when 'paid' then ${num(CAPS.paidPerPayer)}
                      when 'authenticated' then ${num(CAPS.authenticatedPerReporter)}
                      else ${num(CAPS.anonymousPerReporter)} end)
                - ${runningTotal(sql`x.reporter_key`)} - (x.cum - x.w)))
            end as cw
          from (select w.*, sum(w.w) over (partition by w.endpoint_id, w.hour, w.reporter_key order by w.created_at, w.id) as cum
                from weighed w) x
        ),
        -- The same again for the allowance all reporters of one kind share in an endpoint-hour:
        -- anonymous addresses, unpaid accounts, paying wallets.
        counted as (
          select x.id, x.created_at, x.reporter_kind, x.endpoint_id, x.hour, x.success, x.latency_ms, case
              when x.reporter_kind not in ('probe', 'paid_check') and x.cw > 0
              then greatest(0, least(x.cw, ${poolCap(sql`x.reporter_kind`)} - ${runningTotal(poolKey(sql`x.reporter_kind`))} - (x.acum - x.cw)))
              else x.cw
            end as fw
          from (select c.*, sum(case when c.reporter_kind not in ('probe', 'paid_check') then c.cw else 0 end)
                              over (partition by c.endpoint_id, c.hour, c.reporter_kind order by c.created_at, c.id) as acum
                from capped c) x
        ),
        -- Unpaid accounts' failures count only as far as they outweigh the same accounts' successes
        -- of the endpoint-hour (counted before them, in earlier batches or this one) by no more than
        -- accountFailureExcess; both sides are tallied as counted above, before this limit.
        limited as (
          select x.endpoint_id, x.hour, x.success, x.latency_ms, case
              when x.reporter_kind = 'authenticated' and not x.success and x.fw > 0
              then greatest(0, least(x.fw, ${num(CAPS.accountFailureExcess)}
                + ${runningTotal(sql`${ACCOUNT_SUCCESSES_KEY}`)} + x.scum
                - ${runningTotal(sql`${ACCOUNT_FAILURES_KEY}`)} - (x.fcum - x.fw)))
              else x.fw
            end as fw
          from (select c.*,
                       sum(case when c.reporter_kind = 'authenticated' and c.success then c.fw else 0 end)
                         over (partition by c.endpoint_id, c.hour order by c.created_at, c.id) as scum,
                       sum(case when c.reporter_kind = 'authenticated' and not c.success then c.fw else 0 end)
                         over (partition by c.endpoint_id, c.hour order by c.created_at, c.id) as fcum
                from counted c) x
        ),
        -- Add the batch to the running totals (rows in key order).
        reporter_upd as (
          insert into reporter_weights as rw (endpoint_id, hour, reporter_key, weight)
          select endpoint_id, hour, reporter_key, sum(w) from weighed
          where reporter_kind not in ('probe', 'paid_check') and w > 0 group by 1, 2, 3 order by 1, 2, 3
          on conflict (endpoint_id, hour, reporter_key) do update set weight = rw.weight + excluded.weight
          returning 1
        ),
        pool_upd as (
          insert into reporter_weights as rw (endpoint_id, hour, reporter_key, weight)
          select endpoint_id, hour, ${poolKey(sql`reporter_kind`)}, sum(cw) from capped
          where reporter_kind not in ('probe', 'paid_check') and cw > 0 group by 1, 2, 3 order by 1, 2, 3
          on conflict (endpoint_id, hour, reporter_key) do update set weight = rw.weight + excluded.weight
          returning 1
        ),
        account_upd as (
          insert into reporter_weights as rw (endpoint_id, hour, reporter_key, weight)
          select endpoint_id, hour, case when success then ${ACCOUNT_SUCCESSES_KEY} else ${ACCOUNT_FAILURES_KEY} end, sum(fw) from counted
          where reporter_kind = 'authenticated' and fw > 0 group by 1, 2, 3 order by 1, 2, 3
          on conflict (endpoint_id, hour, reporter_key) do update set weight = rw.weight + excluded.weight
          returning 1
        ),
        -- The accounts' history: each new UTC day with a report counted adds one to users.report_days
        -- (read by later batches; this one weighed with the values before it). Reports come oldest first,
        -- so a day before the last one recorded is not new.
        history_upd as (
          update users u set report_days = u.report_days + d.n, last_report_day = d.last
          from (select x.user_id, count(*)::int as n, max(x.day) as last
                from (select distinct b.user_id, (b.created_at at time zone 'UTC')::date as day
                      from batch b where b.user_id is not null and b.reporter_kind = 'authenticated') x
                join users hu on hu.id = x.user_id
                where hu.last_report_day is null or x.day > hu.last_report_day
                group by x.user_id) d
          where u.id = d.user_id
          returning 1
        ),
        -- Counts, weights and histogram per endpoint-hour (null bucket: no latency reported).
        per_bucket as (
          select endpoint_id, hour, ${bucketSql(sql`latency_ms`)} as b, count(*) as n, count(*) filter (where success) as s,
                 sum(fw) as w, coalesce(sum(fw) filter (where success), 0) as ws
          from limited group by 1, 2, 3
        ),
        agg as (
          select endpoint_id, hour, sum(n)::int as reports, sum(s)::int as successes, sum(ws) as ws, sum(w) as wt,
                 coalesce(jsonb_object_agg(b::text, w) filter (where b is not null and w > 0), '{}'::jsonb) as h
          from per_bucket group by 1, 2
        ),
        ins as (
          insert into outcome_rollups as o (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
          select endpoint_id, hour, 0, reports, successes, ws, wt, h from agg order by endpoint_id, hour
          on conflict (endpoint_id, hour, shard) do update set
            reports = o.reports + excluded.reports,
            successes = o.successes + excluded.successes,
            w_success = o.w_success + excluded.w_success,
            w_total = o.w_total + excluded.w_total,
            latency_hist = ${mergeHistSql(sql`o.latency_hist`, sql`excluded.latency_hist`)}
          returning 1
        ),
        -- The endpoints whose figures need computing again (lib/outcomes/figures.ts): those that got
        -- weight. Reports of no weight wait for the hourly sweep, so that a flood of them cannot
        -- decide when an endpoint's figures are recomputed (the ranking evaluation showed that this
        -- alone let an anonymous flood nudge near-ties its way).
        marked as (
          insert into endpoint_figures as f (endpoint_id)
          select distinct endpoint_id from agg where wt > 0 order by endpoint_id
          on conflict (endpoint_id) do update set dirty = true where not f.dirty
          returning 1
        ),
        net_bucket as (
          select hour, b, sum(n) as n, sum(s) as s, sum(w) as w, sum(ws) as ws from per_bucket group by 1, 2
        ),
        net as (
          insert into network_rollups as n (hour, reports, successes, w_success, w_total, latency_hist)
          select hour, sum(n)::int, sum(s)::int, sum(ws), sum(w),
                 coalesce(jsonb_object_agg(b::text, w) filter (where b is not null and w > 0), '{}'::jsonb)
          from net_bucket group by hour order by hour
          on conflict (hour) do update set
            reports = n.reports + excluded.reports,
            successes = n.successes + excluded.successes,
            w_success = n.w_success + excluded.w_success,
            w_total = n.w_total + excluded.w_total,
            latency_hist = ${mergeHistSql(sql`n.latency_hist`, sql`excluded.latency_hist`)}
          returning 1
        )
        select (select count(*) from batch)::int as n, (select count(*) from ins)::int as rollups,
               (select count(*) from net)::int as hours, (select count(*) from reporter_upd)::int as reporters,
               (select count(*) from pool_upd)::int as pools, (select count(*) from account_upd)::int as account_totals,
               (select count(*) from marked)::int as marked,
               (select count(*) from history_upd)::int as histories`;
}

/**
 * Rolls up until nothing is pending, then recomputes the stored figures of every endpoint that got
 * reports, without the job's throttle (used by the seed and tests).
 */
export async function rollUpAll(db: Db, batch = 50_000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await rollUpReports(db, batch);
    total += n;
    if (n < batch) break;
  }
  while ((await refreshDueFigures(db, { throttleMs: 0 })) > 0);
  return total;
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
