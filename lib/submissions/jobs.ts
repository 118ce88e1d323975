// Background jobs of submissions (lib/jobs claims each run once across instances; rows inside a run
// are claimed one by one, see recheck.ts): pending submissions every few minutes, domains daily.
import type { Db } from "@/lib/db/client";
import { PENDING_RECHECK_MS } from "./index";
import { recheckAccountDomains, recheckEndpointDomains, recheckPendingSubmissions } from "./recheck";

export const recheckPendingJob = {
  name: "submissions.recheck_pending",
  everyMs: Number(process.env.SUBMISSION_JOB_INTERVAL_MS ?? 60_000),
  run: async (db: Db, { signal }: { signal: AbortSignal }) => {
    const total = { expired: 0, checked: 0, listed: 0 };
    // a few batches per run at most, so one run stays well inside the job's lease
    for (let i = 0; i < 10 && !signal.aborted; i++) {
      const r = await recheckPendingSubmissions(db, { nextCheckInMs: PENDING_RECHECK_MS });
      total.expired += r.expired;
      total.checked += r.checked;
      total.listed += r.listed;
      if (r.checked === 0) break;
    }
    return total;
  },
};

export const recheckDomainsJob = {
  name: "submissions.recheck_domains",
  everyMs: Number(process.env.DOMAIN_JOB_INTERVAL_MS ?? 10 * 60_000),
  run: async (db: Db) => {
    const endpointsChecked = await recheckEndpointDomains(db);
    const accountDomains = await recheckAccountDomains(db);
    return { endpoints: endpointsChecked, account_domains: accountDomains };
  },
};
