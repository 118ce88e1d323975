// The background job of payment evidence: held evidence (rpc_unavailable) judged again, a pass every
// CAPDEX_PAYMENT_RECHECK_EVERY_MS (default 30 s), at most 50 rows a pass (lib/payments/recheck.ts).
import type { Db } from "@/lib/db/client";
import { numberSetting } from "@/lib/env";
import { recheckHeldEvidence } from "./recheck";

export const paymentRecheckJob = {
  name: "payments.recheck",
  everyMs: numberSetting(process.env.CAPDEX_PAYMENT_RECHECK_EVERY_MS, 30_000, { min: 1, max: 3_600_000 }),
  run: (db: Db, { signal }: { signal: AbortSignal }) => recheckHeldEvidence(db, { signal }),
};
