// Recording outcome reports (POST /report_outcome) and first-party probe outcomes. The write path is
// one prepared INSERT: no hot row, no read-modify-write; the rollup job counts reports later.
import { sql, type SQL } from "drizzle-orm";
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

// The discovery bonus is decided here, inside the INSERT: one primary-key lookup of the discovery,
// which must belong to this caller, list this endpoint and be recent. Anything else counts as base.
const discoveryFactor = sql`case when exists (
    select 1 from discoveries d
    where d.id = ${ph("discoveryId")}::uuid and d.principal_key = ${ph("principalKey")}::text
      and ${ph("endpointId")}::uuid = any(d.endpoint_ids)
      and d.created_at > now() - ${sql.raw(String(WEIGHTS.discoveryWindowMinutes))} * interval '1 minute'
  ) then ${sql.raw(String(WEIGHTS.discoveryBonus))} else 1 end`;

function buildInsert(db: Db, name: string, weight: SQL) {
  return db
    .insert(outcomeReports)
    .values({
      endpointId: sql`${ph("endpointId")}::uuid`,
      success: sql`${ph("success")}::boolean`,
      // Stored in whole milliseconds; the histogram's resolution is far coarser.
      latencyMs: sql`round(${ph("latencyMs")}::float8)::int`,
      statusCode: sql`${ph("statusCode")}::smallint`,
      discoveryId: sql`${ph("discoveryId")}::uuid`,
      reporterKind: sql`${ph("reporterKind")}::text`,
      reporterKey: sql`${ph("reporterKey")}::text`,
      userId: sql`${ph("userId")}::text`,
      weight,
    })
    .returning({ id: outcomeReports.id })
    .prepare(name);
}

type Prepared = { report: ReturnType<typeof buildInsert>; probe: ReturnType<typeof buildInsert> };
const prepared = new WeakMap<Db, Prepared>();

function statementsOf(db: Db): Prepared {
  let p = prepared.get(db);
  if (!p) {
    p = {
      report: buildInsert(db, "outcomes_report", sql`${ph("baseWeight")}::float8 * ${discoveryFactor}`),
      probe: buildInsert(db, "outcomes_probe", sql`${ph("baseWeight")}::float8`),
    };
    prepared.set(db, p);
  }
  return p;
}

/** Stores one caller's report; 404 endpoint_not_found when the endpoint does not exist. */
export async function recordOutcome(
  db: Db,
  body: ReportOutcomeBody,
  principal: Principal,
): Promise<{ accepted: true; report_id: string }> {
  const reporter = reporterOf(principal);
  const rows = await insertOrNotFound(statementsOf(db).report, body.endpoint_id, {
    endpointId: body.endpoint_id,
    success: body.success,
    latencyMs: body.latency_ms ?? null,
    statusCode: body.status_code ?? null,
    discoveryId: body.discovery_id ?? null,
    principalKey: principal.key,
    reporterKind: reporter.kind,
    reporterKey: reporter.key,
    userId: reporter.userId,
    baseWeight: reporter.baseWeight,
  });
  return { accepted: true, report_id: rows[0].id };
}

export type ProbeOutcome = { endpointId: string; success: boolean; latencyMs?: number | null; statusCode?: number | null };

/** Stores the outcome of a first-party probe (weighted above anonymous reports, never capped). */
export async function recordProbeOutcome(db: Db, outcome: ProbeOutcome): Promise<{ report_id: string }> {
  const rows = await insertOrNotFound(statementsOf(db).probe, outcome.endpointId, {
    endpointId: outcome.endpointId,
    success: outcome.success,
    latencyMs: outcome.latencyMs ?? null,
    statusCode: outcome.statusCode ?? null,
    discoveryId: null,
    reporterKind: "probe",
    reporterKey: "probe",
    userId: null,
    baseWeight: WEIGHTS.probe,
  });
  return { report_id: rows[0].id };
}

async function insertOrNotFound(
  statement: Prepared["report"],
  endpointId: string,
  values: Record<string, unknown>,
): Promise<Array<{ id: string }>> {
  try {
    return await statement.execute(values);
  } catch (err) {
    // The endpoint's foreign key is the existence check: no extra query on the hot path.
    if (pgCodeOf(err) === "23503") throw new ApiError("endpoint_not_found", `No endpoint has the id ${endpointId}.`);
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
