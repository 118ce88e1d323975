// The background job of paid test calls: a few checks per run (CAPDEX_PAID_CHECK_PER_RUN), every
// CAPDEX_PAID_CHECK_EVERY_MS; a run with paid checks off reads the settings and returns.
import type { Db } from "@/lib/db/client";
import { jobEveryMs } from "./config";
import { runPaidCheckPass } from "./index";

export const paidCheckJob = {
  name: "paid_checks.run",
  everyMs: jobEveryMs(),
  // A stopping process starts no further check; the one in flight finishes (its deadline bounds it).
  run: (db: Db, { signal }: { signal: AbortSignal }) => runPaidCheckPass(db, { signal }),
};
