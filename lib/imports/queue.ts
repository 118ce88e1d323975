// The unmapped queue, for operators (`npm run cli -- imports unmapped|map|ignore`): items the intent
// resolver could not place with confidence, with its candidates; mapping one lists it at once under
// the chosen capability (and keeps that choice on later runs); ignoring one delists it for good.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { ApiError } from "@/lib/http/errors";
import { getRegistry, suggestCapabilityIds } from "@/lib/registry";
import type { ParsedItem } from "./item";
import { storePage } from "./store";

export type UnmappedItem = {
  source: string;
  url: string;
  description: string;
  candidates: Array<{ capability_id: string; confidence: number }>;
  lastSeenAt: Date;
};

export async function listUnmapped(db: Db, opts: { limit?: number } = {}): Promise<{ items: UnmappedItem[]; total: number; byCandidate: Array<{ capability_id: string; items: number }> }> {
  const [items, [count], clusters] = await Promise.all([
    queryRows<{ source_host: string; url: string; description: string | null; candidates: UnmappedItem["candidates"] | null; last_seen_at: string | Date }>(
      db,
      sql`select source_host, url, facts->>'description' as description, candidates, last_seen_at from import_items
          where state = 'unmapped' order by last_seen_at desc, url limit ${opts.limit ?? 50}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from import_items where state = 'unmapped'`),
    // Clusters around one nearest capability hint at a gap in the registry (or a synonym it lacks).
    queryRows<{ capability_id: string; items: number }>(
      db,
      sql`select candidates->0->>'capability_id' as capability_id, count(*)::int as items from import_items
          where state = 'unmapped' and jsonb_array_length(coalesce(candidates, '[]'::jsonb)) > 0
          group by 1 order by 2 desc, 1 limit 10`,
    ),
  ]);
  return {
    items: items.map((r) => ({ source: r.source_host, url: r.url, description: r.description ?? "", candidates: r.candidates ?? [], lastSeenAt: new Date(r.last_seen_at) })),
    total: Number(count.n),
    byCandidate: clusters.map((c) => ({ capability_id: c.capability_id, items: Number(c.items) })),
  };
}

export type HeldItem = { source: string; url: string; reason: string; description: string; lastSeenAt: Date };

/** Items held back as noise (lib/imports/noise.ts), newest first, and their count per reason. */
export async function listHeldBack(db: Db, opts: { limit?: number; reason?: string } = {}): Promise<{ items: HeldItem[]; total: number; byReason: Array<{ reason: string; items: number }> }> {
  const reason = opts.reason ?? null;
  const [items, byReason] = await Promise.all([
    queryRows<{ source_host: string; url: string; reason: string; description: string | null; last_seen_at: string | Date }>(
      db,
      sql`select source_host, url, reason, facts->>'description' as description, last_seen_at from import_items
          where state = 'held_back' and (${reason}::text is null or reason = ${reason}::text)
          order by last_seen_at desc, url limit ${opts.limit ?? 50}`,
    ),
    queryRows<{ reason: string; items: number }>(
      db,
      sql`select reason, count(*)::int as items from import_items where state = 'held_back' group by 1 order by 2 desc, 1`,
    ),
  ]);
  return {
    items: items.map((r) => ({ source: r.source_host, url: r.url, reason: r.reason, description: r.description ?? "", lastSeenAt: new Date(r.last_seen_at) })),
    total: byReason.filter((r) => !reason || r.reason === reason).reduce((a, r) => a + Number(r.items), 0),
    byReason: byReason.map((r) => ({ reason: r.reason, items: Number(r.items) })),
  };
}

async function itemsAt(db: Db, url: string) {
  const rows = await queryRows<{ source_host: string; state: string; facts: (Record<string, unknown> & { full?: boolean }) | null; last_run_id: string | null }>(
    db,
    sql`select source_host, state, facts, last_run_id::text as last_run_id from import_items where url = ${url}`,
  );
  if (!rows.length) throw new ApiError("not_found", `No catalogue lists ${url}.`);
  return rows;
}

/** Lists the URL under `capabilityId` (an operator's choice, kept by later runs). */
export async function mapImportedUrl(db: Db, url: string, capabilityId: string): Promise<{ listed: number; pending: number }> {
  const registry = await getRegistry(db);
  if (!registry.byId.has(capabilityId)) {
    throw new ApiError("capability_not_found", `There is no capability "${capabilityId}".`, { extras: { suggestions: suggestCapabilityIds(registry.capabilities, capabilityId) } });
  }
  const rows = await itemsAt(db, url);
  await queryRows(
    db,
    sql`update import_items set mapped_by = 'operator', capability_id = ${capabilityId},
          state = case when state in ('unmapped', 'ignored', 'held_back') then 'mapped' else state end, reason = null
        where url = ${url}`,
  );
  let listed = 0;
  let pending = 0;
  for (const r of rows) {
    if (!r.facts?.full) {
      pending += 1; // listed (or moved) by the source's next run
      continue;
    }
    const { full: _full, noise_keys: _keys, ...item } = r.facts;
    const result = await storePage(db, { sourceHost: r.source_host, runId: r.last_run_id ?? crypto.randomUUID() }, [item as unknown as ParsedItem], () => ({ capabilityId, confidence: 1, candidates: [] }));
    listed += result.new + result.updated + result.unchanged;
    for (const c of result.capabilities) invalidateCandidates(db, c);
  }
  return { listed, pending };
}

/** Keeps the URL out of Capdex: its imported endpoints are delisted and later runs leave it alone. */
export async function ignoreImportedUrl(db: Db, url: string): Promise<{ delisted: number }> {
  await itemsAt(db, url);
  const rows = await queryRows<{ capability_id: string }>(
    db,
    sql`with ignored as (
          update import_items set state = 'ignored', reason = 'ignored' where url = ${url} returning source_host, endpoint_id)
        update endpoints e set status = 'delisted', updated_at = now()
        from ignored i where e.id = i.endpoint_id and e.source = i.source_host and not e.domain_verified and e.status = 'listed'
        returning e.capability_id`,
  );
  for (const r of rows) invalidateCandidates(db, r.capability_id);
  return { delisted: rows.length };
}
