// Server start-up: warnings for unsafe switches, the database opened early, the discovery caches
// warmed, and the background jobs of lib/jobs/all.ts (unless CAPDEX_WORKER=off).
import { getDb, getDbHandle, type Db } from "@/lib/db";
import type { Scheduler } from "@/lib/jobs";

const RETRY_MS = 5_000;
const state = globalThis as unknown as { __capdexJobs?: Scheduler };

export async function startServer() {
  (await import("@/lib/auth/startup")).prepareAuth();
  if (process.env.CAPDEX_RATE_LIMIT === "off") {
    console.warn("[capdex] WARNING: CAPDEX_RATE_LIMIT=off - rate limiting is disabled. Use this for benchmarks only.");
  }
  if (process.env.ALLOW_PRIVATE_TARGETS === "1") {
    console.warn("[capdex] WARNING: ALLOW_PRIVATE_TARGETS=1 - loopback/private targets and http:// are accepted. Tests and local development only.");
  }
  const t0 = Date.now();
  try {
    const handle = await getDbHandle();
    console.log(`[capdex] database ready (${handle.driver}) in ${Date.now() - t0} ms`);
    await startBackgroundWork(handle.db);
  } catch (err) {
    // Requests answer 503 until the database can be reached (each retries); background work starts
    // once it can.
    console.error("[capdex] database not reachable at start-up:", err instanceof Error ? err.message : err);
    void retryBackgroundWork();
  }
}

async function retryBackgroundWork() {
  for (;;) {
    await new Promise((r) => setTimeout(r, RETRY_MS).unref());
    try {
      await startBackgroundWork((await getDbHandle()).db);
      return;
    } catch {
      /* still unreachable */
    }
  }
}

async function startBackgroundWork(db: Db) {
  const { startWarmingDiscovery } = await import("@/lib/discovery/warm");
  startWarmingDiscovery(getDb);
  if (process.env.CAPDEX_WORKER === "off" || state.__capdexJobs) return;
  const { startJobs } = await import("@/lib/jobs");
  const { ALL_JOBS } = await import("@/lib/jobs/all");
  state.__capdexJobs = startJobs(db, ALL_JOBS);
}

/** Stops this server's background jobs at a safe point (shutdown); resolves at once if none run. */
export async function stopBackgroundJobs(): Promise<void> {
  const jobs = state.__capdexJobs;
  state.__capdexJobs = undefined;
  await jobs?.stop();
}
