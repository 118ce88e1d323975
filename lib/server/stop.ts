// What a web instance does on SIGTERM, in order: answer /api/health and /api/ready with 503 and
// close each connection after its answer; wait SHUTDOWN_DELAY_MS for the balancer to notice; stop
// accepting connections and finish the requests in flight; write the buffered discovery log and
// counters; let the background jobs reach a safe point; close the database pool and the limiter's
// Redis connection.
// lib/server/shutdown.ts bounds it all by 10 s.
import { closeDb } from "@/lib/server/db";
import { flushDiscoveryLog } from "@/lib/discovery/log";
import { closeRedis } from "@/lib/ratelimit/redis";
import { closeHttpServer, startDraining } from "./http-drain";
import { stopBackgroundJobs } from "./background";

/** SHUTDOWN_DELAY_MS (default 0, at most 5 s): how long a stopping instance keeps serving while failing /api/ready. */
export function shutdownDelayMs(env: Record<string, string | undefined> = process.env): number {
  const ms = Number(env.SHUTDOWN_DELAY_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 5_000) : 0;
}

export async function stopServer(log: (message: string) => void): Promise<void> {
  startDraining();
  const jobs = stopBackgroundJobs();
  const delay = shutdownDelayMs();
  if (delay) await new Promise((r) => setTimeout(r, delay));
  const t0 = Date.now();
  const { closed } = await closeHttpServer();
  if (closed) log(`connections drained in ${Date.now() - t0} ms`);
  await flushDiscoveryLog();
  await jobs;
  await Promise.all([closeDb(), closeRedis()]);
}
