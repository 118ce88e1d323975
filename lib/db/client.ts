// Opens the database: postgres.js when DATABASE_URL is set, embedded PGlite otherwise.
// Both run the committed migrations in drizzle/ before they are handed out.
import path from "node:path";
import fs from "node:fs";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import { errorChain } from "@/lib/http/errors";
import { applicationName } from "./instance";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Driver = "postgres" | "pglite";

export type DbHandle = {
  db: Db;
  driver: Driver;
  url?: string;
  poolMax?: number;
  /** The postgres.js pool under `db` (Postgres only): the read router's fallback target. */
  sql?: Sql;
  close: () => Promise<void>;
};

export type OpenOptions = {
  /** postgres:// URL; wins over `pgliteDir`. */
  url?: string;
  /** PGlite data directory or `memory://`. */
  pgliteDir?: string;
  /** Start an in-memory PGlite from a dump of another (tests copy a seeded template this way). */
  pgliteSnapshot?: Blob;
  /** Connections in the postgres.js pool (default DATABASE_POOL_MAX or 4). */
  poolMax?: number;
  migrate?: boolean;
};

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

// One lock id for migrations, so instances starting together migrate one at a time.
const MIGRATION_LOCK_ID = 0x43617064;

export async function openDb(options: OpenOptions = {}): Promise<DbHandle> {
  const handle = options.url ? await openPostgres(options.url, options.poolMax) : await openPglite(options.pgliteDir, options.pgliteSnapshot);
  if (options.migrate !== false) await migrateDb(handle);
  return handle;
}

async function openPostgres(url: string, poolMax?: number): Promise<DbHandle> {
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const max = poolMax ?? Number(process.env.DATABASE_POOL_MAX ?? 4);
  const client = await postgresPool(url, max);
  const db = drizzle({ client, schema }) as unknown as Db;
  return { db, driver: "postgres", url, poolMax: max, sql: client, close: () => client.end({ timeout: 5 }) };
}

/** A postgres.js pool with the settings of every Capdex pool (the primary's and each read replica's). */
export async function postgresPool(url: string, max: number): Promise<Sql> {
  const { default: postgres } = await import("postgres");
  return postgres(url, {
    max,
    // A server that accepts but never answers must not hang requests: give up connecting after 2 s.
    connect_timeout: 2,
    // Reconnect within a second of the database coming back. postgres.js's default backoff grows to
    // 20 s after a few failed attempts, and queries wait in its queue meanwhile: after a restart of a
    // few seconds, requests hung for 15 s and more.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
    idle_timeout: 30,
    onnotice: () => {},
    // Requests are bounded by the route wrapper's deadline (lib/http/route.ts) whatever the database
    // does. DATABASE_STATEMENT_TIMEOUT_MS also bounds the sessions themselves (statement_timeout, and
    // lock_timeout at most 5 s), so a stuck statement frees its pool connection; off by default: on
    // a saturated machine a 30 s limit cancelled the demo seed's rollup and failed the start-up.
    connection: { application_name: applicationName(), ...sessionTimeouts() },
  }) as unknown as Sql;
}

/** lock_timeout and statement_timeout of the pool's sessions (milliseconds, as Postgres reads them). */
export function sessionTimeouts(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const ms = Number(env.DATABASE_STATEMENT_TIMEOUT_MS ?? 0);
  if (!Number.isFinite(ms) || ms <= 0) return {};
  return { statement_timeout: String(Math.round(ms)), lock_timeout: String(Math.round(Math.min(ms, 5_000))) };
}

async function openPglite(dir = process.env.PGLITE_DIR ?? ".data/pglite", snapshot?: Blob): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = dir === "memory://" || dir === "" ? undefined : path.resolve(/*turbopackIgnore: true*/ dir);
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create(snapshot ? { loadDataDir: snapshot } : {});
  const db = drizzle({ client, schema }) as unknown as Db;
  return { db, driver: "pglite", close: () => client.close() };
}

export async function migrateDb(handle: DbHandle): Promise<void> {
  if (handle.driver === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  if (!handle.url) throw new Error("postgres handle without url");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // A session-level advisory lock needs one connection for the whole migration.
  const client = postgres(handle.url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Rows of a raw SQL query, whichever driver ran it. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** The SQLSTATE of a database error ("23503", "40P01"), looked for through the causes drivers and Drizzle wrap it in. */
export function pgCodeOf(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
