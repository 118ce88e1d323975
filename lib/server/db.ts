// The process-wide database: opened, migrated and (when empty) seeded once, at start-up. It lives
// here, not in lib/db, because seeding stands on the domains (registry, outcomes) that stand on lib/db.
import { openDb, type Db, type DbHandle } from "@/lib/db/client";
import { seedIfEmpty } from "@/lib/seed";

type State = { handle: Promise<DbHandle> };
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
  const handle = await state.handle.catch(() => null);
  await handle?.close();
}

/** Tests hand in their own database. */
export function setDbHandle(handle: DbHandle): void {
  globalState.__capdexDb = { handle: Promise.resolve(handle) };
}

export type { Db } from "@/lib/db/client";
