// Background job of the outcomes feature: count new reports into the hourly rollups.
import { registerJob } from "@/lib/jobs";
import { rollUpReports } from "./rollup";

registerJob({
  name: "outcomes.rollup",
  everyMs: Number(process.env.ROLLUP_INTERVAL_MS ?? 5_000),
  run: async (db) => {
    let counted = 0;
    for (let n = -1; n !== 0 && counted < 200_000; ) {
      n = await rollUpReports(db, 20_000);
      counted += n;
    }
    return { counted };
  },
});
