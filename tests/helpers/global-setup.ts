// Once per test run, build the seeded starting points every test file copies, so no file pays
// for migrations or the demo seed itself:
// - with DATABASE_URL: template databases on that server (CREATE DATABASE ... TEMPLATE), one migrated
//   and empty, one with the demo data;
// - otherwise: PGlite dumps (tar.gz) of the same two, loaded with `loadDataDir`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDb } from "@/lib/db/client";
import { seedDatabase } from "@/lib/seed";
import { runtimeProblem } from "@/lib/server/runtime";
import { SNAPSHOT_ENV, TEMPLATE_ENV, withDatabase } from "./pg";

export default async function setup() {
  const problem = runtimeProblem();
  if (problem) throw new Error(problem);
  console.log(`[capdex tests] Node ${process.version}`);
  const base = process.env.DATABASE_URL;
  if (base) return setupPostgres(base);
  return setupPglite();
}

async function setupPostgres(base: string) {
  const names = { empty: `capdex_tpl_${process.pid}`, demo: `capdex_tpl_demo_${process.pid}` };
  const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
  for (const [kind, name] of Object.entries(names)) {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    const h = await openDb({ url: withDatabase(base, name) });
    if (kind === "demo") await seedDatabase(h.db, "demo");
    await h.close();
  }
  process.env[TEMPLATE_ENV.empty] = names.empty;
  process.env[TEMPLATE_ENV.demo] = names.demo;
  await admin.end();
  return async () => {
    const a = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
    for (const name of Object.values(names)) await a.unsafe(`drop database if exists ${name} with (force)`);
    await a.end();
  };
}

async function setupPglite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-pglite-"));
  const h = await openDb({ pgliteDir: "memory://" });
  const client = (h.db as unknown as { $client: { dumpDataDir: (c: "gzip") => Promise<Blob> } }).$client;
  const dump = async (file: string) => {
    const blob = await client.dumpDataDir("gzip");
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  };
  const files = { empty: path.join(dir, "empty.tar.gz"), demo: path.join(dir, "demo.tar.gz") };
  await dump(files.empty);
  await seedDatabase(h.db, "demo");
  await dump(files.demo);
  await h.close();
  process.env[SNAPSHOT_ENV.empty] = files.empty;
  process.env[SNAPSHOT_ENV.demo] = files.demo;
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}
