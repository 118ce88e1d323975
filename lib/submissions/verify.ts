// Checking a pending submission's DNS record: now (POST /submit/{id}/verify) or from the background
// job. The lookup runs outside any transaction; listing takes the submission's row lock.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { submissions, type Submission } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { checkChallenge, challengeNames, describeFailure, recordValueFor, type ChallengeCheck } from "./challenge";
import { listSubmission, type LastCheck, type ListingResult } from "./listing";

export type Attempt =
  | { outcome: "listed"; listing: Extract<ListingResult, { outcome: "listed" }> }
  | { outcome: "already_listed"; submission: Submission; endpointId: string | null }
  | { outcome: "failed"; check: ChallengeCheck; submission: Submission }
  | { outcome: "expired"; submission: Submission }
  | { outcome: "not_pending"; submission: Submission };

/** Marks a pending submission past its expiry as expired; true when it was (or already is) expired. */
export async function expireIfDue(db: Db, id: string): Promise<Submission | null> {
  const [row] = await db
    .update(submissions)
    .set({ status: "expired", claimedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(submissions.id, id), eq(submissions.status, "pending_verification"), sql`${submissions.expiresAt} <= now()`))
    .returning();
  return row ?? null;
}

/**
 * One verification attempt: look the record up, and list the submission when it is there, or
 * record what was found. `schedule` (background) also sets when to look again.
 */
export async function attemptVerification(db: Db, sub: Submission, schedule?: { nextCheckInMs: number }): Promise<Attempt> {
  if (sub.status !== "pending_verification") return { outcome: "not_pending", submission: sub };
  const expired = await expireIfDue(db, sub.id);
  if (expired) return { outcome: "expired", submission: expired };

  const check = await checkChallenge(sub.host, sub.domain, [sub.token]);
  if (!check.verified && check.otherTokens.length && (await isAnotherSubmissionsToken(db, sub.id, check.otherTokens))) {
    check.reason = "token_of_another_submission";
    check.detail = describeFailure(check.reason, challengeNames(sub.host, sub.domain));
  }
  if (check.verified) {
    const listing = await listSubmission(db, sub.id, {
      kind: "dns",
      recordName: check.recordName!,
      coveredName: check.coveredName!,
      foundRecords: check.foundRecords,
    });
    if (listing.outcome === "listed") return { outcome: "listed", listing };
    if (listing.outcome === "already_listed") return listing;
    return { outcome: "not_pending", submission: listing.submission ?? sub };
  }

  const lastCheck: LastCheck = { found_records: check.foundRecords, reason: check.reason, detail: check.detail };
  const [updated] = await db
    .update(submissions)
    .set({
      lastCheck,
      checkedAt: sql`now()`,
      updatedAt: sql`now()`,
      ...(schedule
        ? { nextCheckAt: sql`now() + ${schedule.nextCheckInMs} * interval '1 millisecond'`, claimedUntil: null }
        : {}),
    })
    .where(and(eq(submissions.id, sub.id), eq(submissions.status, "pending_verification")))
    .returning();
  return { outcome: "failed", check, submission: updated ?? sub };
}

async function isAnotherSubmissionsToken(db: Db, id: string, tokens: string[]): Promise<boolean> {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(inArray(submissions.token, tokens), ne(submissions.id, id)))
    .limit(1);
  return rows.length > 0;
}

/** The problem for an attempt that did not list the submission. */
export function attemptError(attempt: Exclude<Attempt, { outcome: "listed" | "not_pending" }>): ApiError {
  const sub = attempt.submission;
  const [atHost, atDomain] = challengeNames(sub.host, sub.domain);
  const common = {
    submission_id: sub.id,
    submission_status: sub.status,
    record_name: atHost.recordName,
    alternative_record_name: atDomain?.recordName ?? null,
    record_value: recordValueFor(sub.token),
  };
  if (attempt.outcome === "already_listed") {
    return new ApiError("already_listed", "This URL is already listed for this capability; the submission was closed.", {
      extras: { ...common, endpoint_id: attempt.endpointId },
    });
  }
  if (attempt.outcome === "expired") {
    return new ApiError("verification_failed", "The submission expired (7 days without the record); submit the endpoint again.", {
      extras: { ...common, found_records: [], reason: "expired" },
    });
  }
  return new ApiError("verification_failed", attempt.check.detail, {
    extras: { ...common, found_records: attempt.check.foundRecords, reason: attempt.check.reason },
  });
}
