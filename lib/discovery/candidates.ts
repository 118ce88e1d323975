// The endpoints a capability could rank, with their stored 7-day figures, cached in-process so that
// the hot path of discover normally makes no query at all. An entry is kept until something it holds
// changes in the database: every DISCOVERY_CACHE_MS (5 s) one query asks which endpoints changed
// since the last poll (endpoints.changed_at, moved by a trigger on any column shown or ranked by, and
// endpoint_figures.changed_at, moved by the rollup job when an endpoint's figures change), and only
// their capabilities are reloaded, in background batches. An unchanged registry costs one small
// query per poll, however many capabilities are cached. Entries older than MAX_AGE_MS are reloaded
// anyway, as a safety net for changes made behind the triggers' back (rows deleted by hand).
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { primaryOf } from "@/lib/db/replicas";
import { queryRows } from "@/lib/db/client";
import { endpointFigures, endpoints, providers, type DeliveryValue, type PaymentSeenValue } from "@/lib/db/schema";
import { figuresOfRow, type ObservedFigures, type StoredFiguresRow } from "@/lib/outcomes/figures";
import type { EndpointCall } from "@/lib/schemas/call";
import { normalizeNetwork } from "@/lib/schemas/networks";
import { USDC_ADDRESSES } from "@/lib/probes/assets";
import { Interner } from "./intern";
import { describeError } from "./log";
import { acceptedNetworksOf } from "./networks";
import { discoverySettings } from "./settings";
import { logger } from "@/lib/log";

export type Candidate = {
  id: string;
  providerName: string;
  url: string;
  method: string;
  paymentType: string;
  pricePerCall: number;
  network: string;
  /** The network's friendly name (stored as given; normalised once here). */
  networkName: string;
  /** Every network it accepts (friendly names, `network` first; lib/discovery/networks.ts); empty when free. */
  networks: string[];
  acceptedAssets: string[];
  checkState: string;
  domainVerified: boolean;
  consecutiveFailures: number;
  lastCheckOk: boolean | null;
  lastVerifiedAt: string | null;
  figures: ObservedFigures;
  /** What Capdex's paid test calls found (lib/paid-checks); null before the first. */
  delivery?: DeliveryValue | null;
  /** "submission" or the catalogue's host. */
  source: string;
  call: EndpointCall | null;
  /** Lower-case asset symbols and contract addresses it takes (the `asset` constraint). */
  assetKeys: string[];
  /** x402 schemes its 402 offered (the `scheme` constraint); empty when none was seen. */
  schemes: string[];
  description: string;
  declaration: Record<string, unknown> | null;
  paymentSeen: PaymentSeenValue | null;
  /** When anything shown of it last changed (x402 discovery's lastUpdated). */
  changedAt: string;
};

export type CandidateSet = {
  capabilityId: string;
  candidates: Candidate[];
  /** Database clock minus this process's clock, in ms (windows agree across instances). */
  clockOffsetMs: number;
};

/** How often the change feed is polled (DISCOVERY_CACHE_MS): the most an answer lags a change. */
const pollMs = () => discoverySettings().cacheMs;
/** After this long without a poll (an idle instance), a request waits for the poll before answering. */
const pollHardMs = () => Math.max(30_000, 6 * pollMs());
/** Entries are reloaded in the background after this long even if the feed reported no change. */
const MAX_AGE_MS = 10 * 60_000;
/** Rows the poll reads again from before its last clock, for writes that committed a little late. */
const FEED_OVERLAP_MS = 5_000;
/**
 * The cache is a least-recently-used map bounded by the endpoints it holds (DISCOVERY_CACHE_MAX_ENDPOINTS),
 * not by capabilities: a capability of 2,000 endpoints weighs what 100 small ones do. The default
 * holds a registry of 100,000 endpoints (scale 5,000) twice over: the x402 catalogue walks every
 * capability each poll, so a bound below the registry would have it reload evicted capabilities
 * one by one. Lower it on instances that serve discover only (docs/deploy.md).
 */
const maxEndpoints = () => {
  const n = Number(process.env.DISCOVERY_CACHE_MAX_ENDPOINTS);
  return Number.isInteger(n) && n > 0 ? n : 200_000;
};
/**
 * Capabilities reloaded together by one background batch (one query, whatever the count). Their
 * rows are parsed on the server's thread between requests, ~0.25 ms of CPU a capability of 20
 * endpoints: batches of 200 stalled requests for ~50 ms, 25 keep it to a few milliseconds.
 */
const REFRESH_BATCH = 25;

type Row = Omit<Candidate, "figures" | "lastVerifiedAt" | "networkName" | "networks" | "assetKeys" | "schemes" | "changedAt" | "call" | "delivery"> & {
  call: unknown;
  delivery: unknown;
  listedNetworks: string[] | null;
  capabilityId: string;
  lastVerifiedAt: Date | null;
  changedAt: Date | string;
  dbNowMs: number;
  /** Null when the endpoint has no stored figures (the left join found no row). */
  figures: StoredFiguresRow | null;
};
type Entry = { set: CandidateSet; loadedAt: number; usedAt: number };

// Keep in step with the columns the trigger of drizzle/0005_figures_change_feed.sql watches (last redefined in 0012).
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
    listedNetworks: endpoints.networks,
    acceptedAssets: endpoints.acceptedAssets,
    checkState: endpoints.checkState,
    domainVerified: endpoints.domainVerified,
    consecutiveFailures: endpoints.consecutiveFailures,
    lastCheckOk: endpoints.lastCheckOk,
    lastVerifiedAt: endpoints.lastVerifiedAt,
    source: endpoints.source,
    call: endpoints.call,
    description: endpoints.description,
    declaration: endpoints.declaration,
    paymentSeen: endpoints.paymentSeen,
    delivery: endpoints.delivery,
    changedAt: endpoints.changedAt,
    figures: {
      reports: endpointFigures.reports,
      distinct_reporters: endpointFigures.distinctReporters,
      paid_reports: endpointFigures.paidReports,
      distinct_payers: endpointFigures.distinctPayers,
      w_success: endpointFigures.wSuccess,
      w_total: endpointFigures.wTotal,
      success_rate: endpointFigures.successRate,
      p95_latency_ms: endpointFigures.p95LatencyMs,
      daily: endpointFigures.daily,
    },
    dbNowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
  };
}

/** Listed endpoints with their provider and stored figures; the callers add which capabilities. */
function candidatesQuery(db: Db) {
  return db
    .select(selection())
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .leftJoin(endpointFigures, eq(endpointFigures.endpointId, endpoints.id));
}

// Imported endpoints are ranked only once probed (their first probe moves changed_at: it sets
// check_state or consecutive_failures).
const rankable = () => and(eq(endpoints.status, "listed"), sql`(${endpoints.source} = 'submission' or ${endpoints.lastCheckAt} is not null)`);

function buildStatement(db: Db) {
  return candidatesQuery(db)
    .where(and(eq(endpoints.capabilityId, sql.placeholder("capabilityId")), rankable()))
    .prepare("discovery_candidates");
}

/** Many capabilities at once (warming a fresh instance, background reloads). */
function buildManyStatement(db: Db) {
  return candidatesQuery(db)
    .where(and(sql`${endpoints.capabilityId} = any(${sql.placeholder("capabilityIds")}::text[])`, rankable()))
    .prepare("discovery_candidates_many");
}

type Feed = {
  /** Database clock (epoch ms) of the last poll; the next one asks for changes after it (less the overlap). */
  since: number;
  /** Changes already acted on within the overlap (row key -> changed_at), so each reloads once. */
  seen: Map<string, number>;
  /** Local time the feed reported each capability changed; a load started before it may hold old rows. */
  changed: Map<string, number>;
  lastPollAt: number;
  polling: Promise<void> | null;
};

// `loading` holds the one load in flight per capability, so a burst of requests makes one query.
type State = {
  statement: ReturnType<typeof buildStatement>;
  many?: ReturnType<typeof buildManyStatement>;
  /** In least-recently-used order (a hit moves its entry to the end, at most once a second). */
  entries: Map<string, Entry>;
  /** Candidates held by `entries`, against maxEndpoints(). */
  held: number;
  loading: Map<string, Promise<CandidateSet>>;
  generation: number;
  /** Capabilities waiting for the next background batch, and whether one is running. */
  stale: Set<string>;
  refreshing: boolean;
  feed: Feed;
};
// On globalThis: Next bundles the server's start-up code (instrumentation, jobs, the warm-up) apart
// from the route handlers, each with its own copy of this module; one cache must serve both.
const shared = globalThis as unknown as { __capdexDiscoveryCandidates?: WeakMap<Db, State> };
const states = (shared.__capdexDiscoveryCandidates ??= new WeakMap<Db, State>());

function stateOf(db: Db): State {
  let s = states.get(db);
  if (!s) {
    const now = Date.now();
    // Everything this state will ever load is read after now; a minute of look-back covers a
    // database clock somewhat ahead of this one (later polls use the database's own clock).
    const feed: Feed = { since: now - 60_000, seen: new Map(), changed: new Map(), lastPollAt: now, polling: null };
    states.set(db, (s = { statement: buildStatement(db), entries: new Map(), held: 0, loading: new Map(), generation: 0, stale: new Set(), refreshing: false, feed }));
  }
  return s;
}

/** The capability's listed endpoints with figures; from the cache unless it has changed. */
export async function getCandidates(handle: Db, capabilityId: string): Promise<CandidateSet> {
  // Through a read handle too: the cache follows the primary (lib/db/replicas.ts).
  const db = primaryOf(handle);
  const s = stateOf(db);
  const now = Date.now();
  const sincePoll = now - s.feed.lastPollAt;
  let waited = false;
  if (sincePoll >= pollMs()) {
    const poll = pollChanges(db, s);
    // An instance that answered nothing for a while catches up before it answers.
    if (sincePoll >= pollHardMs()) {
      await poll;
      waited = true;
    }
  }
  const entry = s.entries.get(capabilityId);
  if (!entry) return s.loading.get(capabilityId) ?? refresh(db, s, capabilityId);
  if (waited && (s.feed.changed.get(capabilityId) ?? -Infinity) >= entry.loadedAt) {
    return s.loading.get(capabilityId) ?? refresh(db, s, capabilityId);
  }
  if (now - entry.loadedAt >= MAX_AGE_MS && !s.loading.has(capabilityId)) queueReload(db, s, [capabilityId]);
  if (now - entry.usedAt >= 1000) {
    entry.usedAt = now;
    s.entries.delete(capabilityId);
    s.entries.set(capabilityId, entry);
  }
  return entry.set;
}

/**
 * Asks the database what changed since the last poll and queues the cached capabilities concerned
 * for a background reload. One poll at a time; a failed poll is retried by the next request.
 */
function pollChanges(db: Db, s: State): Promise<void> {
  if (s.feed.polling) return s.feed.polling;
  const feed = s.feed;
  feed.lastPollAt = Date.now();
  const since = feed.since - FEED_OVERLAP_MS;
  const run = (async () => {
    const rows = await queryRows<{ key: string; capability_id: string | null; at: number }>(
      db,
      sql`select 'e' || e.id::text as key, e.capability_id, (extract(epoch from e.changed_at) * 1000)::float8 as at
          from endpoints e where e.changed_at > to_timestamp(${since}::float8 / 1000)
          union all
          select 'f' || f.endpoint_id::text, e.capability_id, (extract(epoch from f.changed_at) * 1000)::float8
          from endpoint_figures f join endpoints e on e.id = f.endpoint_id
          where f.changed_at > to_timestamp(${since}::float8 / 1000)
          union all
          select '', null, (extract(epoch from clock_timestamp()) * 1000)::float8`,
    );
    const now = Date.now();
    const changed = new Set<string>();
    for (const r of rows) {
      const at = Number(r.at);
      if (!r.key) {
        feed.since = at;
        continue;
      }
      if (feed.seen.get(r.key) === at) continue;
      feed.seen.set(r.key, at);
      changed.add(r.capability_id!);
    }
    for (const [key, at] of feed.seen) if (at < feed.since - 2 * FEED_OVERLAP_MS) feed.seen.delete(key);
    for (const [id, at] of feed.changed) if (now - at > 60_000) feed.changed.delete(id);
    for (const id of changed) feed.changed.set(id, now);
    queueReload(
      db,
      s,
      [...changed].filter((id) => s.entries.has(id)),
    );
  })()
    .catch((err) => logger().error({ error: describeError(err) }, "discovery: polling for changes failed"))
    .finally(() => {
      feed.polling = null;
    });
  feed.polling = run;
  return run;
}

/** Queues capabilities for the background refresher (one batch of up to REFRESH_BATCH at a time). */
function queueReload(db: Db, s: State, capabilityIds: string[]): void {
  for (const id of capabilityIds) s.stale.add(id);
  if (s.stale.size && !s.refreshing) void refreshStale(db, s);
}

function toCandidate(r: Row, intern: Interner): Candidate {
  // Every string and jsonb value of a row is the driver's own copy: shared copies of equal values
  // keep 100,000 cached endpoints in a fraction of the memory (lib/discovery/intern.ts).
  const seen = intern.json(parseJson(r.paymentSeen)) as PaymentSeenValue | null;
  const network = intern.str(r.network);
  return {
    id: r.id,
    providerName: intern.str(r.providerName),
    url: r.url,
    method: intern.str(r.method),
    paymentType: intern.str(r.paymentType),
    pricePerCall: Number(r.pricePerCall),
    network,
    networkName: intern.str(normalizeNetwork(network) ?? network),
    networks: intern.list(acceptedNetworksOf({ pricePerCall: Number(r.pricePerCall), network, networks: r.listedNetworks }, seen)),
    acceptedAssets: intern.list(r.acceptedAssets),
    checkState: intern.str(r.checkState),
    domainVerified: r.domainVerified,
    consecutiveFailures: r.consecutiveFailures,
    lastCheckOk: r.lastCheckOk,
    lastVerifiedAt: r.lastVerifiedAt ? new Date(r.lastVerifiedAt).toISOString() : null,
    figures: figuresOfRow(r.figures),
    delivery: intern.json(parseJson(r.delivery)) as DeliveryValue | null,
    source: intern.str(r.source),
    call: intern.json(parseJson(r.call)) as EndpointCall | null,
    assetKeys: intern.list(assetKeysOf(r.acceptedAssets, seen)),
    schemes: intern.list([...new Set((seen?.accepts ?? []).map((a) => a.scheme.toLowerCase()))]),
    description: intern.str(r.description),
    declaration: intern.json(parseJson(r.declaration)) as Record<string, unknown> | null,
    paymentSeen: seen,
    changedAt: new Date(r.changedAt).toISOString(),
  };
}

/** jsonb arrives parsed from both drivers, except through a raw `sql` selection on some: parse strings. */
function parseJson(v: unknown): unknown {
  if (typeof v !== "string") return v ?? null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

const USDC_BY_ADDRESS = new Map(Object.values(USDC_ADDRESSES).map((a) => [a.toLowerCase(), "usdc"]));

function assetKeysOf(symbols: string[], seen: PaymentSeenValue | null): string[] {
  const keys = new Set(symbols.map((a) => a.toLowerCase()));
  for (const a of seen?.accepts ?? []) {
    const address = a.asset.toLowerCase();
    keys.add(address);
    const symbol = USDC_BY_ADDRESS.get(address);
    if (symbol) keys.add(symbol);
  }
  return [...keys];
}

/**
 * Builds and caches a capability's set from its rows, loaded from `startedAt` on (unless
 * invalidated since `generation`). If the feed reported a change of the capability after the load
 * began, the rows may predate it: the set is cached and answered, and reloaded once more.
 */
function store(db: Db, s: State, capabilityId: string, rows: Row[], startedAt: number, generation: number, intern = new Interner()): CandidateSet {
  const now = Date.now();
  const candidates = rows.map((r) => toCandidate(r, intern)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const clockOffsetMs = rows.length ? Number(rows[0].dbNowMs) - now : (s.entries.get(capabilityId)?.set.clockOffsetMs ?? 0);
  const set: CandidateSet = { capabilityId, candidates, clockOffsetMs };
  if (generation !== s.generation) return set; // invalidated meanwhile: answer, but do not cache
  forget(s, capabilityId);
  s.entries.set(capabilityId, { set, loadedAt: startedAt, usedAt: now });
  s.held += candidates.length;
  // Evict the least recently used, never the entry just stored.
  const max = maxEndpoints();
  while (s.held > max && s.entries.size > 1) forget(s, s.entries.keys().next().value!);
  if ((s.feed.changed.get(capabilityId) ?? -Infinity) >= startedAt) queueReload(db, s, [capabilityId]);
  return set;
}

function forget(s: State, capabilityId: string): void {
  const old = s.entries.get(capabilityId);
  if (!old) return;
  s.held -= old.set.candidates.length;
  s.entries.delete(capabilityId);
}

/** What the cache holds (metrics and tests). */
export function candidateCacheSize(handle: Db): { capabilities: number; endpoints: number } {
  // Through a read handle too: the cache follows the primary (lib/db/replicas.ts).
  const db = primaryOf(handle);
  const s = states.get(db);
  return { capabilities: s?.entries.size ?? 0, endpoints: s?.held ?? 0 };
}

/** Loads the capabilities not cached yet in one query (warming a fresh instance). */
export async function preloadCandidates(handle: Db, capabilityIds: string[]): Promise<number> {
  // Through a read handle too: the cache follows the primary (lib/db/replicas.ts).
  const db = primaryOf(handle);
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
        logger().error({ capabilities: ids.length, error: describeError(err) }, "discovery: reloading capabilities failed");
      });
    }
  } finally {
    s.refreshing = false;
  }
}

/**
 * Loads capabilities together, in one query. An entry a request stored meanwhile, or one a
 * single load is fetching, is left to that load (its rows are at least as fresh).
 */
async function loadMany(db: Db, s: State, capabilityIds: string[]): Promise<void> {
  const generation = s.generation;
  const startedAt = Date.now();
  s.many ??= buildManyStatement(db);
  const rows = (await s.many.execute({ capabilityIds })) as Row[];
  const byCapability = new Map<string, Row[]>(capabilityIds.map((id) => [id, []]));
  for (const r of rows) byCapability.get(r.capabilityId)?.push(r);
  // One interner for the batch: equal values are shared across its capabilities too.
  const intern = new Interner();
  for (const [id, list] of byCapability) {
    const entry = s.entries.get(id);
    if (s.loading.has(id) || (entry && entry.loadedAt >= startedAt)) continue;
    store(db, s, id, list, startedAt, generation, intern);
  }
}

function refresh(db: Db, s: State, capabilityId: string): Promise<CandidateSet> {
  const generation = s.generation;
  const startedAt = Date.now();
  const run = (async () => {
    const rows = (await s.statement.execute({ capabilityId })) as Row[];
    return store(db, s, capabilityId, rows, startedAt, generation);
  })();
  s.loading.set(capabilityId, run);
  run
    .catch(() => {}) // the caller gets the error
    .finally(() => {
      if (s.loading.get(capabilityId) === run) s.loading.delete(capabilityId);
    });
  return run;
}

/** Forget cached candidates (after a change made by this instance, and in tests). */
export function invalidateCandidates(handle: Db, capabilityId?: string): void {
  // Through a read handle too: the cache follows the primary (lib/db/replicas.ts).
  const db = primaryOf(handle);
  const s = states.get(db);
  if (!s) return;
  s.generation++;
  if (capabilityId === undefined) {
    s.entries.clear();
    s.held = 0;
    s.loading.clear();
  } else {
    forget(s, capabilityId);
    s.loading.delete(capabilityId);
  }
}
