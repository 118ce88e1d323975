// What operators may do beyond the public API (`npm run cli -- submissions ...`): see submissions
// with their contacts, list one without DNS proof, or reject one (delisting its endpoint).
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { endpoints, submissions, type Submission } from "@/lib/db/schema";
import { listSubmission, type LastCheck } from "./listing";

export type OperatorResult = { ok: true; submission: Submission; endpointId: string | null } | { ok: false; message: string };

export async function listSubmissionsForOperator(db: Db, filter: { status?: string; limit?: number } = {}): Promise<Submission[]> {
  return db
    .select()
    .from(submissions)
    .where(filter.status ? eq(submissions.status, filter.status) : undefined)
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(filter.limit ?? 50);
}

/** Lists a pending submission as if its record had been found (e.g. a provider who cannot edit DNS). */
export async function approveSubmission(db: Db, id: string): Promise<OperatorResult> {
  const result = await listSubmission(db, id, { kind: "operator" });
  if (result.outcome === "listed") return { ok: true, submission: result.submission, endpointId: result.endpointId };
  if (result.outcome === "already_listed") {
    return { ok: false, message: `already listed (endpoint ${result.endpointId}); the submission is now rejected` };
  }
  return { ok: false, message: result.submission ? `the submission is ${result.submission.status}, not pending` : "no such submission" };
}

/** Rejects a pending or verified submission; a verified one's endpoint is delisted too. */
export async function rejectSubmission(db: Db, id: string, note: string): Promise<OperatorResult> {
  const result = await rejectInTransaction(db, id, note);
  if (result.ok && result.endpointId) invalidateCandidates(db, result.submission.capabilityId);
  return result;
}

function rejectInTransaction(db: Db, id: string, note: string): Promise<OperatorResult> {
  return db.transaction(async (tx) => {
    const [sub] = await tx.select().from(submissions).where(eq(submissions.id, id)).for("update");
    if (!sub) return { ok: false, message: "no such submission" };
    if (!["pending_verification", "verified"].includes(sub.status)) return { ok: false, message: `the submission is ${sub.status}` };
    const lastCheck: LastCheck = { found_records: [], reason: "rejected_by_operator", detail: note || "Rejected by an operator." };
    const [updated] = await tx
      .update(submissions)
      .set({ status: "rejected", lastCheck, claimedUntil: null, updatedAt: sql`now()` })
      .where(eq(submissions.id, id))
      .returning();
    if (sub.endpointId) {
      await tx
        .update(endpoints)
        .set({ status: "delisted", delistedBy: "operator", updatedAt: sql`now()` })
        .where(and(eq(endpoints.id, sub.endpointId), sql`(${endpoints.status} = 'listed' or ${endpoints.delistedBy} = 'provider')`));
    }
    return { ok: true, submission: updated, endpointId: sub.endpointId };
  });
}
