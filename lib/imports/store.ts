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

export type HeldReason = "held_by_submission" | "held_by_other_source" | "claimed_listing" | "ignored";
export type PageResult = { new: number; updated: number; unchanged: number; unmapped: number; held: Partial<Record<HeldReason, number>>; capabilities: Set<string> };

type ItemRow = { url: string; state: string; capability_id: string | null; mapped_by: string | null; endpoint_id: string | null };
type Holder = { id: string; url: string; capability_id: string; source: string; domain_verified: boolean };

const textArray = (xs: string[]) => sql`${`{${xs.map((x) => `"${x.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`}::text[]`;

export async function storePage(db: Db, ctx: { sourceHost: string; runId: string }, items: ParsedItem[], map: (text: string) => Mapping): Promise<PageResult> {
  const out: PageResult = { new: 0, updated: 0, unchanged: 0, unmapped: 0, held: {}, capabilities: new Set() };
  if (!items.length) return out;
  const urls = items.map((i) => i.url);
  const [known, holders] = await Promise.all([
    queryRows<ItemRow>(db, sql`select url, state, capability_id, mapped_by, endpoint_id::text as endpoint_id from import_items where source_host = ${ctx.sourceHost} and url = any(${textArray(urls)})`),
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
    const mapping: Mapping = operator ? { capabilityId: prev.capability_id, confidence: 1, candidates: [] } : map(item.mappingText);
    const held = (reason: HeldReason): Decision => {
      out.held[reason] = (out.held[reason] ?? 0) + 1;
      return { item, state: reason === "ignored" ? "ignored" : "held", reason, mapping, mappedBy: operator ? "operator" : "resolver", own: null };
    };
    if (prev?.state === "ignored") decisions.push(held("ignored"));
    else if (hs.some((h) => h.source === "submission")) decisions.push(held("held_by_submission"));
    else if (hs.some((h) => h.source !== ctx.sourceHost)) decisions.push(held("held_by_other_source"));
    else if (hs.some((h) => h.domain_verified)) decisions.push(held("claimed_listing"));
    else if (!mapping.capabilityId) {
      out.unmapped += 1;
      decisions.push({ item, state: "unmapped", reason: "unmapped_capability", mapping, mappedBy: null, own: null });
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
  await upsertItems(db, ctx, decisions.map((d) => ({
    url: d.item.url,
    state: d.state,
    reason: d.reason,
    capability_id: d.mapping.capabilityId,
    mapped_by: d.mappedBy,
    confidence: d.mapping.confidence,
    candidates: d.mapping.candidates,
    // Unmapped items keep everything, so an operator's mapping can list them at once (lib/imports/queue.ts).
    facts: d.state === "unmapped" ? { ...d.item, full: true } : { description: d.item.description, service_name: d.item.serviceName, tags: d.item.tags, method: d.item.method, price_per_call: d.item.pricePerCall, network: d.item.network, type: d.item.type },
    endpoint_id: endpointIds.get(d.item.url) ?? null,
  })));
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
