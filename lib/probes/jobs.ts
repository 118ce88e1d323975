// Background jobs of the endpoint checks: probe whatever is due, and let stale `verified` lapse.
import type { Db } from "@/lib/db/client";
import { runProbePass } from "./schedule";
import { expireVerified } from "./state";

export const probeRunJob = {
  name: "probes.run",
  everyMs: Number(process.env.PROBE_TICK_MS ?? 5_000),
  // A stopping process claims no further endpoints and cuts the probes in flight short (they are not
  // stored; their claims are released), so a SIGTERM does not wait up to a probe's 5 s deadline.
  run: (db: Db, { signal }: { signal: AbortSignal }) => runProbePass(db, { signal }),
};

export const probeExpireJob = {
  name: "probes.expire",
  everyMs: 60_000,
  run: async (db: Db) => ({ expired: await expireVerified(db) }),
};
