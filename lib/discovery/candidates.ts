// The endpoints a capability could rank, with their 7-day figures, cached in-process so that the hot
// path of discover normally makes no query at all. Two lifetimes: listing state (price, network,
// check state) is re-read after a few seconds, the figures (hourly rollups, 7-day window) after a
// minute. A stale entry is served while a background batch reloads it together with the other
// stale ones; only a missing or very old entry makes a request wait.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { getObservedFigures, emptyFigures, type ObservedFigures } from "@/lib/outcomes/figures";
import { normalizeNetwork } from "@/lib/schemas/networks";
import { describeError } from "./log";
import { discoverySettings } from "./settings";

export type Candidate = {
  id: string;
  providerName: string;
  url: string;
  method: string;
  paymentType: string;
  pricePerCall: number;
  network: string;
  /** The network's friendly name (stored as given; normalised once here for the constraint check). */
  networkName: string;
  acceptedAssets: string[];
  checkState: string;
  domainVerified: boolean;
  consecutiveFailures: number;
  lastCheckOk: boolean | null;
  lastVerifiedAt: string | null;
  figures: ObservedFigures;
};

export type CandidateSet = {
  capabilityId: string;
  candidates: Candidate[];
  /** Database clock minus this process's clock, in ms (windows agree across instances). */
  clockOffsetMs: number;
};

/** Listing state is fresh for DISCOVERY_CACHE_MS, and served stale (while refreshing) up to the hard limit. */
const stateFreshMs = () => discoverySettings().cacheMs;
const stateHardMs = () => Math.max(30_000, 6 * stateFreshMs());
const figuresFreshMs = () => discoverySettings().figuresCacheMs;
const figuresHardMs = () => Math.max(600_000, 10 * figuresFreshMs());
const MAX_ENTRIES = 10_000;
/** Capabilities refreshed together by one background batch (two queries, whatever the count). */
const REFRESH_BATCH = 200;

type Row = Omit<Candidate, "figures" | "lastVerifiedAt" | "networkName"> & { capabilityId: string; lastVerifiedAt: Date | null; dbNowMs: number };
type Entry = {
  set: CandidateSet;
  stateAt: number;
  figuresAt: number;
  figures: Map<string, ObservedFigures>;
};

function selection() {
  return {
    id: endpoints.id,
    capabilityId: endpoints.capabilityId,
    providerName: providers.name,
    url: endpoints.url,
    method: endpoints.method,
    paymentType: endpoints.paymentType,
    pricePerCall: endpoints.pricePerCall,
    network: endpoints.network,
    acceptedAssets: endpoints.acceptedAssets,
    checkState: endpoints.checkState,
    domainVerified: endpoints.domainVerified,
    consecutiveFailures: endpoints.consecutiveFailures,
    lastCheckOk: endpoints.lastCheckOk,
    lastVerifiedAt: endpoints.lastVerifiedAt,
    dbNowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
  };
}

function buildStatement(db: Db) {
  return db
    .select(selection())
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .where(and(eq(endpoints.capabilityId, sql.placeholder("capabilityId")), eq(endpoints.status, "listed")))
    .prepare("discovery_candidates");
}

/** Many capabilities at once (warming a fresh instance). */
function buildManyStatement(db: Db) {
  return db
    .select(selection())
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .where(and(sql`${endpoints.capabilityId} = any(${sql.placeholder("capabilityIds")}::text[])`, eq(endpoints.status, "listed")))
    .prepare("discovery_candidates_many");
}

// `loading` holds the one refresh in flight per capability, so a burst of requests makes one query.
type State = {
  statement: ReturnType<typeof buildStatement>;
  many?: ReturnType<typeof buildManyStatement>;
  entries: Map<string, Entry>;
  loading: Map<string, Promise<CandidateSet>>;
  generation: number;
  /** Stale capabilities waiting for the next background batch, and whether one is running. */
  stale: Set<string>;
  refreshing: boolean;
};
// On globalThis: Next bundles the server's start-up code (instrumentation, jobs, the warm-up) apart
// from the route handlers, each with its own copy of this module; one cache must serve both.
const shared = globalThis as unknown as { __capdexDiscoveryCandidates?: WeakMap<Db, State> };
const states = (shared.__capdexDiscoveryCandidates ??= new WeakMap<Db, State>());

function stateOf(db: Db): State {
  let s = states.get(db);
  if (!s) states.set(db, (s = { statement: buildStatement(db), entries: new Map(), loading: new Map(), generation: 0, stale: new Set(), refreshing: false }));
  return s;
}

/** The capability's listed endpoints with figures; from the cache when it is recent enough. */
export async function getCandidates(db: Db, capabilityId: string): Promise<CandidateSet> {
  const s = stateOf(db);
  const entry = s.entries.get(capabilityId);
  const now = Date.now();
  if (!entry) return s.loading.get(capabilityId) ?? refresh(db, s, capabilityId, undefined);
  const stateAge = now - entry.stateAt;
  const figuresAge = now - entry.figuresAt;
  if (stateAge < stateFreshMs() && figuresAge < figuresFreshMs()) return entry.set;
  const mustWait = stateAge >= stateHardMs() || figuresAge >= figuresHardMs();
  const inFlight = s.loading.get(capabilityId);
  if (mustWait) return inFlight ?? refresh(db, s, capabilityId, entry);
  // Serve the stale answer and queue the capability for the background refresher, which reloads
  // all queued capabilities in one batch (two queries for up to REFRESH_BATCH of them) instead of
  // two queries each (with 1,000 busy capabilities and 5 s freshness, up to ~200 queries a second).
  // A failed batch leaves its entries stale; a later request queues them again.
  if (!inFlight) {
    s.stale.add(capabilityId);
    if (!s.refreshing) void refreshStale(db, s);
  }
  return entry.set;
}

function toCandidate(r: Row, figures: ObservedFigures): Candidate {
  return {
    id: r.id,
    providerName: r.providerName,
    url: r.url,
    method: r.method,
    paymentType: r.paymentType,
    pricePerCall: Number(r.pricePerCall),
    network: r.network,
    networkName: normalizeNetwork(r.network) ?? r.network,
    acceptedAssets: r.acceptedAssets,
    checkState: r.checkState,
    domainVerified: r.domainVerified,
    consecutiveFailures: r.consecutiveFailures,
    lastCheckOk: r.lastCheckOk,
    lastVerifiedAt: r.lastVerifiedAt ? new Date(r.lastVerifiedAt).toISOString() : null,
    figures,
  };
}

/** Builds and caches a capability's set from its rows (unless invalidated since `generation`). */
function store(
  s: State,
  capabilityId: string,
  rows: Row[],
  figuresOf: (id: string) => ObservedFigures | undefined,
  now: number,
  figuresAt: number,
  generation: number,
): CandidateSet {
  const figures = new Map<string, ObservedFigures>();
  for (const r of rows) figures.set(r.id, figuresOf(r.id) ?? emptyFigures());
  const candidates = rows.map((r) => toCandidate(r, figures.get(r.id)!)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const clockOffsetMs = rows.length ? Number(rows[0].dbNowMs) - now : (s.entries.get(capabilityId)?.set.clockOffsetMs ?? 0);
  const set: CandidateSet = { capabilityId, candidates, clockOffsetMs };
  if (generation !== s.generation) return set; // invalidated meanwhile: answer, but do not cache
  s.entries.delete(capabilityId);
  s.entries.set(capabilityId, { set, stateAt: now, figuresAt, figures });
  if (s.entries.size > MAX_ENTRIES) s.entries.delete(s.entries.keys().next().value!);
  return set;
}

/**
 * Loads the capabilities not cached yet with two queries in all (their endpoints, then their
 * figures), instead of two per capability: warming a fresh instance costs far fewer round trips.
 */
export async function preloadCandidates(db: Db, capabilityIds: string[]): Promise<number> {
  const s = stateOf(db);
  const ids = capabilityIds.filter((id) => !s.entries.has(id) && !s.loading.has(id));
  if (!ids.length) return 0;
  await loadMany(db, s, ids);
  return ids.length;
}

async function refreshStale(db: Db, s: State): Promise<void> {
  s.refreshing = true;
  try {
    while (s.stale.size) {
      const ids = [...s.stale].slice(0, REFRESH_BATCH);
      for (const id of ids) s.stale.delete(id);
      await loadMany(db, s, ids).catch((err) => {
        console.error(`[capdex] discovery: refreshing ${ids.length} capabilities failed: ${describeError(err)}`);
      });
    }
  } finally {
    s.refreshing = false;
  }
}

/**
 * Loads capabilities together, two queries in all: their listing state, and the figures of those
 * not cached or due. An entry a request stored meanwhile is kept (its data is at least as fresh).
 */
async function loadMany(db: Db, s: State, capabilityIds: string[]): Promise<void> {
  const generation = s.generation;
  const startedAt = Date.now();
  s.many ??= buildManyStatement(db);
  const rows = (await s.many.execute({ capabilityIds })) as Row[];
  const now = Date.now();
  const due = new Set(
    capabilityIds.filter((id) => {
      const e = s.entries.get(id);
      return !e || now - e.figuresAt >= figuresFreshMs();
    }),
  );
  const missing = rows.filter((r) => due.has(r.capabilityId) || !s.entries.get(r.capabilityId)?.figures.has(r.id)).map((r) => r.id);
  const fetched = missing.length ? await getObservedFigures(db, missing) : new Map<string, ObservedFigures>();
  const byCapability = new Map<string, Row[]>(capabilityIds.map((id) => [id, []]));
  for (const r of rows) byCapability.get(r.capabilityId)?.push(r);
  for (const [id, list] of byCapability) {
    const entry = s.entries.get(id);
    if (s.loading.has(id) || (entry && entry.stateAt >= startedAt)) continue;
    const figuresAt = due.has(id) || !entry ? now : entry.figuresAt;
    store(s, id, list, (e) => fetched.get(e) ?? entry?.figures.get(e), now, figuresAt, generation);
  }
}

function refresh(db: Db, s: State, capabilityId: string, entry: Entry | undefined): Promise<CandidateSet> {
  const generation = s.generation;
  const run = (async () => {
    const rows = (await s.statement.execute({ capabilityId })) as Row[];
    const now = Date.now();
    const figuresDue = !entry || now - entry.figuresAt >= figuresFreshMs();
    const known = figuresDue ? new Map<string, ObservedFigures>() : entry.figures;
    const missing = figuresDue ? rows.map((r) => r.id) : rows.filter((r) => !known.has(r.id)).map((r) => r.id);
    const fetched = missing.length ? await getObservedFigures(db, missing) : new Map<string, ObservedFigures>();
    return store(s, capabilityId, rows, (id) => fetched.get(id) ?? known.get(id), now, figuresDue ? now : entry!.figuresAt, generation);
  })();
  s.loading.set(capabilityId, run);
  run
    .catch((err) => {
      if (entry) console.error(`[capdex] discovery: refreshing ${capabilityId} failed: ${describeError(err)}`);
    })
    .finally(() => {
      if (s.loading.get(capabilityId) === run) s.loading.delete(capabilityId);
    });
  return run;
}

/** Forget cached candidates (after a change made by this instance, and in tests). */
export function invalidateCandidates(db: Db, capabilityId?: string): void {
  const s = states.get(db);
  if (!s) return;
  s.generation++;
  if (capabilityId === undefined) {
    s.entries.clear();
    s.loading.clear();
  } else {
    s.entries.delete(capabilityId);
    s.loading.delete(capabilityId);
  }
}
