// Submissions that propose a capability (POST /submit `proposed_capability`): their domain is proven
// as usual, but there is nothing to list them under until an operator accepts (or merges) the
// proposal. Such a submission then waits as `pending_capability`, its proof kept in last_check;
// lib/proposals/decide.ts lists it with that proof once the capability exists, or rejects it.
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { capabilities, submissions, type Submission } from "@/lib/db/schema";
import type { LastCheck, ListingProof } from "./listing";

export type WaitingCheck = LastCheck & { proof: ListingProof };

/** True when the submission waits for a proposed capability that is not in the registry (yet). */
export async function waitsForCapability(db: Db, sub: Submission): Promise<boolean> {
  if (!sub.proposalId) return false;
  const [cap] = await db.select({ id: capabilities.id }).from(capabilities).where(eq(capabilities.id, sub.capabilityId)).limit(1);
  return !cap;
}

/** Records the proof and parks the submission (inside the listing transaction, its row locked). */
export async function holdForCapability(db: Db, sub: Submission, proof: ListingProof): Promise<Submission> {
  const lastCheck: WaitingCheck = {
    found_records: proof.kind === "dns" ? proof.foundRecords : [],
    reason: "pending_capability",
    detail: `The domain is proven; the endpoint is listed once an operator accepts the proposed capability ${sub.capabilityId}.`,
    record_name: proof.kind === "dns" ? proof.recordName : null,
    proof,
  };
  const [updated] = await db
    .update(submissions)
    .set({ status: "pending_capability", lastCheck, checkedAt: sql`now()`, claimedUntil: null, updatedAt: sql`now()` })
    .where(eq(submissions.id, sub.id))
    .returning();
  return updated;
}
