// Storing one page of a source's items, in a handful of statements whatever the page size: the
// items' states (mapped, unmapped, ignored, held), their providers (one per registrable domain,
// merged with one already there) and their endpoints: new ones inserted, the source's own ones
// updated where something changed. A URL listed by a submission, a claim or another source first
// is never touched (the item is held, with the reason).
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import type { ParsedItem } from "./item";
import type { Mapping } from "./map";
import { GROUP_MIN, GROUP_REASONS, groupKeysOf, groupVerdict, noiseOfItem, type NoiseReason } from "./noise";

export type HeldReason = "held_by_submission" | "held_by_other_source" | "claimed_listing" | "ignored";
export type PageResult = {
  new: number;
  updated: number;
  unchanged: number;
  unmapped: number;
  held: Partial<Record<HeldReason, number>>;
  /** Noise held back, by reason (lib/imports/noise.ts). */
  heldBack: Partial<Record<NoiseReason, number>>;
  /** The source's own endpoints delisted because their item is now noise or unmapped. */
  delisted: number;
  capabilities: Set<string>;
};
export type NoiseJudge = (item: ParsedItem, previous?: { state: string; reason: string | null }) => NoiseReason | null;

type ItemRow = { url: string; state: string; reason: string | null; capability_id: string | null; mapped_by: string | null; endpoint_id: string | null };
type Holder = { id: string; url: string; capability_id: string; source: string; domain_verified: boolean };

const textArray = (xs: string[]) => sql`${`{${xs.map((x) => `"${x.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`}::text[]`;

/**
 * `judge`: the run's noise judge (none: no noise check, as for an operator's mapping). Noise and
 * items that no longer map are held back / unmapped, and the source's own endpoint of such an item
 * (unclaimed) is delisted.
 */
export async function storePage(db: Db, ctx: { sourceHost: string; runId: string }, items: ParsedItem[], map: (item: ParsedItem) => Mapping, judge?: NoiseJudge): Promise<PageResult> {
  const out: PageResult = { new: 0, updated: 0, unchanged: 0, unmapped: 0, held: {}, heldBack: {}, delisted: 0, capabilities: new Set() };
  if (!items.length) return out;
  const urls = items.map((i) => i.url);
  const [known, holders] = await Promise.all([
    queryRows<ItemRow>(db, sql`select url, state, reason, capability_id, mapped_by, endpoint_id::text as endpoint_id from import_items where source_host = ${ctx.sourceHost} and url = any(${textArray(urls)})`),
    queryRows<Holder>(db, sql`select id::text as id, url, capability_id, source, domain_verified from endpoints where url = any(${textArray(urls)})`),
  ]);
  const knownBy = new Map(known.map((k) => [k.url, k]));
  const holdersBy = new Map<string, Holder[]>();
  for (const h of holders) holdersBy.set(h.url, [...(holdersBy.get(h.url) ?? []), h]);

  type Decision = { item: ParsedItem; state: string; reason: string | null; mapping: Mapping; mappedBy: string | null; own: Holder | null };
  const decisions: Decision[] = [];
  for (const item of items) {
    const prev = knownBy.get(item.url);
    const hs = holdersBy.get(item.url) ?? [];
    const operator = prev?.mapped_by === "operator" && prev.capability_id;
    const noise = operator || !judge ? null : judge(item, prev ? { state: prev.state, reason: prev.reason } : undefined);
    const mapping: Mapping = operator
      ? { capabilityId: prev.capability_id, confidence: 1, candidates: [] }
      : noise
        ? { capabilityId: null, confidence: null, candidates: [] }
        : map(item);
    const held = (reason: HeldReason): Decision => {
      out.held[reason] = (out.held[reason] ?? 0) + 1;
      return { item, state: reason === "ignored" ? "ignored" : "held", reason, mapping, mappedBy: operator ? "operator" : "resolver", own: null };
    };
    if (prev?.state === "ignored") decisions.push(held("ignored"));
    else if (hs.some((h) => h.source === "submission")) decisions.push(held("held_by_submission"));
    else if (hs.some((h) => h.source !== ctx.sourceHost)) decisions.push(held("held_by_other_source"));
    else if (hs.some((h) => h.domain_verified)) decisions.push(held("claimed_listing"));
    else if (noise) {
      out.heldBack[noise] = (out.heldBack[noise] ?? 0) + 1;
      decisions.push({ item, state: "held_back", reason: noise, mapping, mappedBy: null, own: hs[0] ?? null });
    } else if (!mapping.capabilityId) {
      out.unmapped += 1;
      decisions.push({ item, state: "unmapped", reason: "unmapped_capability", mapping, mappedBy: null, own: hs[0] ?? null });
    } else decisions.push({ item, state: "mapped", reason: null, mapping, mappedBy: operator ? "operator" : "resolver", own: hs[0] ?? null });
  }

  const mapped = decisions.filter((d) => d.state === "mapped");
  const providerOf = mapped.length ? await providersFor(db, mapped.map((d) => d.item)) : new Map<string, string>();
  const fresh = mapped.filter((d) => !d.own);
  const endpointIds = new Map<string, string>();
  if (fresh.length) {
    const rows = await db
      .insert(endpoints)
      .values(fresh.map((d) => ({ ...endpointFields(d.item, ctx.sourceHost), capabilityId: d.mapping.capabilityId!, providerId: providerOf.get(d.item.domain)!, url: d.item.url })))
      .onConflictDoNothing()
      .returning({ id: endpoints.id, url: endpoints.url, capabilityId: endpoints.capabilityId });
    for (const r of rows) {
      endpointIds.set(r.url, r.id);
      out.capabilities.add(r.capabilityId);
    }
    out.new += rows.length;
  }
  const owned = mapped.filter((d) => d.own);
  if (owned.length) {
    const changed = await updateOwn(db, ctx.sourceHost, owned.map((d) => ({ id: d.own!.id, capability_id: d.mapping.capabilityId!, ...fieldsJson(d.item) })));
    for (const c of changed) out.capabilities.add(c.capability_id);
    for (const d of owned) {
      endpointIds.set(d.item.url, d.own!.id);
      if (d.own!.capability_id !== d.mapping.capabilityId) out.capabilities.add(d.own!.capability_id);
    }
    out.updated += changed.length;
    out.unchanged += owned.length - changed.length;
  }
  // Noise, or no longer mapped: the source's own endpoint leaves discover (kept, like a dropped one).
  const unlisted = decisions.filter((d) => (d.state === "held_back" || d.state === "unmapped") && d.own).map((d) => d.own!.id);
  if (unlisted.length) {
    const rows = await delistOwn(db, ctx.sourceHost, unlisted);
    out.delisted += rows.length;
    for (const r of rows) out.capabilities.add(r.capability_id);
  }
  await upsertItems(db, ctx, decisions.map((d) => ({
    url: d.item.url,
    state: d.state,
    reason: d.reason,
    capability_id: d.mapping.capabilityId,
    mapped_by: d.mappedBy,
    confidence: d.mapping.confidence,
    candidates: d.mapping.candidates,
    // Unmapped and held-back items keep everything, so an operator's mapping (or the end of a run
    // that releases a group) can list them at once (lib/imports/queue.ts, settleGroups).
    facts: {
      ...(d.state === "unmapped" || d.state === "held_back"
        ? { ...d.item, full: true }
        : { description: d.item.description, service_name: d.item.serviceName, tags: d.item.tags, method: d.item.method, price_per_call: d.item.pricePerCall, network: d.item.network, type: d.item.type }),
      noise_keys: groupKeysOf(d.item),
    },
    endpoint_id: endpointIds.get(d.item.url) ?? d.own?.id ?? null,
  })));
  return out;
}

async function delistOwn(db: Db, sourceHost: string, ids: string[]) {
  return queryRows<{ capability_id: string }>(
    db,
    sql`update endpoints set status = 'delisted', updated_at = now()
        where id = any(${`{${ids.join(",")}}`}::uuid[]) and source = ${sourceHost} and not domain_verified and status = 'listed'
        returning capability_id`,
  );
}

/**
 * The end of a completed run: the host groups of its items (same description; same description and
 * declared input) are counted over the whole catalogue, and each big group's verdict applied
 * (groupVerdict): boilerplate holds every member back, duplicates all but one representative (the
 * smallest URL). Members listed before their group was known are held back and delisted; members
 * held back for a group that is no longer one (or the representative) are stored again as any item.
 */
export async function settleGroups(db: Db, ctx: { sourceHost: string; runId: string }, map: (item: ParsedItem) => Mapping): Promise<PageResult> {
  const groups = await queryRows<{ r: string; d: string; short: boolean; n: number; rep: string; total: number; kinds: number }>(
    db,
    sql`with g as (
          select facts->'noise_keys'->>'repeat' as r, facts->'noise_keys'->>'duplicate' as d,
                 bool_or((facts->'noise_keys'->>'short')::boolean) as short, count(*)::int as n, min(url) as rep
          from import_items
          where source_host = ${ctx.sourceHost} and last_run_id = ${ctx.runId}::uuid and facts->'noise_keys'->>'repeat' is not null
          group by 1, 2),
        t as (select r, sum(n)::int as total, count(*)::int as kinds from g group by r)
        select g.r, g.d, g.short, g.n, g.rep, t.total, t.kinds from g join t using (r)
        where t.total >= ${GROUP_MIN} or g.n >= ${GROUP_MIN}`,
  );
  // Each duplicate key's verdict, and the representative kept of duplicates.
  const verdict = new Map<string, { reason: NoiseReason; keep: string | null }>();
  for (const g of groups) {
    const v = groupVerdict({ short: g.short, repeatCount: Number(g.total), repeatKinds: Number(g.kinds), duplicateCount: Number(g.n) });
    if (v) verdict.set(g.d, { reason: v, keep: v === "duplicate_listing" ? g.rep : null });
  }
  const out: PageResult = { new: 0, updated: 0, unchanged: 0, unmapped: 0, held: {}, heldBack: {}, delisted: 0, capabilities: new Set() };
  const bigKeys = [...verdict.keys()];
  const candidates = await queryRows<{ url: string; state: string; reason: string | null; d: string | null; endpoint_id: string | null; facts: (Record<string, unknown> & { full?: boolean }) | null }>(
    db,
    sql`select url, state, reason, facts->'noise_keys'->>'duplicate' as d, endpoint_id::text as endpoint_id,
               case when state = 'held_back' then facts end as facts
        from import_items
        where source_host = ${ctx.sourceHost} and last_run_id = ${ctx.runId}::uuid and mapped_by is distinct from 'operator'
          and ((state in ('mapped', 'unmapped') and facts->'noise_keys'->>'duplicate' = any(${textArray(bigKeys)}))
               or (state = 'held_back' and reason = any(${textArray([...GROUP_REASONS])})))`,
  );
  const hold: Array<{ url: string; reason: NoiseReason; endpoint_id: string | null }> = [];
  const release: ParsedItem[] = [];
  for (const c of candidates) {
    let item: ParsedItem | null = null;
    if (c.state === "held_back") {
      if (!c.facts?.full) continue;
      const { full: _full, noise_keys: _keys, ...rest } = c.facts;
      item = rest as unknown as ParsedItem;
      if (noiseOfItem(item)) continue; // noise by itself, whatever its group
    }
    const v = c.d ? verdict.get(c.d) : undefined;
    const target = v && v.keep !== c.url ? v.reason : null;
    if (target && (c.state !== "held_back" || c.reason !== target)) hold.push({ url: c.url, reason: target, endpoint_id: c.state === "held_back" ? null : c.endpoint_id });
    else if (!target && item) release.push(item);
  }
  if (hold.length) {
    await queryRows(
      db,
      sql`update import_items i set state = 'held_back', reason = x.reason
          from jsonb_to_recordset(${JSON.stringify(hold)}::jsonb) as x(url text, reason text)
          where i.source_host = ${ctx.sourceHost} and i.url = x.url`,
    );
    for (const h of hold) out.heldBack[h.reason] = (out.heldBack[h.reason] ?? 0) + 1;
    const ids = hold.flatMap((h) => (h.endpoint_id ? [h.endpoint_id] : []));
    if (ids.length) {
      const rows = await delistOwn(db, ctx.sourceHost, ids);
      out.delisted += rows.length;
      for (const r of rows) out.capabilities.add(r.capability_id);
    }
  }
  // Released: their own noise still counts, their group no longer does.
  for (let i = 0; i < release.length; i += 500) {
    const r = await storePage(db, ctx, release.slice(i, i + 500), map, noiseOfItem);
    out.new += r.new;
    out.updated += r.updated;
    out.unchanged += r.unchanged;
    out.unmapped += r.unmapped;
    for (const [k, n] of Object.entries(r.heldBack) as Array<[NoiseReason, number]>) out.heldBack[k] = (out.heldBack[k] ?? 0) + n;
    out.delisted += r.delisted;
    for (const c of r.capabilities) out.capabilities.add(c);
  }
  return out;
}

function endpointFields(item: ParsedItem, sourceHost: string) {
  return {
    method: item.method,
    host: item.host,
    domain: item.domain,
    description: item.description,
    paymentType: "x402",
    pricePerCall: item.pricePerCall,
    network: item.network,
    acceptedAssets: item.acceptedAssets,
    source: sourceHost,
    call: item.call ? { source: "declared" as const, ...item.call, updated_at: new Date().toISOString() } : null,
    declaration: item.declaration,
    paymentSeen: item.paymentSeen,
    paymentSeenAt: new Date(),
    status: "listed",
    // Unclaimed until the provider proves the domain; probed before it is ranked.
    domainVerified: false,
    checkState: "unverified",
    nextCheckAt: new Date(),
  };
}

function fieldsJson(item: ParsedItem) {
  return {
    method: item.method,
    description: item.description,
    price_per_call: item.pricePerCall,
    network: item.network,
    accepted_assets: item.acceptedAssets,
    payment_seen: item.paymentSeen,
    declaration: item.declaration,
    call: item.call ? { source: "declared", ...item.call, updated_at: new Date().toISOString() } : null,
  };
}

/** Updates the source's own endpoints where a shown value changed (and relists them); returns those. */
async function updateOwn(db: Db, sourceHost: string, rows: Array<Record<string, unknown>>) {
  return queryRows<{ id: string; capability_id: string }>(
    db,
    sql`with v as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid, capability_id text, method text, description text,
            price_per_call float8, network text, accepted_assets text[], payment_seen jsonb, declaration jsonb, call jsonb))
        update endpoints e set
          capability_id = v.capability_id, method = v.method, description = v.description, price_per_call = v.price_per_call,
          network = v.network, accepted_assets = v.accepted_assets, payment_seen = v.payment_seen, payment_seen_at = now(),
          declaration = coalesce(v.declaration, e.declaration),
          call = case when v.call is null or (e.declaration is not distinct from v.declaration and e.call is not null) then e.call else v.call end,
          status = 'listed', updated_at = now()
        from v
        where e.id = v.id and e.source = ${sourceHost} and not e.domain_verified
          and (e.capability_id, e.method, e.description, e.price_per_call, e.network, e.accepted_assets, e.payment_seen, e.status)
              is distinct from (v.capability_id, v.method, v.description, v.price_per_call, v.network, v.accepted_assets, v.payment_seen, 'listed')
          and not exists (select 1 from endpoints o where o.url = e.url and o.capability_id = v.capability_id and o.id <> e.id)
        returning e.id::text as id, e.capability_id`,
  );
}

async function upsertItems(db: Db, ctx: { sourceHost: string; runId: string }, rows: Array<Record<string, unknown>>) {
  await queryRows(
    db,
    sql`insert into import_items (source_host, url, state, reason, capability_id, mapped_by, confidence, candidates, facts, endpoint_id, last_seen_at, last_run_id, missed_runs)
        select ${ctx.sourceHost}, x.url, x.state, x.reason, x.capability_id, x.mapped_by, x.confidence, x.candidates, x.facts, x.endpoint_id, now(), ${ctx.runId}::uuid, 0
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(url text, state text, reason text, capability_id text, mapped_by text,
             confidence float8, candidates jsonb, facts jsonb, endpoint_id uuid)
        on conflict (source_host, url) do update set
          state = excluded.state, reason = excluded.reason, capability_id = excluded.capability_id, mapped_by = excluded.mapped_by,
          confidence = excluded.confidence, candidates = excluded.candidates, facts = excluded.facts,
          endpoint_id = coalesce(excluded.endpoint_id, import_items.endpoint_id),
          last_seen_at = now(), last_run_id = excluded.last_run_id, missed_runs = 0`,
  );
}

/**
 * The provider of each registrable domain: the one an import made for it, else the provider of an
 * endpoint already listed there (a submission), else a new one named after the service or domain.
 */
async function providersFor(db: Db, items: ParsedItem[]): Promise<Map<string, string>> {
  const domains = [...new Set(items.map((i) => i.domain))];
  const found = await queryRows<{ domain: string; id: string }>(
    db,
    sql`select distinct on (domain) domain, id from (
          select domain, id::text as id, 0 as pref from providers where domain = any(${textArray(domains)})
          union all
          select e.domain, e.provider_id::text, 1 from endpoints e join providers p on p.id = e.provider_id
          where e.domain = any(${textArray(domains)}) and not p.is_demo
        ) x order by domain, pref, id`,
  );
  const out = new Map(found.map((r) => [r.domain, r.id]));
  const missing = domains.filter((d) => !out.has(d));
  if (missing.length) {
    const nameOf = new Map<string, string>();
    for (const i of items) if (!nameOf.has(i.domain) || (i.serviceName && nameOf.get(i.domain) === i.domain)) nameOf.set(i.domain, i.serviceName ?? i.domain);
    const created = await db
      .insert(providers)
      .values(missing.map((d) => ({ name: nameOf.get(d) ?? d, domain: d })))
      .returning({ id: providers.id, domain: providers.domain });
    for (const c of created) out.set(c.domain!, c.id);
  }
  return out;
}
