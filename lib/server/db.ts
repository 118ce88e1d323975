// The process-wide database: opened, migrated and (when empty) seeded once, at start-up. It lives
// here, not in lib/db, because seeding stands on the domains (registry, outcomes) that stand on lib/db.
import { openDb, postgresPool, type Db, type DbHandle } from "@/lib/db/client";
import { openReadRouter, readUrls, registerReadRouter, type ReadRouter } from "@/lib/db/replicas";
import { seedIfEmpty } from "@/lib/seed";

type State = { handle: Promise<DbHandle>; read?: Promise<{ db: Db; router: ReadRouter | null }> };
const globalState = globalThis as unknown as { __capdexDb?: State };

export function getDbHandle(): Promise<DbHandle> {
  if (!globalState.__capdexDb) {
    const handle = (async () => {
      const h = await openDb({ url: process.env.DATABASE_URL || undefined });
      await seedIfEmpty(h.db);
      return h;
    })();
    // A failed start (database down) is retried by the next request instead of sticking.
    handle.catch(() => {
      if (globalState.__capdexDb?.handle === handle) globalState.__capdexDb = undefined;
    });
    globalState.__capdexDb = { handle };
  }
  return globalState.__capdexDb.handle;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/**
 * The read handle: with DATABASE_READ_URL (and DATABASE_URL), queries go to a healthy read replica
 * or to the primary when none is (lib/db/replicas.ts); without it, the primary itself. Only for
 * reads that may be a replica's lag old (docs/deploy.md, "Read replicas"); writes, and reads that
 * must see this request's own writes, use getDb().
 */
export async function getReadDb(): Promise<Db> {
  const handle = await getDbHandle();
  const state = globalState.__capdexDb;
  if (!state) return handle.db;
  state.read ??= (async () => {
    const urls = readUrls();
    if (!urls.length || handle.driver !== "postgres" || !handle.sql) return { db: handle.db, router: null };
    const router = await openReadRouter({ sql: handle.sql, db: handle.db }, urls, { poolMax: handle.poolMax, connect: postgresPool });
    registerReadRouter(router);
    return { db: router.db, router };
  })().catch(() => ({ db: handle.db, router: null }));
  return (await state.read).db;
}

/** The process-wide database if it is open, without opening it (metrics). */
export async function peekDbHandle(): Promise<DbHandle | null> {
  const state = globalState.__capdexDb;
  return state ? state.handle.catch(() => null) : null;
}

/** Closes the process-wide database if it was opened (shutdown); a failed open is nothing to close. */
export async function closeDb(): Promise<void> {
  const state = globalState.__capdexDb;
  globalState.__capdexDb = undefined;
  if (!state) return;
  const read = await state.read?.catch(() => null);
  if (read?.router) {
    registerReadRouter(null);
    await read.router.close();
  }
  const handle = await state.handle.catch(() => null);
  await handle?.close();
}

/** Tests hand in their own database. */
export function setDbHandle(handle: DbHandle, read?: ReadRouter): void {
  globalState.__capdexDb = { handle: Promise.resolve(handle), ...(read ? { read: Promise.resolve({ db: read.db, router: read }) } : {}) };
}

export type { Db } from "@/lib/db/client";
