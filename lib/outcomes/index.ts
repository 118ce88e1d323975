// Recording outcome reports (POST /report_outcome) and first-party probe outcomes. The write path is
// one prepared INSERT: no hot row, no read-modify-write, no lookup; the rollup job weighs and counts.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { outcomeReports } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { ApiError } from "@/lib/http/errors";
import type { ReportOutcomeBody } from "@/lib/schemas/outcomes";
import { WEIGHTS, reporterOf } from "./weights";

export { getObservedFigures, emptyFigures, type ObservedFigures } from "./figures";
export { rollUpReports, rollUpAll } from "./rollup";
export { WEIGHTS, CAPS } from "./weights";

const ph = (name: string) => sql.placeholder(name);

function buildInsert(db: Db) {
  return db
    .insert(outcomeReports)
    .values({
      // The endpoint's foreign key is the existence check (23503 -> 404).
      endpointId: sql`${ph("endpointId")}::uuid`,
      success: sql`${ph("success")}::boolean`,
      // Stored in whole milliseconds; the histogram's resolution is far coarser.
      latencyMs: sql`round(${ph("latencyMs")}::float8)::int`,
      statusCode: sql`${ph("statusCode")}::smallint`,
      discoveryId: sql`${ph("discoveryId")}::uuid`,
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
  endpointId: string;
  success: boolean;
  latencyMs: number | null;
  statusCode: number | null;
  discoveryId: string | null;
  reporterKind: string;
  reporterKey: string;
  userId: string | null;
  weight: number;
};

/** Stores one caller's report; 404 endpoint_not_found when the endpoint does not exist. */
export async function recordOutcome(
  db: Db,
  body: ReportOutcomeBody,
  principal: Principal,
): Promise<{ accepted: true; report_id: string }> {
  const id = await insertOrNotFound(db, reportRowOf(body, principal));
  return { accepted: true, report_id: id };
}

/** The stored row of a report: the caller's fields plus who reported it, at their base weight. */
export function reportRowOf(body: ReportOutcomeBody, principal: Principal) {
  const reporter = reporterOf(principal);
  return {
    endpointId: body.endpoint_id,
    success: body.success,
    latencyMs: body.latency_ms ?? null,
    statusCode: body.status_code ?? null,
    discoveryId: body.discovery_id ?? null,
    reporterKind: reporter.kind,
    reporterKey: reporter.key,
    userId: reporter.userId,
    weight: reporter.baseWeight,
  };
}

export type ProbeOutcome = { endpointId: string; success: boolean; latencyMs?: number | null; statusCode?: number | null };

/** Stores the outcome of a first-party probe (weighted above anonymous reports, never capped). */
export async function recordProbeOutcome(db: Db, outcome: ProbeOutcome): Promise<{ report_id: string }> {
  const id = await insertOrNotFound(db, {
    endpointId: outcome.endpointId,
    success: outcome.success,
    latencyMs: outcome.latencyMs ?? null,
    statusCode: outcome.statusCode ?? null,
    discoveryId: null,
    reporterKind: "probe",
    reporterKey: "probe",
    userId: null,
    weight: WEIGHTS.probe,
  });
  return { report_id: id };
}

async function insertOrNotFound(db: Db, values: Values): Promise<string> {
  try {
    const rows = await insertStatement(db).execute(values);
    return rows[0].id;
  } catch (err) {
    if (pgCodeOf(err) === "23503") throw new ApiError("endpoint_not_found", `No endpoint has the id ${values.endpointId}.`);
    throw err;
  }
}

function pgCodeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
