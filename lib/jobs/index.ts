// Periodic background jobs, safe with any number of instances: before a run, an instance claims the
// job's row in job_claims with one atomic update (due time and lease on the database clock), so each
// run happens once however many servers or workers are up.
import os from "node:os";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";

export type Job = {
  name: string;
  /** How often the job is due, in milliseconds. */
  everyMs: number;
  /** Runs one pass; returns a small summary kept in job_claims.last_result. */
  run: (db: Db) => Promise<Record<string, unknown> | void>;
};

const jobs = new Map<string, Job>();
export const INSTANCE_ID = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

export function registerJob(job: Job): void {
  jobs.set(job.name, job);
}

export function listJobs(): Job[] {
  return [...jobs.values()];
}

/**
 * Claims the job if it is due (last run at least everyMs ago and nobody holds the lease) and runs it.
 * Returns the job's summary, or null when another instance has it or it is not due.
 */
export async function runIfDue(db: Db, job: Job, opts: { force?: boolean } = {}): Promise<Record<string, unknown> | null> {
  const leaseMs = Math.max(job.everyMs, 60_000);
  const claimed = await queryRows<{ name: string }>(
    db,
    sql`insert into job_claims (name, claimed_by, claimed_until)
        values (${job.name}, ${INSTANCE_ID}, now() + ${leaseMs} * interval '1 millisecond')
        on conflict (name) do update set claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
        where (job_claims.claimed_until is null or job_claims.claimed_until < now())
          and (${opts.force ?? false} or job_claims.last_run_at is null
               or job_claims.last_run_at <= now() - ${job.everyMs} * interval '1 millisecond')
        returning name`,
  );
  if (!claimed.length) return null;
  let result: Record<string, unknown> = {};
  try {
    result = (await job.run(db)) ?? {};
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
    console.error(`[capdex] job ${job.name} failed:`, err);
  }
  await queryRows(
    db,
    sql`update job_claims set claimed_until = null, last_run_at = now(), last_result = ${JSON.stringify(result)}::jsonb
        where name = ${job.name} and claimed_by = ${INSTANCE_ID}`,
  );
  return result;
}

/**
 * Runs every registered job on its own schedule: each job is tried when its interval has passed
 * since this instance last tried it, and a slow job (a probe pass) never holds up the others.
 * Returns a stop function.
 */
export function startWorker(db: Db, opts: { tickMs?: number } = {}): () => void {
  const tickMs = opts.tickMs ?? 1_000;
  let stopped = false;
  const running = new Set<string>();
  const lastTried = new Map<string, number>();
  const tick = () => {
    if (stopped) return;
    const now = Date.now();
    for (const job of listJobs()) {
      if (running.has(job.name) || now - (lastTried.get(job.name) ?? 0) < job.everyMs) continue;
      running.add(job.name);
      lastTried.set(job.name, now);
      runIfDue(db, job)
        .catch((err) => console.error(`[capdex] job ${job.name}:`, err))
        .finally(() => running.delete(job.name));
    }
  };
  const timer = setInterval(tick, tickMs);
  timer.unref?.();
  tick();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
