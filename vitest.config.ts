import { defineConfig } from "vitest/config";
import path from "node:path";

// Unit and integration tests. Each test file opens its own database: PGlite in memory by default,
// a fresh schema on the Postgres named by DATABASE_URL when it is set (see tests/helpers/db.ts).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    globalSetup: ["tests/helpers/global-setup.ts"],
    // In-process route calls would log a line per request; servers the tests start log at info.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
