// Check state of endpoints: every probe is appended to endpoint_checks and folded into the endpoint
// row in the same statement (verified / failing / unverified, next due time with back-off), and a
// periodic decay keeps `verified` meaning "passed less than an hour ago" for readers of the column.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import type { ProbeVerdict } from "./evaluate";

export const VERIFIED_FOR_SECONDS = 3600;
export const FAILING_AFTER = 3;
const BACKOFF_CAP_SECONDS = 6 * 3600;

/** Seconds between probes of one endpoint (PROBE_INTERVAL_SECONDS, default 600). */
export function probeIntervalSeconds(): number {
  const n = Number(process.env.PROBE_INTERVAL_SECONDS ?? 600);
  return Number.isFinite(n) && n >= 1 ? n : 600;
}

export type RecordedState = {
  checkState: "verified" | "failing" | "unverified";
  consecutiveFailures: number;
  nextCheckAt: Date;
  /** This probe moved it to failing (the third failure in a row): true once per run of failures. */
  becameFailing: boolean;
};

/**
 * Stores a probe and updates the endpoint: passed -> verified; 3 in a row failed -> failing;
 * else unverified. The next probe is due one interval later (+-10% jitter so probes spread out),
 * doubling per failure beyond the third, up to 6 hours.
 */
export async function recordProbe(db: Db, endpointId: string, v: ProbeVerdict): Promise<RecordedState | null> {
  const interval = probeIntervalSeconds();
  const rows = await queryRows<{ check_state: RecordedState["checkState"]; consecutive_failures: number; next_check_at: string | Date }>(
    db,
    sql`with ins as (
          insert into endpoint_checks (endpoint_id, ok, reason, status_code, latency_ms, detail)
          select id, ${v.ok}::boolean, ${v.reason}::text, ${v.status}::int, ${v.latencyMs}::int, ${JSON.stringify(v.detail)}::jsonb
          from endpoints where id = ${endpointId}
          returning endpoint_id
        ),
        next as (
          select e.id, case when ${v.ok}::boolean then 0 else e.consecutive_failures + 1 end as failures
          from endpoints e join ins on ins.endpoint_id = e.id
        )
        update endpoints e set
          consecutive_failures = next.failures,
          check_state = case when ${v.ok}::boolean then 'verified' when next.failures >= ${FAILING_AFTER} then 'failing' else 'unverified' end,
          last_check_at = now(),
          last_check_ok = ${v.ok},
          last_check_reason = ${v.reason},
          last_check_status = ${v.status},
          last_check_latency_ms = ${v.latencyMs},
          last_verified_at = case when ${v.ok}::boolean then now() else e.last_verified_at end,
          next_check_at = now() + greatest(${interval}::float8,
              least(${interval}::float8 * power(2, greatest(0, next.failures - ${FAILING_AFTER})), ${BACKOFF_CAP_SECONDS}::float8))
            * (0.9 + 0.2 * random()) * interval '1 second',
          check_claimed_until = null,
          updated_at = now()
        from next where e.id = next.id
        returning e.check_state, e.consecutive_failures, e.next_check_at`,
  );
  const r = rows[0];
  if (!r) return null;
  const consecutiveFailures = Number(r.consecutive_failures);
  return {
    checkState: r.check_state,
    consecutiveFailures,
    nextCheckAt: new Date(r.next_check_at),
    becameFailing: !v.ok && r.check_state === "failing" && consecutiveFailures === FAILING_AFTER,
  };
}

/**
 * Verified endpoints whose last pass is an hour old become unverified (the column is what discovery
 * and the portal read). Demo listings keep their seeded state: they are never probed and are shown
 * as demo data.
 */
export async function expireVerified(db: Db): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update endpoints set check_state = 'unverified', updated_at = now()
        where check_state = 'verified' and not is_demo
          and (last_verified_at is null or last_verified_at <= now() - ${VERIFIED_FOR_SECONDS} * interval '1 second')
        returning id`,
  );
  return rows.length;
}

export type EndpointCheck = {
  checkedAt: Date;
  ok: boolean;
  reason: string;
  statusCode: number | null;
  latencyMs: number | null;
  detail: Record<string, unknown> | null;
};

/** The latest probes of an endpoint, newest first (for the portal and the CLI). */
export async function listEndpointChecks(db: Db, endpointId: string, limit = 10): Promise<EndpointCheck[]> {
  const rows = await queryRows<{ checked_at: string | Date; ok: boolean; reason: string; status_code: number | null; latency_ms: number | null; detail: unknown }>(
    db,
    sql`select checked_at, ok, reason, status_code, latency_ms, detail from endpoint_checks
        where endpoint_id = ${endpointId} order by checked_at desc, id desc limit ${limit}`,
  );
  return rows.map((r) => ({
    checkedAt: new Date(r.checked_at),
    ok: r.ok,
    reason: r.reason,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    detail: (typeof r.detail === "string" ? JSON.parse(r.detail) : r.detail) as Record<string, unknown> | null,
  }));
}
