// A web instance's background work: the discovery caches warmed, and the jobs of lib/jobs/all.ts
// (unless CAPDEX_WORKER=off), started once the database can be reached and stopped at shutdown.
import { getDb, getDbHandle, type Db } from "@/lib/server/db";
import type { Scheduler } from "@/lib/jobs";

const RETRY_MS = 5_000;
const state = globalThis as unknown as { __capdexJobs?: Scheduler; __capdexStopped?: boolean };

export async function startBackgroundWork(db: Db): Promise<void> {
  if (state.__capdexStopped) return;
  const { startWarmingDiscovery } = await import("@/lib/discovery/warm");
  startWarmingDiscovery(getDb);
  if (process.env.CAPDEX_WORKER === "off" || state.__capdexJobs) return;
  const { startJobs } = await import("@/lib/jobs");
  const { ALL_JOBS } = await import("@/lib/jobs/all");
  state.__capdexJobs = startJobs(db, ALL_JOBS);
}

/** For a server whose database was down at start: tries again every few seconds until it opens. */
export async function retryBackgroundWork(): Promise<void> {
  while (!state.__capdexStopped) {
    await new Promise((r) => setTimeout(r, RETRY_MS).unref());
    try {
      await startBackgroundWork((await getDbHandle()).db);
      return;
    } catch {
      /* still unreachable */
    }
  }
}

/** Stops the background jobs at a safe point (shutdown); resolves at once if none run. */
export async function stopBackgroundJobs(): Promise<void> {
  state.__capdexStopped = true;
  const jobs = state.__capdexJobs;
  state.__capdexJobs = undefined;
  await jobs?.stop();
}
