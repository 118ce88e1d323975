// Payment evidence the operator's RPC could not judge (`unverified` / `rpc_unavailable`: the RPC was
// down, too slow or serving another chain) is judged again, not left unpaid for good. Its report is
// held out of the rollup for CAPDEX_PAYMENT_RECHECK_MINUTES (default 30) after it arrived, and the
// `payments.recheck` job asks the chain again every CAPDEX_PAYMENT_RECHECK_EVERY_MS (default 30 s).
// Once the chain answers, the evidence is `verified` or `rejected` like any other and the report
// rolls up with that verdict; when the hold runs out first, it rolls up as the unpaid report it is.
// Holding the report, instead of counting it and correcting the rollup later, keeps every report
// counted exactly once (lib/outcomes/rollup.ts). docs/ranking.md, "Payment evidence".
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { numberSetting } from "@/lib/env";
import { errorFields, logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { endpointPayment, verifyPayment, type PaymentReason } from "./verify";

/** The reason whose evidence is held and judged again: the only one a later try can change by itself. */
export const HELD_REASON: PaymentReason = "rpc_unavailable";

/** How long a report with held evidence waits for its verdict (minutes; 0: not held, not judged again). */
export function recheckMinutes(): number {
  return numberSetting(process.env.CAPDEX_PAYMENT_RECHECK_MINUTES, 30, { max: 24 * 60 });
}

/** Evidence row `pe` is held: unverified for want of an RPC answer, and younger than the hold. */
const heldSql = (minutes: number) =>
  sql`pe.status = 'unverified' and pe.reason = ${HELD_REASON} and pe.created_at > now() - ${sql.raw(String(minutes))} * interval '1 minute'`;

/** The rollup's condition for a report still held: `reportId` names the report's id column. */
export function heldEvidenceSql(reportId: SQL) {
  const minutes = recheckMinutes();
  if (minutes <= 0) return sql`false`;
  return sql`exists (select 1 from payment_evidence pe where pe.report_id = ${reportId} and ${heldSql(minutes)})`;
}

type Held = { report_id: string; endpoint_id: string; network: string; transaction: string; payer: string | null; reported_at: Date };

/**
 * One pass: the held evidence tried longest ago first, at most `limit` rows, each within the
 * verify deadline. A network whose RPC is still unavailable is not asked again in the same pass.
 * Returns how many rows were tried and what became of them.
 */
export async function recheckHeldEvidence(db: Db, opts: { limit?: number; signal?: AbortSignal } = {}) {
  const minutes = recheckMinutes();
  const out = { tried: 0, verified: 0, rejected: 0, still_unavailable: 0, other: 0 };
  if (minutes <= 0) return out;
  const rows = await queryRows<Held>(
    db,
    sql`select pe.report_id, pe.endpoint_id, pe.network, pe.transaction, pe.payer, r.created_at as reported_at
        from payment_evidence pe join outcome_reports r on r.id = pe.report_id
        where ${heldSql(minutes)}
        order by coalesce(pe.checked_at, pe.created_at), pe.report_id
        limit ${opts.limit ?? 50}`,
  );
  const down = new Set<string>();
  for (const row of rows) {
    if (opts.signal?.aborted) break;
    if (down.has(row.network)) continue;
    out.tried += 1;
    try {
      const payment = await endpointPayment(db, row.endpoint_id);
      if (!payment) continue;
      const claim = { network: row.network, transaction: row.transaction, ...(row.payer ? { payer: row.payer } : {}) };
      const v = await verifyPayment(db, claim, payment, new Date(row.reported_at), { ownReportId: row.report_id });
      const outcome = v.status === "verified" || v.status === "rejected" ? v.status : v.reason === HELD_REASON ? "still_unavailable" : "other";
      if (outcome === "still_unavailable") down.add(row.network);
      // Compare and set: only a row still held is changed (one pass at a time holds the job's claim).
      await db.execute(
        sql`update payment_evidence set status = ${v.status}, reason = ${v.reason}, payer = coalesce(${v.payer}, payer),
                   payer_is_provider = ${v.payerIsProvider}, asset = ${v.asset}, pay_to = ${v.payTo}, amount = ${v.amount},
                   paid_at = ${v.paidAt?.toISOString() ?? null}::timestamptz, checked_at = now()
            where report_id = ${row.report_id}::uuid and status = 'unverified' and reason = ${HELD_REASON}`,
      );
      out[outcome] += 1;
      metrics().paymentRechecks.inc({ network: row.network, status: outcome === "other" ? v.status : outcome });
    } catch (err) {
      logger().warn({ report_id: row.report_id, ...errorFields(err) }, "payment evidence re-check failed; tried again next pass");
    }
  }
  return out;
}
