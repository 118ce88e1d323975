// Background job of the outcomes feature: count new reports into the hourly rollups (every
// ROLLUP_INTERVAL_MS, default 5 s, one instance at a time through lib/jobs), drop spent caps, and
// recompute the 7-day figures of endpoints that are due.
import { registerJob } from "@/lib/jobs";
import { refreshDueFigures } from "./figures";
import { pruneReporterWeights, rollUpReports } from "./rollup";

const BATCH = 20_000;
const FIGURES_BATCH = 2_000;

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
    // Then the stored 7-day figures that are due (lib/outcomes/figures.ts), also bounded per run.
    let figures = 0;
    for (let n = FIGURES_BATCH, rounds = 0; n === FIGURES_BATCH && rounds < 10; rounds++) {
      n = await refreshDueFigures(db, { limit: FIGURES_BATCH });
      figures += n;
    }
    return { counted, pruned, figures };
  },
});
