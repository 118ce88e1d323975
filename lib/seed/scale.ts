// The benchmark-sized registry: N capabilities (the catalogue plus generated variants, so the
// categories keep the catalogue's mix), 20 endpoints each, and outcome reports over the last 7 days,
// generated in the database. Up to scale 1,000: 1,000 raw reports per capability, counted by the real
// rollup. Above it (100,000 endpoints at 5,000), raw reports through the rollup would take most of an
// hour here, so each endpoint also gets `rollupReportsPerEndpoint` reports written straight into
// hourly rollups (shard 1, which the rollup job never writes; readers sum the shards) with one
// generate_series statement, and 100 raw reports per capability keep the raw table realistic.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { capabilities } from "@/lib/db/schema";
import { CATALOGUE, seedCatalogue } from "./catalogue";
import { seedDemoEndpoints } from "./demo";
import { rollUpAll } from "@/lib/outcomes/rollup";
import { refreshDueFigures } from "@/lib/outcomes/figures";
import { bucketSql } from "@/lib/outcomes/histogram";
import { WEIGHTS } from "@/lib/outcomes/weights";
import { bumpRegistryVersion } from "@/lib/registry/version";

export type ScaleOptions = {
  endpointsPerCapability?: number;
  /** Raw outcome reports per capability, rolled up by the real job (default 1,000; 100 above scale 1,000). */
  reportsPerCapability?: number;
  /** Reports per endpoint written straight into hourly rollups (default 0; 100 above scale 1,000). */
  rollupReportsPerEndpoint?: number;
  log?: (msg: string) => void;
};

/** Hourly rollup rows per endpoint and week when seeded directly: one hour in four has reports. */
const DIRECT_HOUR_SHARE = 4;

export async function seedScale(db: Db, count: number, opts: ScaleOptions | ((msg: string) => void) = {}): Promise<Record<string, number>> {
  const o = typeof opts === "function" ? { log: opts } : opts;
  const large = count > 1000;
  const { endpointsPerCapability = 20, reportsPerCapability = large ? 100 : 1000, rollupReportsPerEndpoint = large ? 100 : 0, log = () => {} } = o;
  await seedCatalogue(db);
  const base = CATALOGUE.capabilities;
  const variants = [];
  for (let i = base.length, k = 1; i < count; k++) {
    for (const c of base) {
      if (i >= count) break;
      variants.push({
        id: `${c.id}_v${k}`,
        categoryId: c.id.split(".")[0],
        title: `${c.title} (variant ${k})`,
        description: c.description,
        tags: c.tags,
        aliases: c.aliases ?? [],
        examples: [],
        source: "operator",
      });
      i++;
    }
  }
  for (let i = 0; i < variants.length; i += 500) {
    await db.insert(capabilities).values(variants.slice(i, i + 500)).onConflictDoNothing();
  }
  await bumpRegistryVersion(db);
  log(`capabilities: ${base.length + variants.length}`);
  const caps = [...base.map((c) => ({ id: c.id })), ...variants.map((v) => ({ id: v.id }))].slice(0, count);
  const { endpoints } = await seedDemoEndpoints(db, caps, { seed: 7, perCapability: [endpointsPerCapability, endpointsPerCapability], providerCount: 500 });
  log(`endpoints: ${endpoints}`);
  const reports = count * reportsPerCapability;
  const t0 = Date.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.7)`);
    await tx.execute(sql`
      insert into outcome_reports (endpoint_id, success, latency_ms, status_code, reporter_kind, reporter_key, weight, created_at)
      select e.id, random() < e.rate, greatest(1, (e.median * exp(0.5 * (random() + random() - 1))))::int, 200,
             'anonymous', 'seed:' || (g % 97), ${WEIGHTS.anonymous}::float8, now() - random() * interval '7 days'
      from generate_series(1, ${reports}) g
      join (select id, (row_number() over (order by id) - 1)::int as idx,
                   0.6 + 0.39 * ((abs(hashtext(id::text)) % 100) / 100.0) as rate,
                   50 + abs(hashtext(id::text || 'l')) % 900 as median
            from endpoints where is_demo) e on e.idx = g % ${endpoints}`);
  });
  log(`reports: ${reports} in ${Date.now() - t0} ms`);
  const t1 = Date.now();
  await rollUpAll(db, 100_000);
  log(`rolled up in ${Date.now() - t1} ms`);
  if (rollupReportsPerEndpoint > 0) {
    const t3 = Date.now();
    const direct = await seedDirectRollups(db, rollupReportsPerEndpoint);
    log(`direct rollups: ${direct.rows} rows holding ${direct.reports} reports in ${Date.now() - t3} ms`);
  }
  // Vacuum and fresh statistics. Counting marked every report rolled up, which leaves a dead copy
  // of each (a million) and a pending-reports index full of dead entries until vacuumed. Without
  // statistics the planner guesses thousands of rollup rows per endpoint and plans parallel scans
  // for the figures query (18 ms instead of 2); and autovacuum's own run over a million rows would
  // land in the middle of the next benchmark run (or never come, where it is switched off).
  const t2 = Date.now();
  await db.execute(sql`vacuum (analyze)`);
  log(`vacuumed and analyzed in ${Date.now() - t2} ms`);
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outcome_rollups`);
  return { capabilities: caps.length, endpoints, reports, rollupReports: rollupReportsPerEndpoint * endpoints, rollups: Number(row.n) };
}

/**
 * Reports written straight into hourly rollups, as if the rollup job had counted them: one hour in
 * DIRECT_HOUR_SHARE of the last week per endpoint, about `perEndpoint` reports in all, sent with an
 * API key (weight 4, under the per-reporter cap), with the endpoint's success rate and latency. The
 * network-wide rollups get the same sums, and the figures of every endpoint are recomputed through
 * the real refreshDueFigures (which also measures that at this size).
 */
async function seedDirectRollups(db: Db, perEndpoint: number): Promise<{ rows: number; reports: number }> {
  const hours = 167; // the 7-day window less the current hour (raw reports and live traffic land there)
  const perRow = perEndpoint / (hours / DIRECT_HOUR_SHARE);
  const w = WEIGHTS.authenticated;
  await db.execute(sql`select setseed(0.3)`);
  const [ins] = await queryRows<{ rows: number; reports: number }>(
    db,
    sql`with e as (
          select id, 0.6 + 0.39 * ((abs(hashtext(id::text)) % 100) / 100.0) as rate,
                 50 + abs(hashtext(id::text || 'l')) % 900 as median
          from endpoints where is_demo),
        r as (
          select e.id, date_trunc('hour', now()) - g.h * interval '1 hour' as hour, e.rate, e.median,
                 greatest(1, round(${perRow}::float8 * (0.5 + random())))::int as n
          from e cross join generate_series(1, ${hours}) g(h)
          where abs(hashtext(e.id::text || ':' || g.h)) % ${DIRECT_HOUR_SHARE} = 0),
        s as (select *, least(n, greatest(0, round(n * rate + (random() - 0.5) * sqrt(n))))::int as ok,
                     ${bucketSql(sql`median`)} as b from r),
        ins as (
          insert into outcome_rollups (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
          select id, hour, 1, n, ok, ${w}::float8 * ok, ${w}::float8 * n,
                 jsonb_build_object(b::text, ${w}::float8 * n * 0.7, (b + 6)::text, ${w}::float8 * n * 0.25, (b + 14)::text, ${w}::float8 * n * 0.05)
          from s order by id, hour
          on conflict (endpoint_id, hour, shard) do nothing
          returning reports)
        select count(*)::int as rows, coalesce(sum(reports), 0)::int as reports from ins`,
  );
  // The same sums into the network-wide rollups the stats read.
  await db.execute(sql`
    insert into network_rollups as n (hour, reports, successes, w_success, w_total, latency_hist)
    select t.hour, t.reports, t.successes, t.ws, t.wt, h.hist
    from (select hour, sum(reports)::int as reports, sum(successes)::int as successes, sum(w_success) as ws, sum(w_total) as wt
          from outcome_rollups where shard = 1 group by hour) t
    join (select hour, jsonb_object_agg(k, v) as hist from (
            select o.hour, e.key as k, sum(e.value::float8) as v
            from outcome_rollups o cross join lateral jsonb_each_text(o.latency_hist) e where o.shard = 1 group by 1, 2) x
          group by hour) h on h.hour = t.hour
    on conflict (hour) do update set
      reports = n.reports + excluded.reports, successes = n.successes + excluded.successes,
      w_success = n.w_success + excluded.w_success, w_total = n.w_total + excluded.w_total,
      latency_hist = (select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from (
        select key as k, sum(value::float8) as v from (
          select * from jsonb_each_text(n.latency_hist) union all select * from jsonb_each_text(excluded.latency_hist)) u
        group by key) z)`);
  // Every endpoint with rollups computes its figures again.
  await db.execute(sql`
    insert into endpoint_figures as f (endpoint_id)
    select id from endpoints where is_demo order by id
    on conflict (endpoint_id) do update set dirty = true`);
  while ((await refreshDueFigures(db, { throttleMs: 0, limit: 1000, sweep: 0 })) > 0);
  return { rows: Number(ins.rows), reports: Number(ins.reports) };
}
