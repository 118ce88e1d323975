// `npm run cli -- import [url]` and `imports unmapped|map|ignore|runs`, run as operators run them (a
// child process) on a database of their own, against a local catalogue server.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../helpers/db";
import { openDb } from "@/lib/db/client";
import { seedCatalogue } from "@/lib/seed/catalogue";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";

const run = promisify(execFile);
let env: NodeJS.ProcessEnv;
let cleanup: () => Promise<void>;
let s: CatalogueServer;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.join("node_modules", ".bin", "tsx"), ["scripts/cli.ts", ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    const t = await createTestDb({ seed: "catalogue", install: false });
    env = { ...process.env, DATABASE_URL: t.url };
    cleanup = () => t.close();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-cli-"));
    env = { ...process.env, PGLITE_DIR: dir };
    delete env.DATABASE_URL;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    const h = await openDb({ pgliteDir: dir });
    await seedCatalogue(h.db);
    await h.close();
  }
  const items = [v2Item("https://api.cli-weather.com/now"), v2Item("https://api.cli-flux.com/calibrate", { description: "Quantum flux capacitor calibration" }), { nothing: true }];
  s = await startCatalogueServer({ item: (i) => items[i], total: items.length });
  // The catalogue is on a loopback port; item URLs are still held to the public rules below.
  env = { ...env, ALLOW_PRIVATE_TARGETS: "1", CAPDEX_IMPORT_SOURCES: s.url, CAPDEX_IMPORT_PAUSE_MS: "0" };
}, 120_000);
afterAll(async () => {
  await s?.close();
  await cleanup?.();
});

describe("the import commands", () => {
  it("import runs the configured sources and prints the summary", async () => {
    const r = await cli("import");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${s.url}: completed`);
    expect(r.stdout).toMatch(/seen 3, new 1, updated 0, unchanged 0, unmapped 1, delisted 0/);
    expect(r.stdout).toContain("skipped: missing_resource 1");
  }, 120_000);

  it("imports unmapped lists the queue with candidates; map lists it, ignore delists it; runs shows summaries", async () => {
    const q = await cli("imports", "unmapped");
    expect(q.code).toBe(0);
    expect(q.stdout).toContain("1 unmapped item(s)");
    expect(q.stdout).toContain("https://api.cli-flux.com/calibrate");
    const bad = await cli("imports", "map", "https://api.cli-flux.com/calibrate", "util.nope");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("capability_not_found");
    const mapped = await cli("imports", "map", "https://api.cli-flux.com/calibrate", "util.random");
    expect(mapped.stdout).toContain("1 listing(s) now");
    const ignored = await cli("imports", "ignore", "https://api.cli-flux.com/calibrate");
    expect(ignored.stdout).toContain("1 endpoint(s) delisted");
    const runs = await cli("imports", "runs");
    expect(runs.stdout).toContain("completed");
    expect((await cli("imports", "frobnicate")).code).toBe(2);
  }, 180_000);
});
