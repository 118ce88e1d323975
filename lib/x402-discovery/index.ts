// The x402 ecosystem's discovery API over Capdex (API.md, "Also in version 0.2"): list and search
// payable endpoints the way x402 facilitators serve their catalogues, so the official client
// (`withBazaar(new HTTPFacilitatorClient({ url: "{origin}/api/x402" }))`) reads Capdex unchanged.
import type { Db } from "@/lib/db/client";
import { readIntent } from "@/lib/discovery/resolve";
import { ApiError } from "@/lib/http/errors";
import type { DiscoveryFilters, ListDiscoveryQuery, SearchDiscoveryQuery } from "@/lib/schemas/x402-discovery";
import { getCatalogue, type Catalogue } from "./catalogue";
import type { CatalogueItem } from "./resource";

export const DEFAULT_LIST_LIMIT = 20;
export const DEFAULT_SEARCH_LIMIT = 10;
/** Runners-up of an intent that resolved to nothing are searched only from this confidence on. */
const WEAK_CANDIDATE_FLOOR = 0.25;

function matcher(f: DiscoveryFilters): ((item: CatalogueItem) => boolean) | null {
  const payTo = f.payTo?.toLowerCase();
  if (!f.type && !payTo && !f.scheme && !f.network && !f.extensions) return null;
  return (item) =>
    (!f.type || item.type === f.type) &&
    (!payTo || item.payTos.includes(payTo)) &&
    (!f.scheme || item.schemes.includes(f.scheme)) &&
    (!f.network || item.networks.includes(f.network)) &&
    (!f.extensions || item.extensionKeys.includes(f.extensions));
}

/**
 * The items that pass the filters, in catalogue order: the shortest of the filters' index lists
 * (built once per catalogue, lib/x402-discovery/catalogue.ts), checked against the other filters.
 */
function filtered(catalogue: Catalogue, f: DiscoveryFilters): CatalogueItem[] {
  const match = matcher(f);
  if (!match) return catalogue.items;
  const lists: CatalogueItem[][] = [];
  if (f.type) lists.push(catalogue.index("type").get(f.type) ?? []);
  if (f.payTo) lists.push(catalogue.index("payTo").get(f.payTo.toLowerCase()) ?? []);
  if (f.scheme) lists.push(catalogue.index("scheme").get(f.scheme) ?? []);
  if (f.network) lists.push(catalogue.index("network").get(f.network) ?? []);
  if (f.extensions) lists.push(catalogue.index("extension").get(f.extensions) ?? []);
  const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a));
  return lists.length === 1 ? shortest : shortest.filter(match);
}

/**
 * GET /x402/discovery/resources: a page of the catalogue (capability, then rank), with the total.
 * Two ways to page: `offset` (what the official client's listResources sends), and the opaque
 * `cursor` of the previous answer's `pagination.cursor` (keyset: the page starts after the last item
 * it saw, found by endpoint id, so a catalogue that changed between pages neither skips nor repeats
 * items the way offsets do). Both cost the page alone, whatever the offset: the filtered list is an
 * array built once per catalogue.
 */
export async function listDiscoveryResources(db: Db, q: ListDiscoveryQuery) {
  const catalogue = await getCatalogue(db);
  const limit = q.limit ?? DEFAULT_LIST_LIMIT;
  const all = filtered(catalogue, q);
  const offset = q.cursor ? offsetAfter(catalogue, all, decodeListCursor(q.cursor)) : (q.offset ?? 0);
  const items = all.slice(offset, offset + limit);
  const last = items.at(-1);
  const next = last && offset + limit < all.length ? encodeListCursor(last) : null;
  return {
    x402Version: 2 as const,
    items: items.map((i) => i.resource),
    pagination: { limit, offset, total: all.length, cursor: next },
  };
}

type ListCursor = { capabilityId: string; endpointId: string };

function encodeListCursor(item: CatalogueItem): string {
  return Buffer.from(JSON.stringify(["k", item.capabilityId, item.endpointId])).toString("base64url");
}

function decodeListCursor(cursor: string): ListCursor {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(v) && v.length === 3 && v[0] === "k" && typeof v[1] === "string" && typeof v[2] === "string") {
      return { capabilityId: v[1], endpointId: v[2] };
    }
  } catch {
    // answered below
  }
  throw new ApiError("validation_failed", "cursor: Not a cursor of this list; pass pagination.cursor of the previous page.", {
    errors: [{ pointer: "#/cursor", detail: "Not a cursor of this list." }],
  });
}

/**
 * Where the page after the cursor's item starts in `list`: right after that item if it is still
 * there, else at the first item of a later capability (the catalogue is in capability id order; an
 * item that moved or went is not looked for further).
 */
function offsetAfter(catalogue: Catalogue, list: CatalogueItem[], c: ListCursor): number {
  const at = catalogue.positionIn(list, c.endpointId);
  if (at !== undefined && list[at].capabilityId === c.capabilityId) return at + 1;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].capabilityId <= c.capabilityId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) {
    throw new ApiError("validation_failed", "cursor: Not a cursor of this search; pass pagination.cursor of the previous page.", {
      errors: [{ pointer: "#/cursor", detail: "Not a cursor of this search." }],
    });
  }
  return Number(m[1]);
}

/**
 * GET /x402/discovery/search: the query read by the intent resolver; the resolved capability's
 * endpoints first in rank order, then its runners-up's, then plain-text matches (every word of the
 * query in the endpoint's URL, description, provider or capability). Nothing found, or a need that
 * asks for harm (discover's refusal): an empty list.
 */
export async function searchDiscoveryResources(db: Db, q: SearchDiscoveryQuery) {
  const limit = q.limit ?? DEFAULT_SEARCH_LIMIT;
  const offset = decodeCursor(q.cursor);
  const [catalogue, reading] = await Promise.all([getCatalogue(db), readIntent(db, q.query)]);
  const match = matcher(q);
  const wanted = offset + limit + 1; // one more tells whether a next page exists
  const out: CatalogueItem[] = [];
  const seen = new Set<string>();
  const take = (item: CatalogueItem) => {
    const id = item.endpointId;
    if (seen.has(id) || (match && !match(item))) return;
    seen.add(id);
    out.push(item);
  };

  // A need that asks for harm finds nothing here either, not even by its words.
  if (reading.refused) return { x402Version: 2 as const, resources: [], partialResults: false, pagination: { limit, cursor: null } };
  const capabilities = reading.best
    ? [reading.best.capability_id, ...reading.candidates.map((c) => c.capability_id)]
    : reading.candidates.filter((c) => c.confidence >= WEAK_CANDIDATE_FLOOR).map((c) => c.capability_id);
  for (const id of capabilities) {
    for (const item of catalogue.byCapability.get(id) ?? []) take(item);
    if (out.length >= wanted) break;
  }
  if (out.length < wanted) {
    const words = [...new Set(q.query.toLowerCase().split(/[^\p{L}\p{N}._-]+/u).filter((w) => w.length >= 3))].slice(0, 12);
    if (words.length) {
      for (const item of catalogue.items) {
        // A word holds no space, so it is in the joined text exactly when it is in one of its parts.
        if (words.every((w) => item.haystack.includes(w) || item.capabilityHaystack.includes(w))) take(item);
        if (out.length >= wanted) break;
      }
    }
  }
  const page = out.slice(offset, offset + limit);
  const more = out.length > offset + limit;
  return {
    x402Version: 2 as const,
    resources: page.map((i) => i.resource),
    partialResults: false,
    pagination: { limit, cursor: more ? encodeCursor(offset + limit) : null },
  };
}
