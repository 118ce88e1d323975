import { defineConfig } from "vitest/config";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Unit and integration tests. Each test file opens its own database: PGlite in memory by default,
// a fresh schema on the Postgres named by DATABASE_URL when it is set (see tests/helpers/db.ts).
const include = ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"];

// CAPDEX_TEST_DATABASE_ONLY=1 (CI's second pass, on Postgres): only the files that open a database
// or start a server, since the others would run exactly as they did on PGlite.
const USES_DATABASE = /createTestDb|openDb|helpers\/(db|pg|server)|DATABASE_URL|startServer|startWarmServer/;
function databaseFiles(): string[] {
  const out: string[] = [];
  for (const dir of include.map((glob) => glob.slice(0, glob.indexOf("/**")))) {
    for (const f of fs.readdirSync(path.join(__dirname, dir))) {
      if (f.endsWith(".test.ts") && USES_DATABASE.test(fs.readFileSync(path.join(__dirname, dir, f), "utf8"))) out.push(`${dir}/${f}`);
    }
  }
  return out;
}

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: process.env.CAPDEX_TEST_DATABASE_ONLY === "1" ? databaseFiles() : include,
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // One file more than there are cores (Vitest's default is one fewer: a single file at a time on
    // two cores). Many files wait on servers and CLIs they start: on two cores, three files at a time
    // ran the whole suite in 261 s of wall time for 386 s of file time, where two at a time needed
    // 454 s for 538 s (2 December 2026; every test passed under the extra load).
    maxWorkers: os.availableParallelism() + 1,
    globalSetup: ["tests/helpers/global-setup.ts"],
    // In-process route calls would log a line per request; servers the tests start log at info.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
