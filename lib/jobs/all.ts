// Every background job of Capdex, as one list: each domain exports its jobs as plain values and this
// file names them, so the arrows point down (domains know nothing of the scheduler). The server and
// `npm run worker` start and stop exactly this list (lib/server/start.ts, scripts/worker.ts).
import { authCleanupJob } from "@/lib/auth/jobs";
import { importRunJob } from "@/lib/imports/jobs";
import { discoveryCleanupJob } from "@/lib/discovery/jobs";
import { rollupJob } from "@/lib/outcomes/jobs";
import { paidCheckJob } from "@/lib/paid-checks/jobs";
import { paymentRecheckJob } from "@/lib/payments/jobs";
import { probeExpireJob, probeRunJob } from "@/lib/probes/jobs";
import { rateLimitCleanupJob } from "@/lib/ratelimit/jobs";
import { statsRefreshJob } from "@/lib/stats/jobs";
import { recheckDomainsJob, recheckPendingJob } from "@/lib/submissions/jobs";
import type { Job } from "./index";

export const ALL_JOBS: readonly Job[] = [
  rollupJob,
  statsRefreshJob,
  discoveryCleanupJob,
  probeRunJob,
  probeExpireJob,
  rateLimitCleanupJob,
  authCleanupJob,
  recheckPendingJob,
  recheckDomainsJob,
  importRunJob,
  paidCheckJob,
  paymentRecheckJob,
];
