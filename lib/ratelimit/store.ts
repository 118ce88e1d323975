// The counter: one atomic INSERT ... ON CONFLICT DO UPDATE per check, on the database's clock, so
// every instance sharing the database enforces one limit. Prepared once per database and window.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";

export type Hit = { count: number; resetSeconds: number };

function buildStatement(db: Db, windowSeconds: number) {
  const w = sql.raw(`interval '${Math.trunc(windowSeconds)} seconds'`);
  // A fixed window per key that starts with its first hit; an expired window restarts at 1. Concurrent
  // checks of one key queue on the row lock and each sees the previous one's count.
  const expired = sql`${rateLimits.windowStart} <= now() - ${w}`;
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
      },
    })
    .returning({
      count: rateLimits.count,
      resetSeconds: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimits.windowStart} + ${w} - now()))))::int`,
    })
    .prepare(`capdex_ratelimit_${Math.trunc(windowSeconds)}`);
}

type Statement = ReturnType<typeof buildStatement>;
const statements = new WeakMap<Db, Map<number, Statement>>();

/** Counts one hit for `key` in a window of `windowSeconds`; returns the count so far and seconds to reset. */
export async function hit(db: Db, key: string, windowSeconds: number): Promise<Hit> {
  let byWindow = statements.get(db);
  if (!byWindow) statements.set(db, (byWindow = new Map()));
  let stmt = byWindow.get(windowSeconds);
  if (!stmt) byWindow.set(windowSeconds, (stmt = buildStatement(db, windowSeconds)));
  const rows = (await stmt.execute({ key })) as Array<{ count: number; resetSeconds: number }>;
  const row = rows[0];
  if (!row) throw new Error("rate-limit statement returned no row");
  return { count: Number(row.count), resetSeconds: Number(row.resetSeconds) };
}

/** Deletes counters whose window ended long ago (they would restart at 1 anyway). */
export async function deleteExpiredCounters(db: Db, olderThanSeconds: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from rate_limits where window_start < now() - ${olderThanSeconds} * interval '1 second' returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
