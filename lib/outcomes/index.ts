// Recording outcome reports (POST /report_outcome) and first-party probe outcomes. The write path is
// an INSERT, shared by the reports that arrive together (group commit, below): no hot row, no
// read-modify-write, no lookup; the rollup job weighs and counts.
import { sql } from "drizzle-orm";
import { pgCodeOf, queryRows, type Db } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { ApiError } from "@/lib/http/errors";
import type { ReportOutcomeBody } from "@/lib/schemas/outcomes";
import { WEIGHTS, reporterOf } from "./weights";
import { endpointPayment, verifyPayment, type PaymentClaim, type PaymentEvidenceStatus, type Verdict } from "@/lib/payments/verify";

export { getObservedFigures, emptyFigures, readStoredFigures, refreshDueFigures, storeFigures, type ObservedFigures } from "./figures";
export { rollUpReports, rollUpAll } from "./rollup";
export { WEIGHTS, CAPS } from "./weights";

const ph = (name: string) => sql.placeholder(name);

function buildInsert(db: Db) {
  return db
    .insert(outcomeReports)
    .values({
      // Chosen here, so payment evidence can be stored under it before the report (lib/payments).
      id: sql`${ph("id")}::uuid`,
      // The endpoint's foreign key is the existence check (23503 -> 404).
      endpointId: sql`${ph("endpointId")}::uuid`,
      success: sql`${ph("success")}::boolean`,
      // Stored in whole milliseconds; the histogram's resolution is far coarser.
      latencyMs: sql`round(${ph("latencyMs")}::float8)::int`,
      statusCode: sql`${ph("statusCode")}::smallint`,
      discoveryId: sql`${ph("discoveryId")}::uuid`,
      failure: sql`${ph("failure")}::text`,
      paidAmount: sql`${ph("paidAmount")}::float8`,
      reporterKind: sql`${ph("reporterKind")}::text`,
      reporterKey: sql`${ph("reporterKey")}::text`,
      userId: sql`${ph("userId")}::text`,
      // The tier's weight; the discovery bonus, the caps and the provider rule apply when counted.
      weight: sql`${ph("weight")}::float8`,
    })
    .returning({ id: outcomeReports.id })
    .prepare("outcomes_insert");
}

const prepared = new WeakMap<Db, ReturnType<typeof buildInsert>>();

function insertStatement(db: Db) {
  let p = prepared.get(db);
  if (!p) prepared.set(db, (p = buildInsert(db)));
  return p;
}

type Values = {
  id: string;
  endpointId: string;
  success: boolean;
  latencyMs: number | null;
  statusCode: number | null;
  discoveryId: string | null;
  failure: string | null;
  paidAmount: number | null;
  reporterKind: string;
  reporterKey: string;
  userId: string | null;
  weight: number;
};

export type RecordedOutcome = { accepted: true; report_id: string; payment_evidence?: PaymentEvidenceStatus; payment_reason?: string };

/**
 * Stores one caller's report; 404 endpoint_not_found when the endpoint does not exist. A report
 * with `payment` is judged first (lib/payments, within its deadline) and its evidence stored under
 * the report's id before the report, so the rollup never counts the report without it.
 */
export async function recordOutcome(db: Db, body: ReportOutcomeBody, principal: Principal): Promise<RecordedOutcome> {
  const row: Values = { id: crypto.randomUUID(), ...reportRowOf(body, principal) };
  if (!body.payment) {
    const id = await insertOrNotFound(db, row);
    return { accepted: true, report_id: id };
  }
  const verdict = await judgePayment(db, body.endpoint_id, body.payment, new Date());
  const stored = await storeEvidence(db, row.id, body.endpoint_id, body.payment, verdict);
  try {
    await insertOrNotFound(db, row);
  } catch (err) {
    if (stored) await db.execute(sql`delete from payment_evidence where report_id = ${row.id}::uuid`);
    throw err;
  }
  const final = stored ? verdict : { ...verdict, status: "rejected" as const, reason: "tx_reused" as const };
  return { accepted: true, report_id: row.id, payment_evidence: final.status, ...(final.reason ? { payment_reason: final.reason } : {}) };
}

async function judgePayment(db: Db, endpointId: string, claim: PaymentClaim, at: Date): Promise<Verdict> {
  const payment = await endpointPayment(db, endpointId);
  if (!payment) throw notFound(endpointId);
  return verifyPayment(db, claim, payment, at);
}

/** Stores the evidence; false when another report already holds the transaction. */
async function storeEvidence(db: Db, reportId: string, endpointId: string, claim: PaymentClaim, v: Verdict): Promise<boolean> {
  try {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`insert into payment_evidence (report_id, endpoint_id, network, transaction, payer, payer_is_provider, receipt, payment_identifier,
                                        status, reason, asset, pay_to, amount, paid_at, checked_at)
          values (${reportId}::uuid, ${endpointId}::uuid, ${v.network}, ${v.transaction}, ${v.payer}, ${v.payerIsProvider},
                  ${claim.receipt === undefined ? null : JSON.stringify(claim.receipt)}::jsonb, ${claim.payment_identifier ?? null},
                  ${v.status}, ${v.reason}, ${v.asset}, ${v.payTo}, ${v.amount}, ${v.paidAt?.toISOString() ?? null}::timestamptz,
                  ${v.status === "unverified" ? null : new Date().toISOString()}::timestamptz)
          on conflict (network, transaction) do nothing
          returning 1 as n`,
    );
    return rows.length > 0;
  } catch (err) {
    if (pgCodeOf(err) === "23503") throw notFound(endpointId);
    throw err;
  }
}

/** The stored row of a report: the caller's fields plus who reported it, at their base weight. */
export function reportRowOf(body: ReportOutcomeBody, principal: Principal): Omit<Values, "id"> {
  const reporter = reporterOf(principal);
  return {
    endpointId: body.endpoint_id,
    success: body.success,
    latencyMs: body.latency_ms ?? null,
    statusCode: body.status_code ?? null,
    discoveryId: body.discovery_id ?? null,
    failure: body.failure ?? null,
    paidAmount: body.paid_amount ?? null,
    reporterKind: reporter.kind,
    reporterKey: reporter.key,
    userId: reporter.userId,
    weight: reporter.baseWeight,
  };
}

export type ProbeOutcome = { endpointId: string; success: boolean; latencyMs?: number | null; statusCode?: number | null };

/** Stores the outcome of a first-party probe (weighted below a discovery-tied API-key report, never capped). */
export async function recordProbeOutcome(db: Db, outcome: ProbeOutcome): Promise<{ report_id: string }> {
  return recordFirstParty(db, outcome, null, { kind: "probe", key: "probe", weight: WEIGHTS.probe });
}

export type PaidCheckOutcome = ProbeOutcome & { failure: string | null };

/** Stores the outcome of one of Capdex's paid test calls (lib/paid-checks; WEIGHTS.paidCheck, never capped). */
export async function recordPaidCheckOutcome(db: Db, outcome: PaidCheckOutcome): Promise<{ report_id: string }> {
  return recordFirstParty(db, outcome, outcome.failure, { kind: "paid_check", key: "capdex:paid-check", weight: WEIGHTS.paidCheck });
}

/** A report of Capdex's own (a probe or a paid test call): no caller, no discovery, its kind's fixed weight. */
async function recordFirstParty(
  db: Db,
  outcome: ProbeOutcome,
  failure: string | null,
  reporter: { kind: "probe" | "paid_check"; key: string; weight: number },
): Promise<{ report_id: string }> {
  const id = await insertOrNotFound(db, {
    id: crypto.randomUUID(),
    endpointId: outcome.endpointId,
    success: outcome.success,
    latencyMs: outcome.latencyMs ?? null,
    statusCode: outcome.statusCode ?? null,
    discoveryId: null,
    failure,
    paidAmount: null,
    reporterKind: reporter.kind,
    reporterKey: reporter.key,
    userId: null,
    weight: reporter.weight,
  });
  return { report_id: id };
}

// Group commit. A report is answered only once its row is stored, but reports that arrive while a
// write is in flight wait for the next statement, which stores them all: an idle instance writes
// each report at once, a busy one writes one INSERT (one transaction, one WAL flush) per batch.
// Under the benchmark's load this cut Postgres's CPU per report from 0.90 to 0.33 ms (docs/benchmarks.md).
type Pending = { values: Values; resolve: (id: string) => void; reject: (err: unknown) => void };
type Writer = { queue: Pending[]; writing: boolean; statements: number; rows: number };
/** Most reports in one statement (a few hundred keep the JSON parameter well under a megabyte). */
const MAX_BATCH = 500;
const writers = new WeakMap<Db, Writer>();

function writerOf(db: Db): Writer {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = { queue: [], writing: false, statements: 0, rows: 0 }));
  return w;
}

/** How many INSERT statements stored how many reports through this database handle (tests). */
export function reportWriteStats(db: Db): { statements: number; rows: number } {
  const w = writerOf(db);
  return { statements: w.statements, rows: w.rows };
}

function insertOrNotFound(db: Db, values: Values): Promise<string> {
  const w = writerOf(db);
  const stored = new Promise<string>((resolve, reject) => w.queue.push({ values, resolve, reject }));
  if (!w.writing) void drain(db, w);
  return stored;
}

async function drain(db: Db, w: Writer): Promise<void> {
  w.writing = true;
  try {
    while (w.queue.length) {
      const batch = w.queue.splice(0, MAX_BATCH);
      if (batch.length === 1) await writeOne(db, w, batch[0]);
      else await writeMany(db, w, batch);
    }
  } finally {
    w.writing = false;
  }
}

async function writeOne(db: Db, w: Writer, p: Pending): Promise<void> {
  try {
    const rows = await insertStatement(db).execute(p.values);
    w.statements++;
    w.rows++;
    p.resolve(rows[0].id);
  } catch (err) {
    p.reject(pgCodeOf(err) === "23503" ? notFound(p.values.endpointId) : err);
  }
}

/**
 * One statement for the batch. Reports for endpoints that do not exist are left out by the join and
 * answered 404; if the statement fails as a whole (an endpoint deleted between the join and the
 * insert, a value the database refuses), each report is retried alone, so one bad report never
 * fails the others.
 */
async function writeMany(db: Db, w: Writer, batch: Pending[]): Promise<void> {
  const ids = batch.map((p) => p.values.id);
  const rows = JSON.stringify(
    batch.map(({ values: v }, i) => ({
      id: ids[i],
      endpoint_id: v.endpointId,
      success: v.success,
      latency_ms: v.latencyMs,
      status_code: v.statusCode,
      discovery_id: v.discoveryId,
      failure: v.failure,
      paid_amount: v.paidAmount,
      reporter_kind: v.reporterKind,
      reporter_key: v.reporterKey,
      user_id: v.userId,
      weight: v.weight,
    })),
  );
  let stored: Set<string>;
  try {
    const result = await queryRows<{ id: string }>(
      db,
      sql`insert into outcome_reports (id, endpoint_id, success, latency_ms, status_code, discovery_id, failure, paid_amount, reporter_kind, reporter_key, user_id, weight)
          select x.id, x.endpoint_id, x.success, round(x.latency_ms)::int, x.status_code, x.discovery_id, x.failure, x.paid_amount, x.reporter_kind, x.reporter_key, x.user_id, x.weight
          from jsonb_to_recordset(${rows}::jsonb) as x(id uuid, endpoint_id uuid, success boolean, latency_ms float8, status_code smallint,
                 discovery_id uuid, failure text, paid_amount float8, reporter_kind text, reporter_key text, user_id text, weight float8)
          where exists (select 1 from endpoints e where e.id = x.endpoint_id)
          returning id::text as id`,
    );
    stored = new Set(result.map((r) => r.id));
  } catch {
    for (const p of batch) await writeOne(db, w, p);
    return;
  }
  w.statements++;
  w.rows += stored.size;
  batch.forEach((p, i) => (stored.has(ids[i]) ? p.resolve(ids[i]) : p.reject(notFound(p.values.endpointId))));
}

function notFound(endpointId: string) {
  return new ApiError("endpoint_not_found", `No endpoint has the id ${endpointId}.`);
}
