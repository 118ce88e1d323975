// `npm run worker`: the background jobs without the web server (the server runs them too unless
// CAPDEX_WORKER=off).
import { assertSupportedRuntime } from "@/lib/server/runtime";
import { openDb } from "@/lib/db/client";
import { seedIfEmpty } from "@/lib/seed";
import { listJobs, startWorker } from "@/lib/jobs";
import "@/lib/jobs/all";

console.log(`[capdex] worker on Node ${assertSupportedRuntime()}`);
const handle = await openDb({ url: process.env.DATABASE_URL || undefined });
await seedIfEmpty(handle.db);
const stop = startWorker(handle.db);
console.log(`[capdex] worker running jobs: ${listJobs().map((j) => j.name).join(", ")}`);
const shutdown = async () => {
  stop();
  await handle.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
