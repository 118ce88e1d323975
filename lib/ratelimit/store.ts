// The counter: one atomic INSERT ... ON CONFLICT DO UPDATE per check, on the database's clock, so
// every instance sharing the database enforces one limit. Prepared once per database and window.
import { sql } from "drizzle-orm";
import { pgCodeOf, queryRows, type Db } from "@/lib/db/client";
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

/** One statement per hit, no batching (the single-hit path, and scripts/bench-limiter.ts's baseline). */
export async function hitOne(db: Db, key: string, windowSeconds: number): Promise<Hit> {
  let byWindow = statements.get(db);
  if (!byWindow) statements.set(db, (byWindow = new Map()));
  let stmt = byWindow.get(windowSeconds);
  if (!stmt) byWindow.set(windowSeconds, (stmt = buildStatement(db, windowSeconds)));
  const rows = (await stmt.execute({ key })) as Array<{ count: number; resetSeconds: number }>;
  const row = rows[0];
  if (!row) throw new Error("rate-limit statement returned no row");
  return { count: Number(row.count), resetSeconds: Number(row.resetSeconds) };
}

// Group commit of checks, as for outcome reports (lib/outcomes): a check is answered once its count
// is stored, but checks that arrive while a statement is in flight share the next one, which adds
// each key's hits in one row update. Under load this is one round trip per batch instead of one
// per request, and one update of a busy caller's row instead of a queue of updates waiting on its
// row lock: at 32 connections of one API key, every report_outcome's check queued on that one row
// and on the pool's connections (docs/benchmarks.md, "report_outcome under load").
type PendingHit = { key: string; resolve: (h: Hit) => void; reject: (err: unknown) => void };
type Batcher = { queue: PendingHit[]; writing: boolean; statements: number; hits: number };
const MAX_BATCH = 1000;
const batchers = new WeakMap<Db, Map<number, Batcher>>();

function batcherOf(db: Db, windowSeconds: number): Batcher {
  let byWindow = batchers.get(db);
  if (!byWindow) batchers.set(db, (byWindow = new Map()));
  let b = byWindow.get(windowSeconds);
  if (!b) byWindow.set(windowSeconds, (b = { queue: [], writing: false, statements: 0, hits: 0 }));
  return b;
}

/** How many statements counted how many hits through this database handle (tests). */
export function hitStats(db: Db): { statements: number; hits: number } {
  let statementsRun = 0;
  let hits = 0;
  for (const b of batchers.get(db)?.values() ?? []) {
    statementsRun += b.statements;
    hits += b.hits;
  }
  return { statements: statementsRun, hits };
}

/**
 * Counts one hit for `key` in a window of `windowSeconds`; returns the count so far (this hit
 * included) and seconds to reset. Concurrent hits of one key get distinct counts, as if made one
 * after the other.
 */
export function hit(db: Db, key: string, windowSeconds: number): Promise<Hit> {
  const b = batcherOf(db, windowSeconds);
  const counted = new Promise<Hit>((resolve, reject) => b.queue.push({ key, resolve, reject }));
  if (!b.writing) void drain(db, b, windowSeconds);
  return counted;
}

async function drain(db: Db, b: Batcher, windowSeconds: number): Promise<void> {
  b.writing = true;
  try {
    while (b.queue.length) {
      const batch = b.queue.splice(0, MAX_BATCH);
      if (batch.length === 1) {
        const p = batch[0];
        await hitOne(db, p.key, windowSeconds).then(p.resolve, p.reject);
        b.statements++;
        b.hits++;
        continue;
      }
      await hitMany(db, batch, windowSeconds);
      b.statements++;
      b.hits += batch.length;
    }
  } finally {
    b.writing = false;
  }
}

/**
 * One statement for a batch: each key's hits added at once (a window that expired restarts at the
 * batch's hits), the new count returned; the k-th hit of a key in the batch gets count - n + k.
 */
async function hitMany(db: Db, batch: PendingHit[], windowSeconds: number, retried = false): Promise<void> {
  const byKey = new Map<string, PendingHit[]>();
  for (const p of batch) {
    const list = byKey.get(p.key);
    if (list) list.push(p);
    else byKey.set(p.key, [p]);
  }
  const keys = [...byKey.keys()].sort();
  const w = sql.raw(`interval '${Math.trunc(windowSeconds)} seconds'`);
  try {
    const rows = await queryRows<{ key: string; count: number; reset: number }>(
      db,
      sql`insert into rate_limits as r (key, window_start, count)
          select k, now(), n from unnest(${`{${keys.map(quoteArrayItem).join(",")}}`}::text[], ${`{${keys.map((k) => byKey.get(k)!.length).join(",")}}`}::int[]) as x(k, n)
          order by k
          on conflict (key) do update set
            window_start = case when r.window_start <= now() - ${w} then now() else r.window_start end,
            count = case when r.window_start <= now() - ${w} then excluded.count else r.count + excluded.count end
          returning r.key, r.count, greatest(0, ceil(extract(epoch from (r.window_start + ${w} - now()))))::int as reset`,
    );
    const found = new Map(rows.map((r) => [r.key, r]));
    for (const [key, list] of byKey) {
      const row = found.get(key);
      if (!row) {
        for (const p of list) p.reject(new Error("rate-limit statement returned no row"));
        continue;
      }
      const total = Number(row.count);
      list.forEach((p, i) => p.resolve({ count: total - list.length + 1 + i, resetSeconds: Number(row.reset) }));
    }
  } catch (err) {
    // A deadlock rolled the statement back, so nothing was counted: one more try (its keys are
    // locked in key order, so it cannot deadlock with another batch; a manual statement can).
    if (!retried && pgCodeOf(err) === "40P01") return hitMany(db, batch, windowSeconds, true);
    for (const p of batch) p.reject(err);
  }
}

/** A text[] literal element: quoted, with quotes and backslashes escaped. */
function quoteArrayItem(s: string): string {
  return `"${s.replace(/(["\\])/g, "\\$1")}"`;
}

/**
 * Deletes counters whose window ended long ago (they would restart at 1 anyway). A counter that a
 * check holds is skipped (the next run takes it): a plain delete locks its rows in the table's order
 * while a batch of checks locks its keys in key order, and the two could deadlock, failing the batch.
 */
export async function deleteExpiredCounters(db: Db, olderThanSeconds: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with old as (
          select key from rate_limits where window_start < now() - ${olderThanSeconds} * interval '1 second'
          order by key for update skip locked
        ), gone as (delete from rate_limits r using old where r.key = old.key returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
