// The scheduler of periodic background jobs, safe with any number of instances: before a run, an
// instance claims the job's row in job_claims with one atomic update (due time and lease on the
// database clock), so each run happens once however many servers or workers are up. Which jobs
// exist is not its business: the caller hands it a list (lib/jobs/all.ts).
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { instanceId } from "@/lib/db/instance";
import { metrics } from "@/lib/metrics";
import { errorFields, logger } from "@/lib/log";

export type JobContext = {
  /** Aborted when the process is stopping: a long run returns at its next safe point (between batches). */
  signal: AbortSignal;
};

export type Job = {
  name: string;
  /** How often the job is due, in milliseconds. */
  everyMs: number;
  /** Runs one pass; returns a small summary kept in job_claims.last_result. */
  run: (db: Db, ctx: JobContext) => Promise<Record<string, unknown> | void>;
};

const NEVER_ABORTED = new AbortController().signal;

/**
 * Claims the job if it is due (last run at least everyMs ago and nobody holds the lease) and runs it.
 * Returns the job's summary, or null when another instance has it or it is not due.
 */
export async function runIfDue(
  db: Db,
  job: Job,
  opts: { force?: boolean; signal?: AbortSignal } = {},
): Promise<Record<string, unknown> | null> {
  const leaseMs = Math.max(job.everyMs, 60_000);
  // The CTE reads the row as it was before the claim: how long ago the previous run ended (any
  // instance's), which gives how late this one starts.
  const claimed = await queryRows<{ name: string; since_last: number | null }>(
    db,
    sql`with prev as (select last_run_at from job_claims where name = ${job.name})
        insert into job_claims (name, claimed_by, claimed_until)
        values (${job.name}, ${instanceId()}, now() + ${leaseMs} * interval '1 millisecond')
        on conflict (name) do update set claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
        where (job_claims.claimed_until is null or job_claims.claimed_until < now())
          and (${opts.force ?? false} or job_claims.last_run_at is null
               or job_claims.last_run_at <= now() - ${job.everyMs} * interval '1 millisecond')
        returning name, (select extract(epoch from now() - last_run_at)::float8 from prev) as since_last`,
  );
  if (!claimed.length) return null;
  const m = metrics();
  const labels = { job: job.name };
  const sinceLast = claimed[0].since_last;
  if (sinceLast !== null) m.jobLag.set(labels, Math.max(0, Number(sinceLast) - job.everyMs / 1000));
  const started = performance.now();
  let result: Record<string, unknown> = {};
  try {
    result = (await job.run(db, { signal: opts.signal ?? NEVER_ABORTED })) ?? {};
    m.jobLastSuccess.set(labels, Date.now() / 1000);
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
    m.jobFailures.inc(labels);
    logger().error({ job: job.name, ...errorFields(err) }, "job failed");
  }
  m.jobRuns.inc(labels);
  m.jobDuration.observe(labels, (performance.now() - started) / 1000);
  try {
    await releaseClaim(db, job.name, result);
  } catch (err) {
    // The database went away during the run: the claim would block every instance until its lease
    // ends (a minute or more), so the scheduler releases it as soon as the database is back.
    unreleased.set(job.name, result);
    throw err;
  }
  return result;
}

/** Claims of this process whose release failed (the database was unreachable), by job name. */
const unreleased = new Map<string, Record<string, unknown>>();

function releaseClaim(db: Db, name: string, result: Record<string, unknown>) {
  return queryRows(
    db,
    sql`update job_claims set claimed_until = null, last_run_at = now(), last_result = ${JSON.stringify(result)}::jsonb
        where name = ${name} and claimed_by = ${instanceId()}`,
  );
}

export type Scheduler = {
  /** Starts no new run, asks running ones to return at a safe point, and waits for them. */
  stop: () => Promise<void>;
};

/**
 * Runs the given jobs, each on its own schedule: a job is tried when its interval has passed since
 * this instance last tried it, and a slow job (a probe pass) never holds up the others.
 */
export function startJobs(db: Db, jobs: readonly Job[], opts: { tickMs?: number } = {}): Scheduler {
  const tickMs = opts.tickMs ?? 1_000;
  const stopping = new AbortController();
  const running = new Map<string, Promise<unknown>>();
  const lastTried = new Map<string, number>();
  const tick = () => {
    if (stopping.signal.aborted) return;
    const now = Date.now();
    for (const [name, result] of unreleased) {
      if (running.has(name)) continue;
      const release = releaseClaim(db, name, result)
        .then(() => unreleased.delete(name))
        .catch(() => {})
        .finally(() => running.delete(name));
      running.set(name, release);
    }
    for (const job of jobs) {
      if (running.has(job.name) || now - (lastTried.get(job.name) ?? 0) < job.everyMs) continue;
      lastTried.set(job.name, now);
      const run = runIfDue(db, job, { signal: stopping.signal })
        .catch((err) => logger().error({ job: job.name, ...errorFields(err) }, "job could not be claimed or released"))
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }
  };
  const timer = setInterval(tick, tickMs);
  timer.unref?.();
  tick();
  return {
    stop: async () => {
      stopping.abort();
      clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
