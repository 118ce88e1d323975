import { defineConfig } from "@playwright/test";
import { E2E_DNS_PORT, E2E_SMTP_PORT } from "./tests/e2e/support/env";

// Browser tests against the production build (`npm run build` first), in Debian's Chromium.
// The server runs on an in-memory PGlite so every run starts from the same seeded data.
const PORT = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: `npx next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/ready`,
    // Seeding the demo data into an in-memory PGlite takes a while on a busy machine.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 300_000),
    // E2E_REUSE_SERVER=1: run against a server already listening on E2E_PORT (started with the same env).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === "1",
    env: {
      PGLITE_DIR: "memory://",
      CAPDEX_SEED: "demo",
      NEXT_TELEMETRY_DISABLED: "1",
      // A side-by-side build (NEXT_DIST_DIR=.next-x npx next build) is served as it is named.
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      // The submission journey: a .test host, its DNS TXT record served by the spec's DNS server.
      DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
      ALLOW_PRIVATE_TARGETS: "1",
      // Sign-in e-mails go to the SMTP server account.spec.ts listens with.
      EMAIL_SERVER: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      EMAIL_FROM: "Capdex <no-reply@capdex.test>",
    },
  },
});
