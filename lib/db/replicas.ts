// Read replicas (DATABASE_READ_URL): one Drizzle handle whose every query goes to a healthy streaming
// replica, round robin, or to the primary when none is. A loop per process checks each replica's
// replay position against the primary's WAL position every CAPDEX_READ_CHECK_MS (1 s); one that lags
// more than CAPDEX_READ_MAX_LAG_MS (2 s), fails the check or is not in recovery is taken out until a
// check finds it healthy again. A single query that fails on a replica because it cannot be reached
// (or conflicts with recovery, or was a write) is run again on the primary, once, and a replica that
// could not be reached is taken out at once. Transactions (db.transaction) go whole to one target.
//
// Lag, as measured here: each check samples the primary's pg_current_wal_lsn() (with this process's
// clock) and then each replica's pg_last_wal_replay_lsn(); a replica's lag is the time since the
// newest sample it has replayed up to, i.e. the replica holds everything the primary had written at
// that moment. An idle primary writes no WAL, so a caught-up replica reads 0 however long ago the
// last transaction was (unlike now() - pg_last_xact_replay_timestamp()); a replica behind every
// sample kept (30 s of them at least) has at least that lag. The figure is exact to one check
// interval: between checks a replica can fall behind unseen, which is why discover's change feed
// does not read through this handle (lib/discovery/candidates.ts).
import type { Sql } from "postgres";
import { errorChain, isDatabaseUnavailable } from "@/lib/http/errors";
import type { Db } from "./client";
import * as schema from "./schema";

export type ReplicaState = {
  /** host:port/database of the replica (no credentials): the metrics' label. */
  name: string;
  /** In rotation: the last check found it reachable, in recovery and within the lag bound. */
  healthy: boolean;
  /** Lag at the last check (ms); null when it could not be measured. */
  lagMs: number | null;
  /** Why it is out ("unreachable", "lagging", "not_in_recovery", "unchecked", "query_failed"). */
  reason: string | null;
};

export type ReadRouterStats = {
  replicas: ReplicaState[];
  /** Queries answered, by target name ("primary" or a replica's name). */
  reads: Record<string, number>;
  /** Queries that would have gone to a replica but were answered by the primary, by reason. */
  fallbacks: Record<"no_replica" | "replica_failed", number>;
  /** Health checks whose primary sample failed (the primary could not be reached). */
  primaryUnreachable: number;
};

export type ReadRouter = {
  /** The read handle: use it only for queries that may see data up to the lag bound old. */
  db: Db;
  stats(): ReadRouterStats;
  /** One round of health checks (the loop runs these; tests call it to step the state). */
  check(): Promise<void>;
  close(): Promise<void>;
};

export type ReadRouterOptions = {
  maxLagMs?: number;
  checkMs?: number;
  /** Connections per replica pool (default DATABASE_POOL_MAX or 4). */
  poolMax?: number;
  /** Start the background health loop (default true; tests step it with check()). */
  loop?: boolean;
  /** Opens one replica's postgres.js pool (lib/db/client.ts's settings). */
  connect: (url: string, max: number) => Promise<Sql>;
};

/** The replica URLs of DATABASE_READ_URL (comma-separated), blanks dropped. */
export function readUrls(env: Record<string, string | undefined> = process.env): string[] {
  return (env.DATABASE_READ_URL ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export function readSettings(env: Record<string, string | undefined> = process.env): { maxLagMs: number; checkMs: number } {
  const num = (v: string | undefined, d: number) => (Number(v) > 0 ? Number(v) : d);
  return { maxLagMs: num(env.CAPDEX_READ_MAX_LAG_MS, 2_000), checkMs: num(env.CAPDEX_READ_CHECK_MS, 1_000) };
}

/** host:port/database of a postgres:// URL, without user or password. */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "replica";
  }
}

/** A WAL position ("16/B374D848") as a number of bytes. */
export function parseLsn(lsn: string): bigint {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

// Errors after which a single read is worth running again on the primary: the replica cannot be
// reached or lost the connection; 40001 (a query cancelled by a conflict with recovery) and 25006
// (a write sent to a read-only server: a mistake, but the primary can answer it) are the replica's own.
const PRIMARY_RETRY_CODES = new Set(["40001", "25006"]);
function worthPrimary(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && PRIMARY_RETRY_CODES.has(code)) return true;
  }
  return false;
}

type Target = { state: ReplicaState; client: Sql };
type Sample = { at: number; lsn: bigint };

// The methods of a postgres.js Sql that Drizzle's postgres-js session calls: unsafe() (awaited, or
// .values()) and begin(). `options` is where Drizzle installs its parsers; the real pools get theirs
// from their own drizzle() call.
type RoutingClient = {
  options: { parsers: Record<string, unknown>; serializers: Record<string, unknown> };
  unsafe: (query: string, params?: unknown[], opts?: unknown) => PromiseLike<unknown> & { values: () => Promise<unknown> };
  begin: (...args: unknown[]) => Promise<unknown>;
};

export async function openReadRouter(primaryHandle: { sql: Sql; db: Db }, urls: string[], options: ReadRouterOptions): Promise<ReadRouter> {
  const primary = primaryHandle.sql;
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const settings = readSettings();
  const maxLagMs = options.maxLagMs ?? settings.maxLagMs;
  const checkMs = options.checkMs ?? settings.checkMs;
  const max = options.poolMax ?? Number(process.env.DATABASE_POOL_MAX ?? 4);
  const targets: Target[] = await Promise.all(
    urls.map(async (url) => {
      const client = await options.connect(url, max);
      drizzle({ client, schema }); // installs Drizzle's parsers on the pool
      return { client, state: { name: replicaName(url), healthy: false, lagMs: null, reason: "unchecked" } };
    }),
  );
  const reads: Record<string, number> = { primary: 0 };
  for (const t of targets) reads[t.state.name] = 0;
  const fallbacks = { no_replica: 0, replica_failed: 0 };
  let next = 0;
  let failedChecks = 0;

  function pick(): Target | null {
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(next + i) % targets.length];
      if (t.state.healthy) {
        next = (next + i + 1) % targets.length;
        return t;
      }
    }
    return null;
  }

  function takeOut(t: Target, reason: string) {
    t.state.healthy = false;
    t.state.reason = reason;
  }

  type Mode = "rows" | "values";
  const on = (client: Sql, mode: Mode, query: string, params?: unknown[], opts?: unknown) => {
    const pending = client.unsafe(query, params as never, opts as never);
    return mode === "values" ? pending.values() : pending;
  };

  async function routed(mode: Mode, query: string, params?: unknown[], opts?: unknown): Promise<unknown> {
    const target = pick();
    if (!target) {
      fallbacks.no_replica++;
      const out = await on(primary, mode, query, params, opts);
      reads.primary++;
      return out;
    }
    try {
      const out = await on(target.client, mode, query, params, opts);
      reads[target.state.name]++;
      return out;
    } catch (err) {
      if (!worthPrimary(err)) throw err;
      if (isDatabaseUnavailable(err)) takeOut(target, "query_failed");
      fallbacks.replica_failed++;
      const out = await on(primary, mode, query, params, opts);
      reads.primary++;
      return out;
    }
  }

  const routing: RoutingClient = {
    options: { parsers: {}, serializers: {} },
    unsafe(query, params, opts) {
      let rows: Promise<unknown> | undefined;
      return {
        then(resolve, reject) {
          return (rows ??= routed("rows", query, params, opts)).then(resolve, reject);
        },
        values: () => routed("values", query, params, opts),
      };
    },
    begin(...args) {
      const target = pick();
      if (!target) fallbacks.no_replica++;
      reads[target ? target.state.name : "primary"]++;
      return ((target?.client ?? primary).begin as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  };
  const db = drizzle({ client: routing as unknown as Sql, schema }) as unknown as Db;
  primaries.set(db, primaryHandle.db);

  // Primary WAL positions of recent checks, oldest first: at least 30 s or 10 lag bounds of them.
  const samples: Sample[] = [];
  const keepMs = Math.max(30_000, 10 * maxLagMs);
  const timeoutMs = Math.max(1_000, checkMs);
  const within = <T>(p: Promise<T>): Promise<T> =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("health check timed out")), timeoutMs).unref())]);

  function lagOf(replayed: bigint, now: number): number | null {
    if (!samples.length) return null;
    for (let i = samples.length - 1; i >= 0; i--) if (samples[i].lsn <= replayed) return Math.max(0, now - samples[i].at);
    return now - samples[0].at;
  }

  let checking: Promise<void> | null = null;
  async function checkOnce(): Promise<void> {
    const at = Date.now();
    try {
      const [row] = await within(primary.unsafe("select pg_current_wal_lsn()::text as lsn"));
      samples.push({ at, lsn: parseLsn(String((row as unknown as { lsn: string }).lsn)) });
    } catch {
      // The primary cannot be reached: no new sample, so every replica's lag grows from the last one
      // and they leave rotation past the bound (how fresh they are cannot be told meanwhile).
      failedChecks++;
    }
    while (samples.length > 1 && samples[1].at < at - keepMs) samples.shift();
    await Promise.all(
      targets.map(async (t) => {
        try {
          const [row] = (await within(
            t.client.unsafe("select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as lsn"),
          )) as unknown as Array<{ recovery: boolean; lsn: string | null }>;
          if (!row.recovery || !row.lsn) {
            t.state.lagMs = null;
            return takeOut(t, "not_in_recovery");
          }
          const lag = lagOf(parseLsn(row.lsn), Date.now());
          t.state.lagMs = lag;
          if (lag === null) return takeOut(t, "unchecked");
          if (lag > maxLagMs) return takeOut(t, "lagging");
          t.state.healthy = true;
          t.state.reason = null;
        } catch {
          t.state.lagMs = null;
          takeOut(t, "unreachable");
        }
      }),
    );
  }
  const check = () => (checking ??= checkOnce().finally(() => (checking = null)));

  let timer: NodeJS.Timeout | undefined;
  if (options.loop !== false) {
    timer = setInterval(() => void check(), checkMs);
    timer.unref();
    void check();
  }

  return {
    db,
    check,
    stats: () => ({ replicas: targets.map((t) => ({ ...t.state })), reads: { ...reads }, fallbacks: { ...fallbacks }, primaryUnreachable: failedChecks }),
    async close() {
      clearInterval(timer);
      await Promise.all(targets.map((t) => t.client.end({ timeout: 5 })));
    },
  };
}

// The process's router, for the metrics, and each read handle's primary (Next bundles each route
// apart: they live on globalThis).
const shared = globalThis as unknown as { __capdexReadRouter?: ReadRouter | null; __capdexPrimaries?: WeakMap<Db, Db> };
const primaries = (shared.__capdexPrimaries ??= new WeakMap<Db, Db>());

/**
 * The primary behind a read handle; any other handle is its own primary. For caches that must follow
 * the primary whichever handle they are asked through (discover's candidates and their change feed),
 * and for the writes of a function that otherwise reads (the stats snapshot).
 */
export function primaryOf(db: Db): Db {
  return primaries.get(db) ?? db;
}

export function registerReadRouter(router: ReadRouter | null): void {
  shared.__capdexReadRouter = router;
}

/** The process's read router's figures, or null without DATABASE_READ_URL. */
export function readRouterStats(): ReadRouterStats | null {
  return shared.__capdexReadRouter?.stats() ?? null;
}
