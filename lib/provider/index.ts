// Provider self-service: the endpoints an account owns, with what discover made of them (impressions,
// rank), what callers reported and which checks failed; and the owner's edits (price, networks,
// method, call), delisting and relisting. Every change makes the endpoint unverified and due for a
// probe now, and the probe runs at once, so a change is checked before it counts as verified again.
//
// Ownership: an endpoint belongs to an account when its provider (not demo data) was made by that
// account (providers.user_id: submitted or claimed while signed in) or names the account's e-mail as
// its contact (the e-mail of the submission or the claim that listed it: a signed-in account has
// proven it owns that address by its sign-in link).
import { and, eq, sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { endpoints, providers, users, type Endpoint } from "@/lib/db/schema";
import { getCandidates, invalidateCandidates } from "@/lib/discovery/candidates";
import { scoreCandidates } from "@/lib/discovery/rank";
import { DEFAULT_RANKING } from "@/lib/discovery/weights";
import { ApiError } from "@/lib/http/errors";
import { probeEndpoint } from "@/lib/probes";
import { declarationOfSubmitted } from "@/lib/probes/declaration";
import type { ProviderEndpointOut, ProviderEndpointPatch } from "@/lib/schemas/provider";
import { errorFields, logger } from "@/lib/log";

export type Owner = { id: string; email: string | null };

/** The account behind a user id (an API key's owner), with its e-mail. */
export async function ownerOf(db: Db, userId: string): Promise<Owner> {
  const [u] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return { id: userId, email: u?.email ?? null };
}

function ownedBy(owner: Owner) {
  const byEmail = owner.email ? sql`lower(${providers.contactEmail}) = lower(${owner.email})` : sql`false`;
  return and(eq(endpoints.isDemo, false), eq(providers.isDemo, false), sql`(${providers.userId} = ${owner.id} or ${byEmail})`);
}

async function ownedRows(db: Db, owner: Owner, id?: string): Promise<Endpoint[]> {
  const rows = await db
    .select({ e: endpoints })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .where(and(ownedBy(owner), id ? eq(endpoints.id, id) : undefined))
    .orderBy(endpoints.capabilityId, endpoints.url);
  return rows.map((r) => r.e);
}

/** The owner's endpoint, or 404 endpoint_not_found (someone else's endpoint is not told apart from none). */
export async function getOwnedEndpoint(db: Db, owner: Owner, id: string): Promise<Endpoint> {
  const [e] = await ownedRows(db, owner, id);
  if (!e) throw new ApiError("endpoint_not_found", `None of your endpoints has the id ${id}.`);
  return e;
}

const uuidArray = (ids: string[]) => `{${ids.join(",")}}`;

type Figures = { impressions: number; avgPosition: number | null; reports: number; failures: number; reporters: number; failingChecks: number };

async function figuresOf(db: Db, ids: string[]): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>(ids.map((id) => [id, { impressions: 0, avgPosition: null, reports: 0, failures: 0, reporters: 0, failingChecks: 0 }]));
  if (!ids.length) return out;
  const arr = uuidArray(ids);
  const [seen, reports, checks] = await Promise.all([
    queryRows<{ id: string; n: number; pos: number | null }>(
      db,
      sql`select u.eid::text as id, count(*)::int as n, avg(u.pos)::float8 as pos
          from discoveries d, unnest(d.endpoint_ids) with ordinality as u(eid, pos)
          where d.created_at > now() - interval '24 hours' and u.eid = any(${arr}::uuid[])
          group by u.eid`,
    ),
    queryRows<{ id: string; n: number; failed: number; reporters: number }>(
      db,
      sql`select endpoint_id::text as id, count(*)::int as n, count(*) filter (where not success)::int as failed,
                 count(distinct reporter_key)::int as reporters
          from outcome_reports
          where endpoint_id = any(${arr}::uuid[]) and reporter_kind not in ('probe', 'paid_check') and created_at > now() - interval '7 days'
          group by endpoint_id`,
    ),
    queryRows<{ id: string; n: number }>(
      db,
      sql`select endpoint_id::text as id, count(*)::int as n from endpoint_checks
          where endpoint_id = any(${arr}::uuid[]) and not ok and checked_at > now() - interval '7 days'
          group by endpoint_id`,
    ),
  ]);
  for (const r of seen) Object.assign(out.get(r.id) ?? {}, { impressions: Number(r.n), avgPosition: r.pos === null ? null : Number(r.pos) });
  for (const r of reports) Object.assign(out.get(r.id) ?? {}, { reports: Number(r.n), failures: Number(r.failed), reporters: Number(r.reporters) });
  for (const r of checks) Object.assign(out.get(r.id) ?? {}, { failingChecks: Number(r.n) });
  return out;
}

async function ranksOf(db: Db, list: Endpoint[]): Promise<Map<string, { position: number | null; of: number; score: number | null }>> {
  const out = new Map<string, { position: number | null; of: number; score: number | null }>();
  for (const capabilityId of new Set(list.map((e) => e.capabilityId))) {
    const set = await getCandidates(db, capabilityId);
    const scored = scoreCandidates(set.candidates, { weights: DEFAULT_RANKING.weights });
    const fit = scored.filter((s) => !s.reasons.length);
    for (const e of list.filter((x) => x.capabilityId === capabilityId)) {
      const at = fit.findIndex((s) => s.c.id === e.id);
      const mine = scored.find((s) => s.c.id === e.id);
      out.set(e.id, { position: at >= 0 ? at + 1 : null, of: fit.length, score: mine ? mine.out.score : null });
    }
  }
  return out;
}

function toOut(e: Endpoint, f: Figures, rank: { position: number | null; of: number; score: number | null }, origin: string): ProviderEndpointOut {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    endpoint_id: e.id,
    capability_id: e.capabilityId,
    url: e.url,
    method: e.method,
    description: e.description,
    price_per_call: e.pricePerCall,
    network: e.network,
    networks: e.networks.length ? e.networks : [e.network],
    accepted_assets: e.acceptedAssets,
    status: e.status,
    delisted_by: e.status === "listed" ? null : (e.delistedBy ?? "operator"),
    check_state: e.checkState,
    consecutive_failures: e.consecutiveFailures,
    last_check: e.lastCheckAt
      ? { at: iso(e.lastCheckAt) as string, ok: e.lastCheckOk, reason: e.lastCheckReason, status: e.lastCheckStatus, latency_ms: e.lastCheckLatencyMs }
      : null,
    next_check_at: e.status === "listed" ? iso(e.nextCheckAt) : null,
    call: (e.call as Record<string, unknown> | null) ?? null,
    rank: e.status === "listed" ? rank : { position: null, of: rank.of, score: null },
    impressions_24h: f.impressions,
    average_position_24h: f.avgPosition === null ? null : Math.round(f.avgPosition * 10) / 10,
    reports_7d: { reports: f.reports, failures: f.failures, distinct_reporters: f.reporters },
    failing_checks_7d: f.failingChecks,
    page: `${origin}/endpoints/${e.id}`,
  };
}

async function describe(db: Db, list: Endpoint[], origin: string): Promise<ProviderEndpointOut[]> {
  const [figures, ranks] = await Promise.all([figuresOf(db, list.map((e) => e.id)), ranksOf(db, list)]);
  return list.map((e) => toOut(e, figures.get(e.id)!, ranks.get(e.id) ?? { position: null, of: 0, score: null }, origin));
}

/** GET /provider/endpoints and the dashboard: every endpoint the account owns, with its figures. */
export async function listOwnedEndpoints(db: Db, owner: Owner, origin = ""): Promise<ProviderEndpointOut[]> {
  return describe(db, await ownedRows(db, owner), origin);
}

export async function describeOwnedEndpoint(db: Db, owner: Owner, id: string, origin = ""): Promise<ProviderEndpointOut> {
  const [out] = await describe(db, [await getOwnedEndpoint(db, owner, id)], origin);
  return out;
}

export type ChangeOptions = { origin?: string; /** Probe at once (default); off, the schedule's next pass does it. */ probe?: boolean };

// What every change does to the check state: unverified, due now, failures counted afresh.
const RECHECK = {
  checkState: "unverified",
  consecutiveFailures: 0,
  nextCheckAt: sql`now()`,
  checkClaimedUntil: null,
  updatedAt: sql`now()`,
} as const;

async function afterChange(db: Db, e: Endpoint, opts: ChangeOptions): Promise<void> {
  invalidateCandidates(db, e.capabilityId);
  if (opts.probe === false) return;
  await probeEndpoint(db, e.id).catch((err) => {
    // The probe is also due now on the schedule; a failed attempt here only delays it.
    logger().warn({ endpoint_id: e.id, ...errorFields(err) }, "probe after a provider's change failed");
  });
  invalidateCandidates(db, e.capabilityId);
}

/** PATCH /provider/endpoints/{id}: price, networks, assets, method, description, call. */
export async function updateOwnedEndpoint(db: Db, owner: Owner, id: string, patch: ProviderEndpointPatch, opts: ChangeOptions = {}): Promise<ProviderEndpointOut> {
  const e = await getOwnedEndpoint(db, owner, id);
  const method = patch.method ?? e.method;
  const set: Record<string, unknown> = { ...RECHECK };
  if (patch.price_per_call !== undefined) set.pricePerCall = patch.price_per_call;
  if (patch.networks) {
    const networks = [...new Set(patch.networks)];
    set.networks = networks;
    set.network = networks[0];
  }
  if (patch.accepted_assets) set.acceptedAssets = [...new Set(patch.accepted_assets)];
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.method) set.method = method;

  const current = e.call as ({ source?: string; method?: string; input?: { kind?: string } } & Record<string, unknown>) | null;
  if (patch.call === null) {
    set.call = null;
  } else if (patch.call) {
    const checked = declarationOfSubmitted(patch.call, method);
    if (!checked.ok) throw new ApiError("validation_failed", `call: ${checked.problem}`, { errors: [{ pointer: "#/call", detail: checked.problem }] });
    // Submitted until the endpoint's own 402 declares one again (the probe below reads it).
    set.call = { source: "submitted", ...(checked.call as { method: string }), updated_at: new Date().toISOString() };
  } else if (patch.method && current?.input?.kind) {
    // A new method must still fit the call on record: a body needs POST, PUT or PATCH.
    const bodyMethod = ["POST", "PUT", "PATCH"].includes(method);
    const kind = current.input.kind;
    if ((kind === "body" && !bodyMethod) || (kind === "query" && bodyMethod)) {
      const detail = kind === "body" ? `The call sends a body, which needs POST, PUT or PATCH, not ${method}: send a new call with the method.` : `${method} takes a body, and the call on record uses query parameters: send a new call with the method.`;
      throw new ApiError("validation_failed", detail, { errors: [{ pointer: "#/method", detail }] });
    }
    set.call = { ...current, method, updated_at: new Date().toISOString() };
  }
  const [updated] = await db.update(endpoints).set(set as Partial<typeof endpoints.$inferInsert>).where(eq(endpoints.id, e.id)).returning();
  if (updated.status === "listed") await afterChange(db, updated, opts);
  else invalidateCandidates(db, e.capabilityId);
  return describeOwnedEndpoint(db, owner, id, opts.origin);
}

/** POST /provider/endpoints/{id}/delist: out of discover at once (idempotent). */
export async function delistOwnedEndpoint(db: Db, owner: Owner, id: string, opts: ChangeOptions = {}): Promise<ProviderEndpointOut> {
  const e = await getOwnedEndpoint(db, owner, id);
  if (e.status === "listed") {
    await db
      .update(endpoints)
      .set({ status: "delisted", delistedBy: "provider", checkClaimedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(endpoints.id, e.id), eq(endpoints.status, "listed")));
    invalidateCandidates(db, e.capabilityId);
  }
  return describeOwnedEndpoint(db, owner, id, opts.origin);
}

/**
 * POST /provider/endpoints/{id}/relist: back in discover, unverified until its probe passes. Only an
 * endpoint its provider delisted: one an operator (or a rejected submission) took out stays out (409).
 */
export async function relistOwnedEndpoint(db: Db, owner: Owner, id: string, opts: ChangeOptions = {}): Promise<ProviderEndpointOut> {
  const e = await getOwnedEndpoint(db, owner, id);
  if (e.status !== "listed") {
    if (e.delistedBy !== "provider") {
      throw new ApiError("relist_refused", "This endpoint was delisted by an operator or by its catalogue, not by you, so it cannot be relisted here; submit it again or write to the operators.", {
        extras: { delisted_by: e.delistedBy ?? "operator" },
      });
    }
    const [updated] = await db
      .update(endpoints)
      .set({ ...RECHECK, status: "listed", delistedBy: null })
      .where(and(eq(endpoints.id, e.id), eq(endpoints.delistedBy, "provider")))
      .returning();
    if (updated) await afterChange(db, updated, opts);
  }
  return describeOwnedEndpoint(db, owner, id, opts.origin);
}

/** The account of an API request, or 401: these operations act on the caller's own listings only. */
export async function ownerOfPrincipal(db: Db, principal: { kind: string; userId?: string }): Promise<Owner> {
  if (principal.kind !== "authenticated" || !principal.userId) {
    throw new ApiError("unauthorized", "Send your API key as `Authorization: Bearer cdx_...` (create one at /account).", {
      headers: { "WWW-Authenticate": 'Bearer realm="capdex"' },
    });
  }
  return ownerOf(db, principal.userId);
}
