// Background jobs of the endpoint checks: probe whatever is due, and let stale `verified` lapse.
import { registerJob } from "@/lib/jobs";
import { runProbePass } from "./schedule";
import { expireVerified } from "./state";

registerJob({
  name: "probes.run",
  everyMs: Number(process.env.PROBE_TICK_MS ?? 5_000),
  run: (db) => runProbePass(db),
});

registerJob({
  name: "probes.expire",
  everyMs: 60_000,
  run: async (db) => ({ expired: await expireVerified(db) }),
});
