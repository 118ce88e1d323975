// Background job of discovery: forget discovery logs older than a day (outcome reports only tie to
// recent ones), in bounded batches so the delete never holds many locks at once.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";

export const DISCOVERY_RETENTION_HOURS = 24;
const BATCH = 10_000;

export async function deleteOldDiscoveries(db: Db, maxBatches = 50): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from discoveries where id in (
              select id from discoveries
              where created_at < now() - ${DISCOVERY_RETENTION_HOURS} * interval '1 hour'
              limit ${BATCH})
            returning 1)
          select count(*)::int as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < BATCH) break;
  }
  return deleted;
}

export const discoveryCleanupJob = {
  name: "discovery.cleanup",
  everyMs: 10 * 60_000,
  run: async (db: Db) => ({ deleted: await deleteOldDiscoveries(db) }),
};
