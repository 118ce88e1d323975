// Background job of the outcomes feature: count new reports into the hourly rollups (every
// ROLLUP_INTERVAL_MS, default 5 s, one instance at a time through lib/jobs), drop spent caps, and
// recompute the 7-day figures of endpoints that are due. Each batch is one transaction, so a run
// stopped between batches (or killed inside one) leaves every report counted once or not yet.
import type { Db } from "@/lib/db/client";
import { refreshDueFigures } from "./figures";
import { pruneReporterWeights, rollUpReports } from "./rollup";

const BATCH = 20_000;
// Small batches: the server's thread parses each batch's figures (~0.02 ms an endpoint) between
// requests, and 2,000 at a time stalled it for tens of milliseconds.
const FIGURES_BATCH = 250;
const FIGURES_SWEEP_PER_RUN = 100;
// At most 1,000 endpoints a run (200 a second at the default interval): after a burst of reports
// to thousands of endpoints the work is spread over several runs instead of one that keeps
// Postgres busy for a second (a batch of 250 takes 30-40 ms on the benchmark data).
const FIGURES_BATCHES_PER_RUN = 4;
const PRUNE_EVERY_MS = 5 * 60_000;
let lastPrunedAt = 0;

export const rollupJob = {
  name: "outcomes.rollup",
  everyMs: Number(process.env.ROLLUP_INTERVAL_MS ?? 5_000),
  run: async (db: Db, { signal }: { signal: AbortSignal }) => {
    let counted = 0;
    // Bounded per run so one run never holds the claim for long; the next run takes the rest.
    for (let n = BATCH; n === BATCH && counted < 200_000 && !signal.aborted; ) {
      n = await rollUpReports(db, BATCH);
      counted += n;
    }
    // Caps expire by the hour, so pruning every few minutes is enough; each prune reads the oldest
    // pending report and scans reporter_weights (35-50 ms on the benchmark data), which every
    // run of a 1 s interval would pay for nothing.
    let pruned = 0;
    if (Date.now() - lastPrunedAt >= PRUNE_EVERY_MS && !signal.aborted) {
      pruned = await pruneReporterWeights(db);
      lastPrunedAt = Date.now();
    }
    // Then the stored 7-day figures that are due (lib/outcomes/figures.ts), also bounded per run.
    // The hourly sweep takes at most FIGURES_SWEEP_PER_RUN a run (20 a second at the default
    // interval), so endpoints counted together do not all fall due in the same run an hour later.
    let figures = 0;
    for (let n = FIGURES_BATCH, rounds = 0; n >= FIGURES_BATCH && rounds < FIGURES_BATCHES_PER_RUN && !signal.aborted; rounds++) {
      n = await refreshDueFigures(db, { limit: FIGURES_BATCH, sweep: rounds === 0 ? FIGURES_SWEEP_PER_RUN : 0 });
      figures += n;
    }
    return { counted, pruned, figures };
  },
};
