// Background job of the outcomes feature: count new reports into the hourly rollups (every
// ROLLUP_INTERVAL_MS, default 5 s, one instance at a time through lib/jobs), then drop spent caps.
import { registerJob } from "@/lib/jobs";
import { pruneReporterWeights, rollUpReports } from "./rollup";

const BATCH = 20_000;

registerJob({
  name: "outcomes.rollup",
  everyMs: Number(process.env.ROLLUP_INTERVAL_MS ?? 5_000),
  run: async (db) => {
    let counted = 0;
    // Bounded per run so one run never holds the claim for long; the next run takes the rest.
    for (let n = BATCH; n === BATCH && counted < 200_000; ) {
      n = await rollUpReports(db, BATCH);
      counted += n;
    }
    const pruned = await pruneReporterWeights(db);
    return { counted, pruned };
  },
});
