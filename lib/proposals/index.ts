// Capability proposals: the registry grows from the unmapped queue and from providers.
// Proposed by anyone signed in (POST /capabilities/proposals), by a provider's submission
// (`proposed_capability`), or grouped from the unmapped import queue (`suggestProposals`, CLI
// `proposals suggest`); decided by operators (./decide.ts: accept, merge, reject). docs/proposals.md.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { capabilityProposals, submissions, type CapabilityProposal } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { getRegistry } from "@/lib/registry";
import type { CreateProposalBody, ProposalOut } from "@/lib/schemas/proposals";
import { checkEndpointUrl } from "@/lib/submissions/url";
import { groupQueue, type QueueItem } from "./group";
import { assertNewCapability, insertProviderProposal, openProposalFor } from "./submission";

export { groupQueue, salientWords, type QueueItem, type ProposedGroup } from "./group";
export { proposalForSubmission } from "./submission";

/** POST /capabilities/proposals: 201 with the open proposal; 409 capability_exists or proposal_exists. */
export async function createProposal(db: Db, body: CreateProposalBody, userId: string): Promise<ProposalOut> {
  await assertNewCapability(db, body.id, "#/id");
  const endpointUrl = body.endpoint_url ? checkEndpointUrl(body.endpoint_url).url : null;
  const row = await insertProviderProposal(db, body, userId, endpointUrl);
  if (!row) {
    const open = await openProposalFor(db, body.id);
    throw new ApiError("proposal_exists", `"${body.id}" is already proposed and waits for an operator's decision.`, {
      errors: [{ pointer: "#/id", detail: "Already proposed." }],
      extras: { proposal_id: open?.id ?? null },
    });
  }
  return (await toProposalsOut(db, [row]))[0];
}

/** Proposals of one state (default open), newest first, with the listings that would join them. */
export async function listProposals(db: Db, opts: { status?: string; limit?: number } = {}): Promise<{ proposals: ProposalOut[]; total: number }> {
  const status = opts.status ?? "open";
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(capabilityProposals)
      .where(eq(capabilityProposals.status, status))
      .orderBy(desc(capabilityProposals.createdAt), desc(capabilityProposals.id))
      .limit(Math.min(opts.limit ?? 100, 500)),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from capability_proposals where status = ${status}`),
  ]);
  return { proposals: await toProposalsOut(db, rows), total: Number(count.n) };
}

export async function getProposal(db: Db, id: string): Promise<CapabilityProposal> {
  const [row] = /^[0-9a-f-]{36}$/i.test(id) ? await db.select().from(capabilityProposals).where(eq(capabilityProposals.id, id)) : [];
  if (row) return row;
  // an open proposal may also be named by its proposed capability id
  const open = await openProposalFor(db, id);
  if (open) return open;
  throw new ApiError("proposal_not_found", `There is no proposal ${id}.`);
}

type Listing = ProposalOut["listings"][number];

/** The listings that would join each proposal: unmapped import items, proven submissions, the proposer's URL. */
export async function listingsOf(db: Db, proposals: CapabilityProposal[]): Promise<Map<string, Listing[]>> {
  const out = new Map<string, Listing[]>(proposals.map((p) => [p.id, []]));
  if (!proposals.length) return out;
  const ids = proposals.map((p) => p.id);
  const [items, subs] = await Promise.all([
    queryRows<{ proposal_id: string; url: string; source_host: string; description: string | null }>(
      db,
      sql`select p.id::text as proposal_id, i.url, i.source_host, i.facts->>'description' as description
          from capability_proposals p
          cross join lateral jsonb_to_recordset(p.items) as x(url text, source_host text)
          join import_items i on i.url = x.url and i.source_host = x.source_host and i.state = 'unmapped'
          where p.id in (${sql.join(ids.map((i) => sql`${i}::uuid`), sql`, `)})
          order by i.url`,
    ),
    db
      .select({ proposalId: submissions.proposalId, url: submissions.endpointUrl, host: submissions.host, description: submissions.description })
      .from(submissions)
      .where(and(inArray(submissions.proposalId, ids), eq(submissions.status, "pending_capability")))
      .orderBy(submissions.endpointUrl),
  ]);
  for (const i of items) out.get(i.proposal_id)?.push({ url: i.url, host: new URL(i.url).host, description: i.description ?? "", source: "unmapped_queue" });
  for (const s of subs) out.get(s.proposalId!)?.push({ url: s.url, host: s.host, description: s.description, source: "submission" });
  for (const p of proposals) {
    const list = out.get(p.id)!;
    if (p.endpointUrl && !list.some((l) => l.url === p.endpointUrl)) {
      list.push({ url: p.endpointUrl, host: new URL(p.endpointUrl).host, description: p.description, source: "provider" });
    }
  }
  return out;
}

async function toProposalsOut(db: Db, rows: CapabilityProposal[]): Promise<ProposalOut[]> {
  const listings = await listingsOf(db, rows);
  return rows.map((p) => ({
    proposal_id: p.id,
    id: p.capabilityId,
    title: p.title,
    description: p.description,
    category: p.categoryId,
    example_intents: p.exampleIntents,
    source: p.source as ProposalOut["source"],
    status: p.status as ProposalOut["status"],
    listings: listings.get(p.id) ?? [],
    decision: p.status === "open" ? null : { capability_id: p.decidedCapabilityId, decided_at: p.decidedAt?.toISOString() ?? null, note: p.decisionNote },
    created_at: p.createdAt.toISOString(),
  }));
}

export type SuggestResult = { created: number; updated: number; removed: number; groups: Array<{ id: string; listings: number; hosts: number }> };

/**
 * Groups the unmapped queue into open proposals (source unmapped_queue). Idempotent: a group keeps
 * its proposal (same id) and is updated; an open machine-made proposal whose group is gone is removed;
 * a rejected id is not proposed again.
 */
export async function suggestProposals(db: Db): Promise<SuggestResult> {
  const registry = await getRegistry(db);
  const rows = await queryRows<{ source_host: string; url: string; facts: Record<string, unknown> | null; candidates: QueueItem["candidates"] | null }>(
    db,
    sql`select source_host, url, facts, candidates from import_items where state = 'unmapped' order by url, source_host`,
  );
  const items: QueueItem[] = rows.map((r) => {
    const f = (r.facts ?? {}) as { description?: string; serviceName?: string | null; service_name?: string | null; tags?: string[]; host?: string; parts?: { path?: string } };
    const description = f.description ?? "";
    return {
      url: r.url,
      sourceHost: r.source_host,
      host: f.host ?? new URL(r.url).host,
      description,
      text: [description, f.serviceName ?? f.service_name ?? "", ...(f.tags ?? []), f.parts?.path ?? ""].join(" "),
      candidates: r.candidates ?? [],
    };
  });
  const rejected = new Set(
    (await queryRows<{ capability_id: string }>(db, sql`select distinct capability_id from capability_proposals where status = 'rejected'`)).map((r) => r.capability_id),
  );
  const groups = groupQueue(items, registry.byId.keys()).filter((g) => !rejected.has(g.capabilityId));
  const result: SuggestResult = { created: 0, updated: 0, removed: 0, groups: [] };
  await db.transaction(async (tx) => {
    for (const g of groups) {
      const values = {
        capabilityId: g.capabilityId,
        title: g.title,
        description: g.description,
        categoryId: g.categoryId,
        exampleIntents: g.exampleIntents,
        words: g.words,
        source: "unmapped_queue",
        items: g.items.map((i) => ({ url: i.url, source_host: i.sourceHost })),
      };
      const [row] = await tx
        .insert(capabilityProposals)
        .values(values)
        .onConflictDoUpdate({
          target: capabilityProposals.capabilityId,
          targetWhere: sql`status = 'open'`,
          // A provider's texts stay; the queue's listings join them.
          set: {
            items: sql`excluded.items`,
            title: sql`case when ${capabilityProposals.source} = 'unmapped_queue' then excluded.title else ${capabilityProposals.title} end`,
            description: sql`case when ${capabilityProposals.source} = 'unmapped_queue' then excluded.description else ${capabilityProposals.description} end`,
            exampleIntents: sql`case when ${capabilityProposals.source} = 'unmapped_queue' then excluded.example_intents else ${capabilityProposals.exampleIntents} end`,
            words: sql`case when ${capabilityProposals.source} = 'unmapped_queue' then excluded.words else ${capabilityProposals.words} end`,
            updatedAt: sql`now()`,
          },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      if (row?.inserted) result.created += 1;
      else result.updated += 1;
      result.groups.push({ id: g.capabilityId, listings: g.items.length, hosts: new Set(g.items.map((i) => i.host)).size });
    }
    const ids = groups.map((g) => g.capabilityId);
    const keep = ids.length ? sql`and not (capability_id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}))` : sql``;
    const removed = await queryRows<{ id: string }>(
      tx as unknown as Db,
      sql`delete from capability_proposals where source = 'unmapped_queue' and status = 'open' ${keep} returning id`,
    );
    result.removed = removed.length;
    await queryRows(tx as unknown as Db, sql`update capability_proposals set items = '[]'::jsonb, updated_at = now() where source = 'provider' and status = 'open' and items <> '[]'::jsonb ${keep} returning id`);
  });
  return result;
}
