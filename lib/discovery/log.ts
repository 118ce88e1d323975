// The discovery log (discoveries: which endpoints each discovery_id returned to whom) and the hourly
// discover counters for the stats, buffered in memory and written by one statement at most once a
// second, so answering a discover request never waits for a write. A crash loses at most the last
// second of rows; a graceful shutdown (lib/server/stop.ts) flushes what is buffered.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { discoverySettings } from "./settings";
import { logger } from "@/lib/log";

export type DiscoveryRecord = { id: string; capabilityId: string; principalKey: string; endpointIds: string[]; viaIntent: boolean };

type Counter = { requests: number; intent: number };
type Buffer = {
  rows: DiscoveryRecord[];
  counters: Map<string, Counter>;
  lastFlushAt: number;
  /** Consecutive failed writes: retries back off, and an outage is logged once, not every second. */
  failures: number;
  timer?: ReturnType<typeof setTimeout>;
  flushing?: Promise<void>;
};

const flushEveryMs = () => discoverySettings().flushMs;
/** Rows kept while the database is unreachable; beyond this the oldest are dropped. */
const MAX_BUFFERED = 50_000;

// On globalThis, like the candidate cache: every bundled copy of this module shares one buffer.
const shared = globalThis as unknown as { __capdexDiscoveryLog?: { buffers: Map<Db, Buffer>; shutdownInstalled: boolean } };
const logState = (shared.__capdexDiscoveryLog ??= { buffers: new Map(), shutdownInstalled: false });
const buffers = logState.buffers;

/** Buffers one answered discovery; it reaches the database within about a second. */
export function recordDiscovery(db: Db, record: DiscoveryRecord): void {
  let b = buffers.get(db);
  if (!b) {
    buffers.set(db, (b = { rows: [], counters: new Map(), lastFlushAt: 0, failures: 0 }));
    installShutdownFlush();
  }
  b.rows.push(record);
  if (b.rows.length > MAX_BUFFERED) b.rows.splice(0, b.rows.length - MAX_BUFFERED);
  const c = b.counters.get(record.capabilityId);
  if (c) {
    c.requests++;
    if (record.viaIntent) c.intent++;
  } else {
    b.counters.set(record.capabilityId, { requests: 1, intent: record.viaIntent ? 1 : 0 });
  }
  schedule(db, b);
}

// An idle instance writes at once (so a quick outcome report finds its discovery); a busy one
// batches everything of the last second into one statement.
function schedule(db: Db, b: Buffer) {
  if (b.timer || b.flushing) return;
  const backoff = b.failures ? Math.min(60_000, 1000 * 2 ** b.failures) : flushEveryMs();
  const wait = Math.max(0, b.lastFlushAt + backoff - Date.now());
  b.timer = setTimeout(() => {
    b.timer = undefined;
    void flushBuffer(db, b);
  }, wait);
  b.timer.unref?.();
}

async function flushBuffer(db: Db, b: Buffer): Promise<void> {
  while (b.flushing) await b.flushing;
  if (!b.rows.length && !b.counters.size) return;
  const rows = b.rows;
  const counters = b.counters;
  b.rows = [];
  b.counters = new Map();
  b.lastFlushAt = Date.now();
  b.flushing = writeBatch(db, rows, counters)
    .then(() => {
      b.failures = 0;
    })
    .catch((err) => {
      // One line per outage, without the statement (its parameters hold thousands of ids).
      if (b.failures++ === 0) logger().error({ rows: rows.length, error: describeError(err) }, "discovery log: writing failed, will retry");
      b.rows = [...rows, ...b.rows].slice(-MAX_BUFFERED);
      for (const [id, c] of counters) {
        const now = b.counters.get(id) ?? { requests: 0, intent: 0 };
        b.counters.set(id, { requests: now.requests + c.requests, intent: now.intent + c.intent });
      }
    })
    .finally(() => {
      b.flushing = undefined;
      if (b.rows.length || b.counters.size) schedule(db, b);
    });
  await b.flushing;
}

/** One line for a failed query: the driver's message, never the statement or its parameters. */
export function describeError(err: unknown): string {
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause;
  if (cause?.message) return cause.code ? `${cause.code}: ${cause.message}` : cause.message;
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}

/** Writes the buffered rows now (tests, shutdown). */
export async function flushDiscoveryLog(db?: Db): Promise<void> {
  const targets = db ? [[db, buffers.get(db)] as const] : [...buffers.entries()];
  for (const [d, b] of targets) {
    if (!b) continue;
    if (b.timer) clearTimeout(b.timer);
    b.timer = undefined;
    await flushBuffer(d, b);
  }
}

/** Drops a database's buffer (a test closing its database). */
export function forgetDiscoveryLog(db: Db): void {
  const b = buffers.get(db);
  if (b?.timer) clearTimeout(b.timer);
  buffers.delete(db);
}

// One statement: both inserts ride on JSON parameters whose text shape never changes, so the
// server can keep it prepared. Counts go to the hour of the database clock at write time.
async function writeBatch(db: Db, rows: DiscoveryRecord[], counters: Map<string, Counter>): Promise<void> {
  const discoveries = JSON.stringify(
    rows.map((r) => ({ id: r.id, capability_id: r.capabilityId, principal_key: r.principalKey, endpoint_ids: r.endpointIds, via_intent: r.viaIntent })),
  );
  const counts = JSON.stringify([...counters].map(([id, c]) => ({ capability_id: id, requests: c.requests, intent_requests: c.intent })));
  await db.execute(sql`
    with logged as (
      insert into discoveries (id, capability_id, principal_key, endpoint_ids, via_intent)
      select id, capability_id, principal_key, endpoint_ids, via_intent
      from jsonb_to_recordset(${discoveries}::jsonb)
        as x(id uuid, capability_id text, principal_key text, endpoint_ids uuid[], via_intent boolean)
      on conflict (id) do nothing
    )
    insert into discover_counters (capability_id, hour, requests, intent_requests)
    select capability_id, date_trunc('hour', now()), requests, intent_requests
    from jsonb_to_recordset(${counts}::jsonb) as x(capability_id text, requests int, intent_requests int)
    on conflict (capability_id, hour) do update set
      requests = discover_counters.requests + excluded.requests,
      intent_requests = discover_counters.intent_requests + excluded.intent_requests`);
}

// A script that ends on its own (nothing left to do) writes what is buffered first; a server flushes
// on SIGTERM as a step of its shutdown (lib/server/stop.ts).
function installShutdownFlush() {
  if (logState.shutdownInstalled || typeof process === "undefined" || typeof process.once !== "function") return;
  logState.shutdownInstalled = true;
  process.once("beforeExit", () => void flushDiscoveryLog().catch(() => {}));
}
