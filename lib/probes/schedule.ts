// The probe schedule: due endpoints are claimed with a lease (FOR UPDATE SKIP LOCKED), so any number
// of instances can probe together and each endpoint is probed by one of them once per interval.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { probeListing } from "./index";

export type ClaimedEndpoint = { id: string; url: string; method: string; pricePerCall: number; network: string };

// Longer than a probe can take (5 s deadline plus storing it), so a claim never lapses mid-probe;
// an instance that dies mid-probe releases its endpoints when the lease runs out.
const LEASE_SECONDS = 60;

/**
 * Claims up to `limit` due endpoints for this instance (demo and delisted ones are never due; never
 * probed ones come first). Written to match endpoints_probe_due_idx, so it costs an index probe.
 */
export async function claimDueEndpoints(db: Db, limit: number): Promise<ClaimedEndpoint[]> {
  const rows = await queryRows<{ id: string; url: string; method: string; price_per_call: number; network: string }>(
    db,
    sql`update endpoints set check_claimed_until = now() + ${LEASE_SECONDS} * interval '1 second'
        where id in (
          select id from endpoints
          where status = 'listed' and not is_demo
            and coalesce(next_check_at, '-infinity'::timestamptz) <= now()
            and (check_claimed_until is null or check_claimed_until < now())
          order by coalesce(next_check_at, '-infinity'::timestamptz)
          limit ${limit}
          for update skip locked)
        returning id, url, method, price_per_call, network`,
  );
  return rows.map((r) => ({ id: r.id, url: r.url, method: r.method, pricePerCall: Number(r.price_per_call), network: r.network }));
}

export type PassOptions = {
  /** Probes in flight at once (PROBE_CONCURRENCY, default 8). */
  concurrency?: number;
  /** Stop claiming new endpoints after this long (default 20 s), so other jobs get their turn. */
  budgetMs?: number;
  /** Probe at most this many endpoints in this pass. */
  limit?: number;
  /** Claim no further endpoints once aborted (the process is stopping), and cut probes in flight short (not stored). */
  signal?: AbortSignal;
};

export type PassSummary = { probed: number; passed: number; failed: number };

/** One pass of the schedule: probes due endpoints with bounded concurrency until none are due. */
export async function runProbePass(db: Db, opts: PassOptions = {}): Promise<PassSummary> {
  const concurrency = Math.max(1, opts.concurrency ?? Number(process.env.PROBE_CONCURRENCY ?? 8));
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  let remaining = opts.limit ?? Number.POSITIVE_INFINITY;
  const summary: PassSummary = { probed: 0, passed: 0, failed: 0 };
  const worker = async () => {
    while (remaining > 0 && Date.now() < deadline && !opts.signal?.aborted) {
      remaining -= 1;
      const [claimed] = await claimDueEndpoints(db, 1);
      if (!claimed) return;
      const result = await probeListing(db, claimed, { signal: opts.signal });
      if (result.skipped === "stopping") return;
      summary.probed += 1;
      if (!result.skipped && result.ok) summary.passed += 1;
      else summary.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summary;
}
