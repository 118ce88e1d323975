// Proposals made by submissions (POST /submit `proposed_capability`) and the checks shared with
// POST /capabilities/proposals. lib/submissions imports only this file of lib/proposals.
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { capabilityProposals, type CapabilityProposal } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { getRegistry, suggestCapabilityIds } from "@/lib/registry";
import type { ProposedCapabilityBody } from "@/lib/schemas/proposals";
import { capabilityIdWords, salientWords } from "./group";

/** 409 capability_exists when the id is already in the registry. */
export async function assertNewCapability(db: Db, id: string, pointer: string) {
  const registry = await getRegistry(db);
  if (!registry.byId.has(id)) return;
  throw new ApiError("capability_exists", `The capability "${id}" already exists: use it (capability_id) instead of proposing it.`, {
    errors: [{ pointer, detail: "This capability exists." }],
    extras: { capability_id: id, suggestions: [id, ...suggestCapabilityIds(registry.capabilities.filter((c) => c.id !== id), id, 2)] },
  });
}

export function wordsOfProposal(p: { title: string; description: string; example_intents?: string[] }, existing: Iterable<string>): string[] {
  return salientWords([p.title, p.description, ...(p.example_intents ?? [])].join(" "), capabilityIdWords(existing)).slice(0, 8);
}

/** 409 capability_exists before anything is stored (POST /submit with proposed_capability). */
export function assertProposable(db: Db, proposed: ProposedCapabilityBody): Promise<void> {
  return assertNewCapability(db, proposed.id, "#/proposed_capability/id");
}

export async function openProposalFor(db: Db, capabilityId: string): Promise<CapabilityProposal | null> {
  const [row] = await db
    .select()
    .from(capabilityProposals)
    .where(and(eq(capabilityProposals.capabilityId, capabilityId), eq(capabilityProposals.status, "open")))
    .limit(1);
  return row ?? null;
}

/**
 * The open proposal a submission with `proposed_capability` waits for: the open one of that id
 * (the submission joins it), or a new one (source provider). 409 capability_exists when the id exists.
 */
export async function proposalForSubmission(db: Db, proposed: ProposedCapabilityBody, userId: string | null, endpointUrl: string): Promise<CapabilityProposal> {
  await assertNewCapability(db, proposed.id, "#/proposed_capability/id");
  const existing = await openProposalFor(db, proposed.id);
  if (existing) return existing;
  return (await insertProviderProposal(db, proposed, userId, endpointUrl)) ?? (await openProposalFor(db, proposed.id))!;
}

/** Stores a proposal someone made (source provider); null when an open one of that id exists already. */
export async function insertProviderProposal(
  db: Db,
  proposed: ProposedCapabilityBody,
  userId: string | null,
  endpointUrl: string | null,
): Promise<CapabilityProposal | null> {
  const registry = await getRegistry(db);
  const [row] = await db
    .insert(capabilityProposals)
    .values({
      capabilityId: proposed.id,
      title: proposed.title,
      description: proposed.description,
      categoryId: proposed.category,
      exampleIntents: proposed.example_intents ?? [],
      words: wordsOfProposal(proposed, registry.byId.keys()),
      source: "provider",
      proposedBy: userId,
      endpointUrl,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

