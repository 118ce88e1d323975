// `npm run worker`: the background jobs of lib/jobs/all.ts without the web server (the server runs
// them too unless CAPDEX_WORKER=off). SIGTERM stops the jobs at a safe point (each run returns
// between batches), closes the pool and exits within 10 s; a second signal exits at once.
// With METRICS_PORT set it serves GET /metrics there (jobs' runs, failures, duration and lag).
import { assertSupportedRuntime } from "@/lib/server/runtime";
import { openDb } from "@/lib/db/client";
import { seedIfEmpty } from "@/lib/seed";
import { startJobs } from "@/lib/jobs";
import { ALL_JOBS } from "@/lib/jobs/all";
import { installShutdown, shutdownLog } from "@/lib/server/shutdown";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { serveMetrics } from "@/lib/metrics/serve";
import { paidCheckStartupNotes } from "@/lib/paid-checks/config";

const log = logger();
log.info({ node: assertSupportedRuntime(), role: "worker" }, "starting");
const paid = paidCheckStartupNotes();
for (const w of paid.warnings) log.warn(`paid test calls: ${w}`);
if (paid.info) log.info(paid.info);
const handle = await openDb({ url: process.env.DATABASE_URL || undefined });
await seedIfEmpty(handle.db);
metrics();
const metricsServer = process.env.METRICS_PORT
  ? await serveMetrics(handle, Number(process.env.METRICS_PORT), process.env.METRICS_HOST || undefined)
  : null;
if (metricsServer) log.info({ url: `http://${process.env.METRICS_HOST || "127.0.0.1"}:${process.env.METRICS_PORT}/metrics` }, "worker metrics");
const jobs = startJobs(handle.db, ALL_JOBS);
log.info({ jobs: ALL_JOBS.map((j) => j.name) }, "worker running jobs");
installShutdown({
  log: shutdownLog,
  stop: async () => {
    metricsServer?.close();
    await jobs.stop();
    await handle.close();
  },
});
