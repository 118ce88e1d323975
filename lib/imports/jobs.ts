// Background job of the imports: every minute, run the configured catalogues that are due (each
// every CAPDEX_IMPORT_INTERVAL_MS, 6 h by default); nothing to do when CAPDEX_IMPORT_SOURCES is unset.
import type { Db } from "@/lib/db/client";
import { runDueImports } from "./index";

export const importRunJob = {
  name: "imports.run",
  everyMs: Number(process.env.IMPORT_TICK_MS ?? 60_000),
  run: async (db: Db) => {
    const { runs } = await runDueImports(db);
    return { runs: runs.map((r) => ({ source: r.source, status: r.status, seen: r.seen, new: r.new, ms: r.ms })) };
  },
};
