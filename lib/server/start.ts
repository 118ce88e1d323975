// Server start-up: warnings for unsafe switches, graceful shutdown on SIGTERM, the database opened
// early, and background work (lib/server/background.ts).
import { getDbHandle } from "@/lib/server/db";
import { errorFields, logger } from "@/lib/log";
import { retryBackgroundWork, startBackgroundWork } from "./background";
import { shutdownLog } from "./shutdown";

export async function startServer() {
  const log = logger();
  (await import("@/lib/auth/startup")).prepareAuth();
  await installServerShutdown();
  // Created now, so the event-loop delay and GC figures cover the process from its start.
  (await import("@/lib/metrics")).metrics();
  if (process.env.CAPDEX_RATE_LIMIT === "off") {
    log.warn("CAPDEX_RATE_LIMIT=off - rate limiting is disabled. Use this for benchmarks only.");
  }
  if (process.env.ALLOW_PRIVATE_TARGETS === "1") {
    log.warn("ALLOW_PRIVATE_TARGETS=1 - loopback/private targets and http:// are accepted. Tests and local development only.");
  }
  // Paid test calls: on or off, and what is wrong with their settings (never the key itself).
  const paid = (await import("@/lib/paid-checks/config")).paidCheckStartupNotes();
  for (const w of paid.warnings) log.warn(`paid test calls: ${w}`);
  if (paid.info) log.info(paid.info);
  const t0 = Date.now();
  try {
    const handle = await getDbHandle();
    log.info({ driver: handle.driver, ms: Date.now() - t0 }, "database ready");
    await startBackgroundWork(handle.db);
  } catch (err) {
    // Requests answer 503 until the database can be reached (each retries); background work starts
    // once it can.
    log.error(errorFields(err), "database not reachable at start-up");
    void retryBackgroundWork();
  }
}

// `next start` ends the process on SIGTERM itself as soon as its connections close, which would cut
// the flush and the pool's close short; NEXT_MANUAL_SIG_HANDLE (set by `npm start`) leaves the
// signals to us (next/dist/server/lib/start-server.js, Next 16).
async function installServerShutdown() {
  const { watchHttpServer } = await import("./http-drain");
  const { installShutdown } = await import("./shutdown");
  const { stopServer } = await import("./stop");
  watchHttpServer();
  if (!process.env.NEXT_MANUAL_SIG_HANDLE) {
    logger().warn(
      "NEXT_MANUAL_SIG_HANDLE is not set, so Next ends the process on SIGTERM as soon as its connections close; " +
        "the last second of the discovery log may be lost. Start with `npm start`, which sets it.",
    );
  }
  installShutdown({ stop: () => stopServer((m) => logger().info(m)), log: shutdownLog });
}
