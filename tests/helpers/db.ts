// A fresh database per test file, copied from the run's seeded starting points: an in-memory PGlite
// loaded from a dump, or (DATABASE_URL set) a new database on that server made from a template.
import fs from "node:fs";
import postgres from "postgres";
import { openDb, type DbHandle } from "@/lib/db/client";
import { setDbHandle } from "@/lib/server/db";
import { seedCatalogue } from "@/lib/seed/catalogue";
import type { SeedMode } from "@/lib/seed";
import { SNAPSHOT_ENV, TEMPLATE_ENV, withDatabase } from "./pg";

export type TestDb = DbHandle & { name: string; url?: string };

/** A fresh database: `catalogue` (default) loads the starter registry, `demo` the demo data, `none` nothing. */
export async function createTestDb(opts: { seed?: SeedMode; install?: boolean } = {}): Promise<TestDb> {
  const mode = opts.seed ?? "catalogue";
  const start = mode === "demo" ? "demo" : "empty";
  const base = process.env.DATABASE_URL;
  let handle: TestDb;
  if (base) {
    const name = `capdex_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const template = process.env[TEMPLATE_ENV[start]];
    if (!template) throw new Error("test templates missing: run tests through vitest (tests/helpers/global-setup.ts)");
    const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template}`);
    await admin.end();
    const url = withDatabase(base, name);
    const h = await openDb({ url, migrate: false });
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
    const file = process.env[SNAPSHOT_ENV[start]];
    if (!file) throw new Error("test snapshots missing: run tests through vitest (tests/helpers/global-setup.ts)");
    const snapshot = new Blob([fs.readFileSync(file)]);
    const h = await openDb({ pgliteDir: "memory://", pgliteSnapshot: snapshot, migrate: false });
    handle = { ...h, name: "memory" };
  }
  if (mode === "catalogue") await seedCatalogue(handle.db);
  // Route handlers use the process-wide database: hand this one in.
  if (opts.install !== false) setDbHandle(handle);
  return handle;
}
