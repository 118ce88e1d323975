// The capability registry: list with keyword search and category filter, get one, suggest ids.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/client";
import type { Capability } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import type { CapabilityOut, ListCapabilitiesQuery } from "@/lib/schemas/capabilities";
import { API_VERSION } from "@/lib/schemas/descriptor";
import { getRegistry } from "./cache";

export { getRegistry, invalidateRegistry, derive, type Registry } from "./cache";

export function toCapabilityOut(c: Capability, endpointCount?: number): CapabilityOut {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    category: c.categoryId,
    tags: c.tags,
    ...(endpointCount !== undefined ? { endpoint_count: endpointCount } : {}),
  };
}

/** Listed endpoints per capability, straight from the database (so a new listing counts at once). */
export async function countEndpointsByCapability(db: Db, ids?: string[]): Promise<Map<string, number>> {
  const filter = ids ? sql`and capability_id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})` : sql``;
  if (ids && !ids.length) return new Map();
  const rows = await queryRows<{ capability_id: string; n: number }>(
    db,
    sql`select capability_id, count(*)::int as n from endpoints where status = 'listed' ${filter} group by 1`,
  );
  return new Map(rows.map((r) => [r.capability_id, Number(r.n)]));
}

// A capability's searchable text, built once per capability object (a registry version makes new
// ones): a search walks every capability, 5,000 at scale 5,000, and joining and lower-casing each
// one's text on every request was most of the search's cost.
const haystacks = new WeakMap<Capability, string>();

function matchesSearch(c: Capability, terms: string[]): boolean {
  let hay = haystacks.get(c);
  if (hay === undefined) haystacks.set(c, (hay = [c.id, c.title, c.description, ...c.tags].join(" ").toLowerCase()));
  return terms.every((t) => hay.includes(t));
}

export function encodeCursor(id: string) {
  return Buffer.from(id, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[a-z0-9_.]{1,100}$/.test(id)) {
    throw new ApiError("validation_failed", "The cursor is not one this service handed out.", {
      errors: [{ pointer: "#/cursor", detail: "Use next_cursor from a previous page." }],
    });
  }
  return id;
}

export async function listCapabilities(db: Db, query: ListCapabilitiesQuery) {
  const registry = await getRegistry(db);
  const terms = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const category = (query.category ?? query.tag)?.toLowerCase();
  const limit = query.limit ?? 100;
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const matching = registry.capabilities.filter(
    (c) => (!category || c.categoryId === category) && (!terms.length || matchesSearch(c, terms)),
  );
  const start = after ? matching.findIndex((c) => c.id > after) : 0;
  const page = start < 0 ? [] : matching.slice(start, start + limit);
  const counts = query.with_endpoints ? await countEndpointsByCapability(db, page.map((c) => c.id)) : null;
  const last = page[page.length - 1];
  const hasMore = start >= 0 && start + limit < matching.length;
  return {
    version: API_VERSION,
    capabilities: page.map((c) => toCapabilityOut(c, counts ? (counts.get(c.id) ?? 0) : undefined)),
    total: matching.length,
    next_cursor: hasMore && last ? encodeCursor(last.id) : null,
  };
}

/** A capability by id, or 404 capability_not_found with the closest ids as suggestions. */
export async function getCapabilityOrThrow(db: Db, id: string): Promise<Capability> {
  const registry = await getRegistry(db);
  const cap = registry.byId.get(id);
  if (cap) return cap;
  throw new ApiError("capability_not_found", `There is no capability "${id}".`, {
    extras: { suggestions: suggestCapabilityIds(registry.capabilities, id) },
  });
}

/** The closest ids by edit distance and shared words, best first. */
export function suggestCapabilityIds(caps: Capability[], id: string, max = 3): string[] {
  const want = id.toLowerCase().slice(0, 100);
  const words = new Set(want.split(/[._\s-]+/).filter(Boolean));
  return caps
    .map((c) => {
      const shared = c.id.split(/[._]/).filter((w) => words.has(w)).length;
      return { id: c.id, score: levenshtein(want, c.id) - 3 * shared };
    })
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, max)
    .map((s) => s.id);
}

export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
