// A fresh, migrated database per test file: PGlite in memory, or (DATABASE_URL set) a new database
// on that Postgres server, created from a migrated template so it is quick.
import postgres from "postgres";
import { openDb, type DbHandle } from "@/lib/db/client";
import { setDbHandle } from "@/lib/db";
import { seedCatalogue } from "@/lib/db/seed/catalogue";
import { seedDatabase, type SeedMode } from "@/lib/db/seed";
import { TEMPLATE_DB_ENV, withDatabase } from "./pg";

export type TestDb = DbHandle & { name: string; url?: string };

/** A fresh database; `seed` loads the catalogue (default) or the demo data. */
export async function createTestDb(opts: { seed?: SeedMode; install?: boolean } = {}): Promise<TestDb> {
  const base = process.env.DATABASE_URL;
  let handle: TestDb;
  if (base) {
    const name = `capdex_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
    const template = process.env[TEMPLATE_DB_ENV];
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
    await admin.end();
    const url = withDatabase(base, name);
    const h = await openDb({ url, migrate: !template });
    handle = {
      ...h,
      name,
      url,
      close: async () => {
        await h.close();
        const a = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
        await a.unsafe(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  } else {
    const h = await openDb({ pgliteDir: "memory://" });
    handle = { ...h, name: "memory" };
  }
  const mode = opts.seed ?? "catalogue";
  if (mode === "catalogue") await seedCatalogue(handle.db);
  else if (mode === "demo") await seedDatabase(handle.db, "demo");
  // Route handlers use the process-wide database: hand this one in.
  if (opts.install !== false) setDbHandle(handle);
  return handle;
}
