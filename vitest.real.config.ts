import { defineConfig } from "vitest/config";
import path from "node:path";

// Tests on the real catalogue snapshots of ../shared/real-catalogue (npm run test:real; .ci/run when
// it exists). Kept out of `npm test`, which must pass on a clone without ../shared.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["tests/real/**/*.test.ts"],
    environment: "node",
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    globalSetup: ["tests/helpers/global-setup.ts"],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
