// Seeding: `demo` (catalogue + demo providers and history), `catalogue` (capabilities only), `none`;
// and the benchmark-sized registry (`--scale N`: N capabilities, 20N endpoints, 1000N reports).
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { CATALOGUE, seedCatalogue } from "./catalogue";
import { seedDemoEndpoints, seedDemoHistory } from "./demo";
import { seedScale } from "./scale";

export type SeedMode = "demo" | "catalogue" | "none";

export function seedModeFromEnv(value = process.env.CAPDEX_SEED): SeedMode {
  const v = (value ?? "demo").trim().toLowerCase();
  if (v === "demo" || v === "catalogue" || v === "none") return v;
  throw new Error(`CAPDEX_SEED must be demo, catalogue or none (got "${value}")`);
}

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capabilities`);
  return Number(row.n) === 0;
}

export async function seedDatabase(db: Db, mode: SeedMode): Promise<Record<string, number>> {
  if (mode === "none") return {};
  const capabilities = await seedCatalogue(db);
  if (mode === "catalogue") return { capabilities };
  const caps = CATALOGUE.capabilities.map((c) => ({ id: c.id }));
  const { providers, endpoints } = await seedDemoEndpoints(db, caps);
  const reports = await seedDemoHistory(db);
  return { capabilities, providers, endpoints, reports };
}

/** Starter capabilities the database lacks: a release that grew the registry, started on an older database. */
async function missingCatalogueCapabilities(db: Db): Promise<number> {
  const ids = CATALOGUE.capabilities.map((c) => c.id);
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capabilities where id = any(${`{${ids.join(",")}}`}::text[])`);
  return ids.length - Number(row.n);
}

/**
 * At start-up: seed an empty database as CAPDEX_SEED says (demo by default); on a database seeded
 * by an older release, add the starter capabilities it lacks (an upsert: nothing added since is touched).
 */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const mode = seedModeFromEnv();
  if (mode === "none") return false;
  if (!(await isEmpty(db))) {
    if ((await missingCatalogueCapabilities(db)) > 0) await seedCatalogue(db);
    return false;
  }
  await seedDatabase(db, mode);
  return true;
}

export { seedScale };
