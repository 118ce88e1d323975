// `npm run cli -- submissions list|approve|reject`, run as operators run it (a child process) on a
// database of its own: PGlite in a temporary folder, or a fresh Postgres database with DATABASE_URL.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../helpers/db";
import { openDb, type DbHandle } from "@/lib/db/client";
import { endpoints, submissions } from "@/lib/db/schema";
import { seedCatalogue } from "@/lib/seed/catalogue";
import { createSubmission } from "@/lib/submissions";

const run = promisify(execFile);
let env: NodeJS.ProcessEnv;
let open: () => Promise<DbHandle>;
let cleanup: () => Promise<void>;
const ids: string[] = [];

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.join("node_modules", ".bin", "tsx"), ["scripts/cli.ts", "submissions", ...args], { env });
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
    open = () => openDb({ url: t.url, migrate: false });
    cleanup = () => t.close();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-cli-"));
    env = { ...process.env, PGLITE_DIR: dir };
    delete env.DATABASE_URL;
    open = () => openDb({ pgliteDir: dir });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    const h = await open();
    await seedCatalogue(h.db);
    await h.close();
  }
  delete process.env.ALLOW_PRIVATE_TARGETS;
  const h = await open();
  for (const url of ["https://a.operator-co.com/", "https://b.operator-co.com/"]) {
    const s = await createSubmission(
      h.db,
      { endpoint_url: url, capability_id: "weather.current", contact_email: "ops@operator-co.com", provider_name: "Operator Co", price_per_call: 0 },
      { kind: "anonymous", key: "ip:x", ip: "x" },
    );
    ids.push(s.submission_id);
  }
  await h.close();
}, 120_000);
afterAll(async () => cleanup?.());

async function rows() {
  const h = await open();
  try {
    const subs = await h.db.select().from(submissions);
    const eps = await h.db.select().from(endpoints).where(eq(endpoints.host, "a.operator-co.com"));
    return { subs: new Map(subs.map((s) => [s.id, s])), eps };
  } finally {
    await h.close();
  }
}

// each run starts a process that opens the database: slow on a busy machine, hence the long timeout
describe("npm run cli -- submissions", { timeout: 180_000 }, () => {
  it("lists submissions with their contacts for operators", async () => {
    const r = await cli("list", "--status", "pending_verification");
    expect(r.code).toBe(0);
    for (const id of ids) expect(r.stdout).toContain(id);
    expect(r.stdout).toContain("ops@operator-co.com");
    expect(r.stdout).toContain("2 submission(s)");
  });

  it("approves a pending submission, listing its endpoint without DNS proof", async () => {
    const r = await cli("approve", ids[0]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("is now verified");
    const { subs, eps } = await rows();
    expect(subs.get(ids[0])?.status).toBe("verified");
    expect(eps).toHaveLength(1);
    expect(eps[0]).toMatchObject({ status: "listed", domainVerified: true, domainNextCheckAt: null });
  });

  it("rejects submissions, delisting a listed one's endpoint", async () => {
    expect((await cli("reject", ids[1], "--note", "spam")).code).toBe(0);
    expect((await cli("reject", ids[0])).code).toBe(0);
    const { subs, eps } = await rows();
    expect(subs.get(ids[1])).toMatchObject({ status: "rejected", lastCheck: { reason: "rejected_by_operator", detail: "spam" } });
    expect(subs.get(ids[0])?.status).toBe("rejected");
    expect(eps[0].status).toBe("delisted");
  });

  it("refuses what it cannot do, with a non-zero exit code", async () => {
    const again = await cli("approve", ids[1]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("not pending");
    const usage = await cli("explode");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage:");
  });
});
