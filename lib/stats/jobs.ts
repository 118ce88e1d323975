// Background job of the stats feature: recompute the public statistics snapshot every
// STATS_REFRESH_MS (default 10 s), on one instance at a time through lib/jobs.
import type { Db } from "@/lib/db/client";
import { STATS_REFRESH_MS, refreshStats } from "./index";

export const statsRefreshJob = {
  name: "stats.refresh",
  everyMs: STATS_REFRESH_MS,
  run: async (db: Db) => {
    const t0 = performance.now();
    await refreshStats(db);
    return { ms: Math.round(performance.now() - t0) };
  },
};
