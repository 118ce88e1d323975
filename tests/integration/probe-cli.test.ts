// `npm run cli -- probe`: run as a real process against a database this test prepared (a PGlite
// directory, or a fresh database on the Postgres named by DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDb, queryRows, type DbHandle } from "@/lib/db/client";
import { capabilities, categories, endpoints, providers } from "@/lib/db/schema";
import { createTestDb, type TestDb } from "../helpers/db";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

let x402: X402TestServer;
let pg: TestDb | null = null;
let pgliteDir: string | null = null;
const ids: Record<string, string> = {};

/** Opens the prepared database (PGlite allows one process at a time, so it is closed after use). */
async function open(): Promise<DbHandle> {
  return pg ?? openDb({ pgliteDir: pgliteDir! });
}

beforeAll(async () => {
  x402 = await startX402Server({ "/ok": { kind: "v1", network: "base", amount: "1000" }, "/down": { kind: "status", status: 503 } });
  if (process.env.DATABASE_URL) pg = await createTestDb({ seed: "none" });
  else pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-probe-cli-"));
  const h = await open();
  await h.db.insert(categories).values({ id: "test", title: "Test" });
  await h.db.insert(capabilities).values({ id: "test.probe", categoryId: "test", title: "Probe test" });
  const [{ id: providerId }] = await h.db.insert(providers).values({ name: "CLI Labs" }).returning({ id: providers.id });
  const rows = await h.db
    .insert(endpoints)
    .values(
      (["ok", "down"] as const).map((p) => ({
        capabilityId: "test.probe",
        providerId,
        url: x402.url(`/${p}`),
        host: "127.0.0.1",
        domain: "127.0.0.1",
        pricePerCall: 0.001,
      })),
    )
    .returning({ id: endpoints.id, url: endpoints.url });
  for (const r of rows) ids[r.url.endsWith("/ok") ? "ok" : "down"] = r.id;
  if (!pg) await h.close();
}, 120_000);

afterAll(async () => {
  await x402.close();
  await pg?.close();
  if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ALLOW_PRIVATE_TARGETS: "1" };
  if (pg) env.DATABASE_URL = pg.url;
  else {
    delete env.DATABASE_URL;
    env.PGLITE_DIR = pgliteDir!;
  }
  return new Promise((resolve) => {
    execFile(path.join("node_modules", ".bin", "tsx"), ["scripts/cli.ts", ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("npm run cli -- probe", () => {
  it("probes one endpoint now, prints the result and stores it", async () => {
    const r = await cli("probe", ids.ok);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ endpoint_id: ids.ok, ok: true, reason: "ok", status: 402, check_state: "verified" });
    expect(x402.hits("/ok")).toBe(1);
    const h = await open();
    const rows = await queryRows<{ check_state: string; n: number }>(
      h.db,
      sql`select e.check_state, (select count(*)::int from endpoint_checks c where c.endpoint_id = e.id) as n from endpoints e where e.id = ${ids.ok}`,
    );
    if (!pg) await h.close();
    expect(rows).toEqual([{ check_state: "verified", n: 1 }]);
  }, 90_000);

  it("probes every endpoint with --all and exits 1 when a check fails", async () => {
    const r = await cli("probe", "--all");
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("probed 2 endpoint(s), 1 failing check(s)");
    const results = lines.slice(0, -1).map((l) => JSON.parse(l) as { endpoint_id: string; reason: string });
    expect(new Map(results.map((x) => [x.endpoint_id, x.reason]))).toEqual(
      new Map([
        [ids.ok, "ok"],
        [ids.down, "unexpected_status"],
      ]),
    );
  }, 90_000);

  it("explains its usage for a missing or malformed argument", async () => {
    for (const args of [[], ["not-a-uuid"]]) {
      const r = await cli("probe", ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("usage: npm run cli -- probe <endpoint-id|--all>");
    }
  }, 90_000);
});
