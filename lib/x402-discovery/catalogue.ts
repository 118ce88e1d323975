// The whole catalogue as the x402 discovery API lists it: every capability's payable, non-failing
// endpoints in default-rank order, capabilities by id. Built from discovery's candidate caches, one
// segment per capability, and refreshed at the pace of those caches (DISCOVERY_CACHE_MS): a segment
// is rebuilt only when its candidates or the exploration window changed, so an unchanged catalogue
// of 20,000 endpoints costs a few map lookups per poll.
import type { Db } from "@/lib/db/client";
import { primaryOf } from "@/lib/db/replicas";
import { getCandidates, preloadCandidates, type Candidate } from "@/lib/discovery/candidates";
import { explorationRate, windowOf } from "@/lib/discovery/exploration";
import { scoreCandidates } from "@/lib/discovery/rank";
import { discoverySettings } from "@/lib/discovery/settings";
import { DEFAULT_RANKING } from "@/lib/discovery/weights";
import { getRegistry } from "@/lib/registry";
import { toCatalogueItem, type CatalogueItem } from "./resource";

type Segment = { candidates: readonly Candidate[]; window: number; rate: number; items: CatalogueItem[] };

export type IndexField = "type" | "payTo" | "scheme" | "network" | "extension";

export type Catalogue = {
  /** Every item, capabilities in id order, each capability's in rank order. */
  items: CatalogueItem[];
  byCapability: Map<string, CatalogueItem[]>;
  /** Items by the value of a filtered field, in catalogue order (built on first use). */
  index(field: IndexField): Map<string, CatalogueItem[]>;
  /** The position of an endpoint's item in `list` (`items` or one of the index lists); built on first use per list. */
  positionIn(list: CatalogueItem[], endpointId: string): number | undefined;
};

const VALUES: Record<IndexField, (i: CatalogueItem) => readonly string[]> = {
  type: (i) => [i.type],
  payTo: (i) => i.payTos,
  scheme: (i) => i.schemes,
  network: (i) => i.networks,
  extension: (i) => i.extensionKeys,
};

function makeCatalogue(items: CatalogueItem[], byCapability: Map<string, CatalogueItem[]>): Catalogue {
  const indexes = new Map<IndexField, Map<string, CatalogueItem[]>>();
  const positions = new WeakMap<CatalogueItem[], Map<string, number>>();
  return {
    items,
    byCapability,
    positionIn(list, endpointId) {
      let m = positions.get(list);
      if (!m) {
        m = new Map(list.map((item, i) => [item.endpointId, i]));
        positions.set(list, m);
      }
      return m.get(endpointId);
    },
    index(field) {
      let m = indexes.get(field);
      if (!m) {
        m = new Map();
        for (const item of items) {
          for (const v of VALUES[field](item)) {
            const list = m.get(v);
            if (list) list.push(item);
            else m.set(v, [item]);
          }
        }
        indexes.set(field, m);
      }
      return m;
    },
  };
}

/** Candidates scored between two turns of the event loop while segments are rebuilt. */
const YIELD_EVERY = 400;

type State = { catalogue: Catalogue | null; segments: Map<string, Segment>; checkedAt: number; refreshing: Promise<Catalogue> | null };

const shared = globalThis as unknown as { __capdexX402Catalogues?: WeakMap<Db, State> };
const states = (shared.__capdexX402Catalogues ??= new WeakMap<Db, State>());

/** The current catalogue: rebuilt where it changed once per DISCOVERY_CACHE_MS, stale meanwhile. */
export async function getCatalogue(handle: Db): Promise<Catalogue> {
  // Through a read handle too: the cache follows the primary (lib/db/replicas.ts).
  const db = primaryOf(handle);
  let s = states.get(db);
  if (!s) states.set(db, (s = { catalogue: null, segments: new Map(), checkedAt: 0, refreshing: null }));
  const due = Date.now() - s.checkedAt >= discoverySettings().cacheMs;
  if (s.catalogue && !due) return s.catalogue;
  const state = s;
  state.refreshing ??= refresh(db, state).finally(() => {
    state.refreshing = null;
  });
  // A catalogue already built answers at once while the next one is made.
  if (state.catalogue && discoverySettings().cacheMs > 0) return state.catalogue;
  return state.refreshing;
}

async function refresh(db: Db, s: State): Promise<Catalogue> {
  const started = Date.now();
  const registry = await getRegistry(db);
  const caps = registry.capabilities; // ordered by id
  if (!s.catalogue) await preloadCandidates(db, caps.map((c) => c.id));
  const rate = explorationRate();
  let changed = !s.catalogue || s.segments.size !== caps.length;
  const segments = new Map<string, Segment>();
  let work = 0;
  for (const cap of caps) {
    // Rebuilding segments is CPU on the server's thread: give the requests queued behind it a turn
    // every few hundred candidates (a new exploration window rebuilds every segment: 100,000
    // endpoints at scale 5,000 would otherwise be one stall of most of a second).
    if (work >= YIELD_EVERY) {
      work = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const set = await getCandidates(db, cap.id);
    const window = windowOf(Date.now() + set.clockOffsetMs);
    const old = s.segments.get(cap.id);
    if (old && old.candidates === set.candidates && old.window === window && old.rate === rate) {
      segments.set(cap.id, old);
      continue;
    }
    changed = true;
    work += set.candidates.length;
    // Rank order by score (exploration moves entries of discover answers, never a catalogue's order).
    const scored = scoreCandidates(set.candidates, { weights: DEFAULT_RANKING.weights });
    const items: CatalogueItem[] = [];
    for (const sc of scored) {
      if (sc.reasons.length) continue; // failing, or a submission whose domain record has gone
      const item = toCatalogueItem(sc.c, sc.out, cap);
      if (item) items.push(item);
    }
    segments.set(cap.id, { candidates: set.candidates, window, rate, items });
  }
  s.segments = segments;
  if (changed || !s.catalogue) {
    const byCapability = new Map<string, CatalogueItem[]>();
    const items: CatalogueItem[] = [];
    for (const cap of caps) {
      const segment = segments.get(cap.id)!;
      if (!segment.items.length) continue;
      byCapability.set(cap.id, segment.items);
      for (const item of segment.items) items.push(item);
    }
    s.catalogue = makeCatalogue(items, byCapability);
  }
  s.checkedAt = started;
  return s.catalogue!;
}
