// Background job of the limiter: delete counters whose window ended long ago, so rate_limits holds
// roughly one row per caller active in the last two hours.
import type { Db } from "@/lib/db/client";
import { POLICIES } from "./policies";
import { deleteExpiredCounters } from "./store";

/** Twice the longest window: an older counter would restart at 1 on its next hit anyway. */
export const COUNTER_RETENTION_SECONDS = 2 * Math.max(...Object.values(POLICIES).map((p) => p.windowSeconds));

export const rateLimitCleanupJob = {
  name: "ratelimit.cleanup",
  everyMs: 10 * 60_000,
  run: async (db: Db) => ({ deleted: await deleteExpiredCounters(db, COUNTER_RETENTION_SECONDS) }),
};
