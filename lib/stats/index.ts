// The public network statistics (GET /api/stats and the stats page). A job computes them every
// STATS_REFRESH_MS into stats_snapshots, so an answer reads one row; each instance also keeps the
// last answer for STATS_CACHE_MS. Without a recent snapshot (no worker running) they are computed inline.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { primaryOf } from "@/lib/db/replicas";
import type { Stats } from "@/lib/schemas/stats";
import { computeStats } from "./compute";

export { computeStats } from "./compute";

export const STATS_CACHE_MS = Number(process.env.STATS_CACHE_MS ?? 5_000);
export const STATS_REFRESH_MS = Number(process.env.STATS_REFRESH_MS ?? 10_000);
/** A snapshot older than this is not served (the job has stopped): the stats are computed inline. */
const SNAPSHOT_MAX_AGE_MS = Math.max(60_000, 3 * STATS_REFRESH_MS);
const SNAPSHOT = "public";

/** Computes the statistics and stores them as the current snapshot. */
export async function refreshStats(db: Db): Promise<Stats> {
  const stats = await computeStats(db);
  // Computed wherever `db` reads (a read handle: a replica), stored on the primary.
  await primaryOf(db).execute(
    sql`insert into stats_snapshots (name, value, computed_at) values (${SNAPSHOT}, ${JSON.stringify(stats)}::jsonb, now())
        on conflict (name) do update set value = excluded.value, computed_at = excluded.computed_at`,
  );
  return stats;
}

async function readSnapshot(db: Db): Promise<Stats | null> {
  const [row] = await queryRows<{ value: Stats }>(
    db,
    sql`select value from stats_snapshots
        where name = ${SNAPSHOT} and computed_at > now() - ${SNAPSHOT_MAX_AGE_MS} * interval '1 millisecond'`,
  );
  return row ? (typeof row.value === "string" ? JSON.parse(row.value) : row.value) : null;
}

const cache = new WeakMap<Db, { at: number; value: Promise<Stats> }>();

/**
 * The statistics: the instance's copy if younger than STATS_CACHE_MS, else the stored snapshot,
 * else computed now. `fresh` skips both caches (tests, and right after a change an operator wants to see).
 */
export async function getStats(db: Db, opts: { fresh?: boolean } = {}): Promise<Stats> {
  const hit = cache.get(db);
  if (!opts.fresh && hit && Date.now() - hit.at < STATS_CACHE_MS) return hit.value;
  const value = opts.fresh ? refreshStats(db) : readSnapshot(db).then((s) => s ?? refreshStats(db));
  const entry = { at: Date.now(), value };
  cache.set(db, entry);
  // Concurrent misses share one query; a failure is not cached.
  value.catch(() => {
    if (cache.get(db) === entry) cache.delete(db);
  });
  return value;
}

/** Drops this instance's copy (tests; the snapshot in the database is kept). */
export function forgetStatsCache(db: Db): void {
  cache.delete(db);
}
