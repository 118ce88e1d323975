// `npm run worker`: the background jobs of lib/jobs/all.ts without the web server (the server runs
// them too unless CAPDEX_WORKER=off). SIGTERM stops the jobs at a safe point (each run returns
// between batches), closes the pool and exits within 10 s; a second signal exits at once.
import { assertSupportedRuntime } from "@/lib/server/runtime";
import { openDb } from "@/lib/db/client";
import { seedIfEmpty } from "@/lib/db/seed";
import { startJobs } from "@/lib/jobs";
import { ALL_JOBS } from "@/lib/jobs/all";
import { installShutdown } from "@/lib/server/shutdown";

console.log(`[capdex] worker on Node ${assertSupportedRuntime()}`);
const handle = await openDb({ url: process.env.DATABASE_URL || undefined });
await seedIfEmpty(handle.db);
const jobs = startJobs(handle.db, ALL_JOBS);
console.log(`[capdex] worker running jobs: ${ALL_JOBS.map((j) => j.name).join(", ")}`);
installShutdown({
  stop: async () => {
    await jobs.stop();
    await handle.close();
  },
});
