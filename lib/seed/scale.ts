// The benchmark-sized registry: N capabilities (the catalogue plus generated variants), 20 endpoints
// each, and 1,000 outcome reports per capability over the last 7 days, generated in the database.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { capabilities } from "@/lib/db/schema";
import { CATALOGUE, seedCatalogue } from "./catalogue";
import { seedDemoEndpoints } from "./demo";
import { rollUpAll } from "@/lib/outcomes/rollup";
import { WEIGHTS } from "@/lib/outcomes/weights";
import { bumpRegistryVersion } from "@/lib/registry/version";

export type ScaleOptions = { endpointsPerCapability?: number; reportsPerCapability?: number; log?: (msg: string) => void };

export async function seedScale(db: Db, count: number, opts: ScaleOptions | ((msg: string) => void) = {}): Promise<Record<string, number>> {
  const { endpointsPerCapability = 20, reportsPerCapability = 1000, log = () => {} } = typeof opts === "function" ? { log: opts } : opts;
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
  // Vacuum and fresh statistics. Counting marked every report rolled up, which leaves a dead copy
  // of each (a million) and a pending-reports index full of dead entries until vacuumed. Without
  // statistics the planner guesses thousands of rollup rows per endpoint and plans parallel scans
  // for the figures query (18 ms instead of 2); and autovacuum's own run over a million rows would
  // land in the middle of the next benchmark run (or never come, where it is switched off).
  const t2 = Date.now();
  await db.execute(sql`vacuum (analyze)`);
  log(`vacuumed and analyzed in ${Date.now() - t2} ms`);
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outcome_rollups`);
  return { capabilities: caps.length, endpoints, reports, rollups: Number(row.n) };
}
