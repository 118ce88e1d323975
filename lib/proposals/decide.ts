// Operators decide proposals (CLI `proposals accept|merge|reject`, the portal's /operator/proposals).
// Accepting adds the capability (source operator; its category too when new) and bumps the registry
// version, so every instance lists it within a second; merging names an existing capability. Either
// way the proposal's listings follow at once: its unmapped import items are mapped under the
// capability (as an operator's mapping, kept by later runs) and the submissions waiting for it are
// listed with the domain proof they already made. Rejecting leaves the items unmapped and closes the
// waiting submissions as rejected.
import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { capabilities, capabilityProposals, categories, submissions, type CapabilityProposal, type Submission } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { mapImportedUrl } from "@/lib/imports/queue";
import { getRegistry, invalidateRegistry } from "@/lib/registry";
import { bumpRegistryVersion } from "@/lib/registry/version";
import { capabilityIdSchema } from "@/lib/schemas/common";
import { listSubmission, type LastCheck } from "@/lib/submissions/listing";
import type { WaitingCheck } from "@/lib/submissions/pending-capability";
import { getProposal } from "./index";

export type Decision = {
  proposal: CapabilityProposal;
  capabilityId: string;
  /** Import items now listed under it (or waiting for their source's next run). */
  items: { listed: number; pending: number };
  /** Waiting submissions now listed, and those still pending their DNS record (they list when it is found). */
  submissions: { listed: number; pending: number; failed: number };
};

type By = { by: string; note?: string | null };

function assertOpen(p: CapabilityProposal) {
  if (p.status !== "open") {
    throw new ApiError("proposal_not_open", `The proposal of ${p.capabilityId} is ${p.status}${p.decidedCapabilityId ? ` (${p.decidedCapabilityId})` : ""}.`, {
      extras: { proposal_id: p.id, proposal_status: p.status },
    });
  }
}

function titleOfCategory(id: string): string {
  const t = id.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** Accept as the proposed id, or `as` another (a rename); `title` replaces the proposed title. */
export async function acceptProposal(db: Db, ref: string, opts: By & { as?: string; title?: string }): Promise<Decision> {
  const proposal = await getProposal(db, ref);
  assertOpen(proposal);
  const id = opts.as ?? proposal.capabilityId;
  const parsed = capabilityIdSchema.safeParse(id);
  if (!parsed.success) {
    throw new ApiError("validation_failed", `"${id}" is not a capability id: ${parsed.error.issues[0]?.message}`, { errors: [{ pointer: "#/as", detail: parsed.error.issues[0]?.message ?? "" }] });
  }
  const title = (opts.title ?? proposal.title).trim();
  if (title.length < 3 || title.length > 100) throw new ApiError("validation_failed", "A title has 3 to 100 characters.", { errors: [{ pointer: "#/title", detail: "3 to 100 characters." }] });
  const categoryId = opts.as ? id.split(".")[0] : proposal.categoryId;
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(capabilityProposals).where(eq(capabilityProposals.id, proposal.id)).for("update");
    assertOpen(locked);
    const [existing] = await tx.select({ id: capabilities.id }).from(capabilities).where(eq(capabilities.id, id));
    if (existing) {
      throw new ApiError("capability_exists", `The capability "${id}" already exists: merge the proposal into it instead.`, { extras: { capability_id: id, suggestions: [id] } });
    }
    const [{ position }] = await queryRows<{ position: number }>(tx as unknown as Db, sql`select coalesce(max(position), 0)::int + 1 as position from categories`);
    await tx.insert(categories).values({ id: categoryId, title: titleOfCategory(categoryId), description: "", position: Number(position) }).onConflictDoNothing();
    await tx.insert(capabilities).values({
      id,
      categoryId,
      title,
      description: proposal.description,
      tags: proposal.words.slice(0, 8),
      examples: proposal.exampleIntents,
      source: "operator",
    });
    await tx
      .update(capabilityProposals)
      .set({ status: "accepted", decidedCapabilityId: id, decidedBy: opts.by, decidedAt: sql`now()`, decisionNote: opts.note ?? null, updatedAt: sql`now()` })
      .where(eq(capabilityProposals.id, proposal.id));
    await bumpRegistryVersion(tx as unknown as Db);
  });
  invalidateRegistry(db);
  return follow(db, proposal.id, id);
}

/** Merge into an existing capability: the proposal's listings go there. */
export async function mergeProposal(db: Db, ref: string, opts: By & { into: string }): Promise<Decision> {
  const proposal = await getProposal(db, ref);
  assertOpen(proposal);
  const registry = await getRegistry(db);
  if (!registry.byId.has(opts.into)) {
    throw new ApiError("capability_not_found", `There is no capability "${opts.into}" to merge into.`, { errors: [{ pointer: "#/into", detail: "Unknown capability." }] });
  }
  const [updated] = await db
    .update(capabilityProposals)
    .set({ status: "merged", decidedCapabilityId: opts.into, decidedBy: opts.by, decidedAt: sql`now()`, decisionNote: opts.note ?? null, updatedAt: sql`now()` })
    .where(and(eq(capabilityProposals.id, proposal.id), eq(capabilityProposals.status, "open")))
    .returning();
  if (!updated) assertOpen((await getProposal(db, proposal.id)));
  return follow(db, proposal.id, opts.into);
}

/** Reject: the items stay unmapped; submissions waiting for it are closed as rejected, with the note. */
export async function rejectProposal(db: Db, ref: string, opts: By): Promise<{ proposal: CapabilityProposal; submissionsRejected: number }> {
  const proposal = await getProposal(db, ref);
  assertOpen(proposal);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(capabilityProposals)
      .set({ status: "rejected", decidedBy: opts.by, decidedAt: sql`now()`, decisionNote: opts.note ?? null, updatedAt: sql`now()` })
      .where(and(eq(capabilityProposals.id, proposal.id), eq(capabilityProposals.status, "open")))
      .returning();
    if (!updated) assertOpen({ ...proposal, status: "decided" });
    const lastCheck: LastCheck = {
      found_records: [],
      reason: "capability_rejected",
      detail: `The proposed capability ${proposal.capabilityId} was not added${opts.note ? `: ${opts.note}` : ""}. Submit the endpoint again under an existing capability.`,
    };
    const closed = await tx
      .update(submissions)
      .set({ status: "rejected", lastCheck, claimedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(submissions.proposalId, proposal.id), inArray(submissions.status, ["pending_verification", "pending_capability"])))
      .returning({ id: submissions.id });
    return { proposal: updated, submissionsRejected: closed.length };
  });
}

/** The listings follow a decision: import items mapped, waiting submissions listed under `capabilityId`. */
async function follow(db: Db, proposalId: string, capabilityId: string): Promise<Decision> {
  const proposal = await getProposal(db, proposalId);
  const out: Decision = { proposal, capabilityId, items: { listed: 0, pending: 0 }, submissions: { listed: 0, pending: 0, failed: 0 } };
  const urls = [...new Set(proposal.items.map((i) => i.url))];
  const still = urls.length
    ? await queryRows<{ url: string }>(db, sql`select distinct url from import_items where state = 'unmapped' and url in (${sql.join(urls.map((u) => sql`${u}`), sql`, `)})`)
    : [];
  for (const { url } of still) {
    const r = await mapImportedUrl(db, url, capabilityId);
    out.items.listed += r.listed;
    out.items.pending += r.pending;
  }
  // Waiting submissions now name the capability; those already proven are listed with that proof.
  const waiting: Submission[] = await db
    .update(submissions)
    .set({ capabilityId, updatedAt: sql`now()` })
    .where(and(eq(submissions.proposalId, proposalId), inArray(submissions.status, ["pending_verification", "pending_capability"])))
    .returning();
  for (const sub of waiting) {
    if (sub.status !== "pending_capability") {
      out.submissions.pending += 1; // listed when its record is found, as any submission
      continue;
    }
    const proof = (sub.lastCheck as WaitingCheck | null)?.proof ?? { kind: "operator" as const };
    // Back to pending for the one listing path; a failure here leaves it pending, and the
    // background re-check lists it when the record is (still) there.
    await db.update(submissions).set({ status: "pending_verification", updatedAt: sql`now()` }).where(and(eq(submissions.id, sub.id), eq(submissions.status, "pending_capability")));
    const listing = await listSubmission(db, sub.id, proof);
    if (listing.outcome === "listed") out.submissions.listed += 1;
    else out.submissions.failed += 1;
  }
  return out;
}
