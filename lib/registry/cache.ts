// The in-memory copy of the registry, reloaded when the registry version in the database changes
// (checked at most once a second), so every instance sees new capabilities almost at once.
import { asc } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { primaryOf } from "@/lib/db/replicas";
import { capabilities, categories, type Capability, type Category } from "@/lib/db/schema";
import { getRegistryVersion } from "./version";

export type Registry = {
  version: number;
  capabilities: Capability[];
  byId: Map<string, Capability>;
  categories: Category[];
  /** Built lazily by consumers (e.g. the intent index), cached per registry version. */
  derived: Map<string, unknown>;
};

const CHECK_EVERY_MS = 1000;
type CacheEntry = { registry: Registry; checkedAt: number; pending?: Promise<Registry> };
// One copy per database handle and process, on globalThis: Next bundles the start-up code (whose
// warm-up loads the registry and builds what is derived from it) apart from each route, and with a
// module-level map every route's first request loaded and parsed its own copy. At 5,000
// capabilities that was about a second per route after every start, under load the first 10 s of
// discover at 34 requests/s (docs/benchmarks.md, "100,000 endpoints again, and the cold start").
const shared = globalThis as unknown as { __capdexRegistries?: WeakMap<object, CacheEntry> };
const caches = (shared.__capdexRegistries ??= new WeakMap<object, CacheEntry>());

export async function getRegistry(db: Db): Promise<Registry> {
  const entry = caches.get(db);
  const now = Date.now();
  if (entry && now - entry.checkedAt < CHECK_EVERY_MS) return entry.registry;
  if (entry?.pending) return entry.pending;
  const pending = (async () => {
    const version = await getRegistryVersion(db);
    // Through a read handle, a replica further behind than the last one may answer: an older
    // version than the copy's is no change.
    if (entry && entry.registry.version >= version) {
      entry.checkedAt = Date.now();
      return entry.registry;
    }
    const registry = await loadRegistry(db);
    caches.set(db, { registry, checkedAt: Date.now() });
    return registry;
  })();
  if (entry) entry.pending = pending;
  try {
    return await pending;
  } finally {
    if (entry) entry.pending = undefined;
  }
}

/** Forget the cached copy (after a change made by this instance). */
export function invalidateRegistry(db: Db) {
  caches.delete(db);
}

/** A value derived from the registry (such as a search index), built once per registry version. */
export function derive<T>(registry: Registry, key: string, build: (r: Registry) => T): T {
  if (!registry.derived.has(key)) registry.derived.set(key, build(registry));
  return registry.derived.get(key) as T;
}

// The version is read again with the rows, from the same server: through a read handle, two
// queries may go to two replicas, and rows older than their label would be kept until the next change.
async function loadRegistry(db: Db): Promise<Registry> {
  const load = async (q: Db) => {
    const version = await getRegistryVersion(q);
    const caps = await q.select().from(capabilities).orderBy(asc(capabilities.id));
    const cats = await q.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
    return { version, caps, cats };
  };
  const { version, caps, cats } = primaryOf(db) === db ? await load(db) : await db.transaction((tx) => load(tx as unknown as Db));
  return { version, capabilities: caps, byId: new Map(caps.map((c) => [c.id, c])), categories: cats, derived: new Map() };
}
