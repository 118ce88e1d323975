// The keys CLI against a real database: the embedded PGlite in a temporary directory (opened by the
// CLI and by the test in turn), or with DATABASE_URL a fresh database on that server.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/lib/db/client";
import { createTestDb, type TestDb } from "../helpers/db";
import { clearKeyCache, findKeyOwner } from "@/lib/auth/keys";

let env: NodeJS.ProcessEnv;
let pg: TestDb | undefined;
let dir: string | undefined;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    pg = await createTestDb({ seed: "none", install: false });
    env = { ...process.env, DATABASE_URL: pg.url };
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-cli-"));
    const h = await openDb({ pgliteDir: dir });
    await h.close();
    env = { ...process.env, DATABASE_URL: "", PGLITE_DIR: dir };
  }
});
afterAll(async () => {
  await pg?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env, cwd: process.cwd(), timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function withDb<T>(fn: (h: DbHandle) => Promise<T>): Promise<T> {
  if (pg) return fn(pg);
  const h = await openDb({ pgliteDir: dir, migrate: false });
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}

describe("npm run cli -- keys", () => {
  let key: string;

  it("creates a key for an address (making the user) and prints it alone on the last line", async () => {
    const res = await cli("keys", "create", "--email", "Ops@Example.com", "--name", "deploy bot");
    expect(res.stderr).not.toMatch(/error/);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    key = lines[lines.length - 1];
    expect(key).toMatch(/^cdx_[0-9A-Za-z]{40}$/);
    expect(res.stdout).toMatch(/created user ops@example\.com/);
    const owner = await withDb((h) => findKeyOwner(h.db, key));
    expect(owner).not.toBeNull();
  }, 90_000);

  it("lists the address's keys by prefix, never the key", async () => {
    const res = await cli("keys", "list", "--email", "ops@example.com");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`${key.slice(0, 12)}…`);
    expect(res.stdout).toContain('"deploy bot"');
    expect(res.stdout).not.toContain(key);
  }, 90_000);

  it("revokes a key by its prefix", async () => {
    const res = await cli("keys", "revoke", key.slice(0, 12));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^revoked /);
    const owner = await withDb(async (h) => {
      clearKeyCache(h.db);
      return findKeyOwner(h.db, key);
    });
    expect(owner).toBeNull();
    const again = await cli("keys", "revoke", key.slice(0, 12));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already revoked/);
  }, 90_000);

  it("refuses bad input with a message and a non-zero exit", async () => {
    const bad = await cli("keys", "create", "--email", "not-an-address");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not an e-mail address/);
    const missing = await cli("keys", "create");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--email is required/);
    const unknown = await cli("keys", "revoke", "cdx_zzzzzzzz");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key/);
    const usage = await cli("keys", "frobnicate");
    expect(usage.code).toBe(2);
  }, 120_000);
});
