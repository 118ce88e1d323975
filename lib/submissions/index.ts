// Provider submissions: submit an endpoint, prove the domain with a DNS TXT record, get listed.
// States: pending_verification -> verified (listed) | expired (7 days) | rejected (operator, or
// the URL got listed by someone else first).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";
import { endpoints, submissions, verifiedDomains, type Submission } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { getRegistry, suggestCapabilityIds } from "@/lib/registry";
import type { SubmitBody } from "@/lib/schemas/submit";
import { declarationOfSubmitted } from "@/lib/probes/declaration";
import { CHALLENGE_TTL_DAYS, newChallengeToken } from "./challenge";
import { listSubmission } from "./listing";
import { takeOverPending } from "./resubmit";
import { toSubmissionOut, type SubmissionListing, type SubmissionOut } from "./output";
import { checkEndpointUrl } from "./url";
import { attemptError, attemptVerification } from "./verify";
import { assertProposable, proposalForSubmission } from "@/lib/proposals/submission";

export { toSubmissionOut, type SubmissionOut } from "./output";
export { checkEndpointUrl } from "./url";

/** First background look at a new submission, and the pace after that while it is pending. */
export const PENDING_RECHECK_MS = Number(process.env.SUBMISSION_RECHECK_MS ?? 5 * 60_000);

/** The submitter of a request: the account behind an API key, or nobody (anonymous). */
export function submitterOf(principal: Principal): string | null {
  return principal.kind === "authenticated" ? principal.userId : null;
}

/**
 * POST /submit: validates, stores the submission with a fresh challenge, and lists it at once when
 * a signed-in submitter has already proven the domain. Nothing is stored when a check fails. The same
 * URL and capability sent again by the same contact while pending returns that submission
 * (`resubmitted: true`, lib/submissions/resubmit.ts).
 */
export async function createSubmission(db: Db, body: SubmitBody, principal: Principal): Promise<SubmissionOut & { resubmitted?: true }> {
  const target = checkEndpointUrl(body.endpoint_url);
  const method = body.method ?? "GET";
  const call = body.call ? checkSubmittedCall(body.call, method) : null;
  const registry = await getRegistry(db);
  // A proposed capability (lib/proposals) stands in for capability_id until an operator decides.
  if ((body.capability_id === undefined) === (body.proposed_capability === undefined)) {
    throw new ApiError("validation_failed", "Send capability_id, or proposed_capability when no capability fits (not both).", {
      errors: [{ pointer: body.capability_id === undefined ? "#/capability_id" : "#/proposed_capability", detail: "Send exactly one of capability_id and proposed_capability." }],
    });
  }
  if (body.proposed_capability) await assertProposable(db, body.proposed_capability);
  const capabilityId = body.capability_id ?? body.proposed_capability!.id;
  if (body.capability_id !== undefined && !registry.byId.has(body.capability_id)) {
    throw new ApiError("capability_not_found", `There is no capability "${body.capability_id}". When none fits, send proposed_capability { id, title, description, category } instead of capability_id.`, {
      errors: [{ pointer: "#/capability_id", detail: "Unknown capability; GET /api/capabilities lists them." }],
      extras: { suggestions: suggestCapabilityIds(registry.capabilities, body.capability_id) },
    });
  }
  const [listed] = await db
    .select({ id: endpoints.id })
    .from(endpoints)
    .where(
      and(
        eq(endpoints.url, target.url),
        eq(endpoints.capabilityId, capabilityId),
        eq(endpoints.status, "listed"),
        // An unclaimed listing imported from a catalogue is taken over by its provider's submission.
        sql`(${endpoints.source} = 'submission' or ${endpoints.domainVerified})`,
      ),
    )
    .limit(1);
  if (listed) {
    throw new ApiError("already_listed", `${target.url} is already listed for ${capabilityId}.`, {
      errors: [{ pointer: "#/endpoint_url", detail: "Already listed for this capability." }],
      extras: { endpoint_id: listed.id },
    });
  }

  const userId = submitterOf(principal);
  const network = body.network ?? body.networks?.[0] ?? "base";
  const details = {
    providerName: body.provider_name,
    pricePerCall: body.price_per_call,
    method,
    network,
    networks: [...new Set([network, ...(body.networks ?? [])])],
    acceptedAssets: body.accepted_assets ?? ["USDC"],
    paymentType: body.payment_type ?? "x402",
    description: body.description ?? "",
    call,
  };
  const pending = await takeOverPending(db, { url: target.url, capabilityId, contactEmail: body.contact_email, userId }, details);
  if (pending) return { ...toSubmissionOut(pending, null), resubmitted: true };
  const proposal = body.proposed_capability ? await proposalForSubmission(db, body.proposed_capability, userId, target.url) : null;
  const [sub] = await db
    .insert(submissions)
    .values({
      proposalId: proposal?.id ?? null,
      ...details,
      endpointUrl: target.url,
      host: target.host,
      domain: target.domain,
      capabilityId,
      contactEmail: body.contact_email,
      token: newChallengeToken(),
      userId,
      expiresAt: sql`now() + ${CHALLENGE_TTL_DAYS} * interval '1 day'`,
      nextCheckAt: sql`now() + ${PENDING_RECHECK_MS} * interval '1 millisecond'`,
    })
    .returning();

  const covered = userId ? await accountDomainCovering(db, userId, target.host, target.domain) : null;
  if (covered) {
    const listing = await listSubmission(db, sub.id, { kind: "account_domain", coveredName: covered });
    if (listing.outcome === "already_listed") throw attemptError(listing);
    if (listing.outcome === "listed" || proposal) return getSubmission(db, sub.id);
  }
  return toSubmissionOut(sub, null);
}

/** The submitted call, checked by the official bazaar validators as a declaration would be (422 otherwise). */
function checkSubmittedCall(call: NonNullable<SubmitBody["call"]>, method: string): Record<string, unknown> {
  const checked = declarationOfSubmitted(call, method);
  if (!checked.ok) {
    throw new ApiError("validation_failed", `call: ${checked.problem}`, { errors: [{ pointer: "#/call", detail: checked.problem }] });
  }
  return checked.call;
}

/** A domain on the user's account that covers the host (the host itself or its registrable domain). */
async function accountDomainCovering(db: Db, userId: string, host: string, domain: string): Promise<string | null> {
  const rows = await db
    .select({ domain: verifiedDomains.domain })
    .from(verifiedDomains)
    .where(
      and(eq(verifiedDomains.userId, userId), eq(verifiedDomains.status, "verified"), inArray(verifiedDomains.domain, [host, domain])),
    );
  return rows.find((r) => r.domain === host)?.domain ?? rows[0]?.domain ?? null;
}

const LISTING_COLUMNS = {
  id: endpoints.id,
  status: endpoints.status,
  domainVerified: endpoints.domainVerified,
  domainReason: endpoints.domainReason,
  domainCheckedAt: endpoints.domainCheckedAt,
  checkState: endpoints.checkState,
};

async function findSubmission(db: Db, id: string): Promise<{ sub: Submission; listing: SubmissionListing | null } | null> {
  const [row] = await db
    .select({
      sub: submissions,
      listing: LISTING_COLUMNS,
    })
    .from(submissions)
    .leftJoin(endpoints, eq(endpoints.id, submissions.endpointId))
    .where(eq(submissions.id, id));
  return row ? { sub: row.sub, listing: row.listing } : null;
}

async function findSubmissionOrThrow(db: Db, id: string) {
  const found = await findSubmission(db, id);
  if (!found) throw new ApiError("submission_not_found", `There is no submission ${id}.`);
  return found;
}

/** GET /submit/{id}. */
export async function getSubmission(db: Db, id: string): Promise<SubmissionOut> {
  const { sub, listing } = await findSubmissionOrThrow(db, id);
  return toSubmissionOut(sub, listing);
}

/**
 * POST /submit/{id}/verify: looks the record up now. The new state, or 409 verification_failed
 * with what was found (409 already_listed when someone else listed the URL first).
 */
export async function verifySubmissionNow(db: Db, id: string): Promise<SubmissionOut> {
  const { sub } = await findSubmissionOrThrow(db, id);
  if (sub.status === "verified" || sub.status === "pending_capability") return getSubmission(db, id);
  if (sub.status !== "pending_verification") {
    throw new ApiError("verification_failed", `The submission is ${sub.status}; submit the endpoint again.`, {
      extras: { submission_id: sub.id, submission_status: sub.status, found_records: [], reason: sub.status },
    });
  }
  const attempt = await attemptVerification(db, sub);
  if (attempt.outcome === "listed" || attempt.outcome === "not_pending") {
    const now = await getSubmission(db, id);
    if (now.status === "verified" || now.status === "pending_capability") return now;
    throw new ApiError("verification_failed", `The submission is ${now.status}.`, {
      extras: { submission_id: id, submission_status: now.status, found_records: [], reason: now.status },
    });
  }
  throw attemptError(attempt);
}

/** Submissions, newest first: a user's own (portal) or all of one state (operators). */
export async function listSubmissions(
  db: Db,
  filter: { userId?: string; status?: string; limit?: number } = {},
): Promise<SubmissionOut[]> {
  const conditions = [
    filter.userId ? eq(submissions.userId, filter.userId) : undefined,
    filter.status ? eq(submissions.status, filter.status) : undefined,
  ].filter((c) => c !== undefined);
  const rows = await db
    .select({
      sub: submissions,
      listing: LISTING_COLUMNS,
    })
    .from(submissions)
    .leftJoin(endpoints, eq(endpoints.id, submissions.endpointId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(Math.min(filter.limit ?? 100, 1000));
  return rows.map((r) => toSubmissionOut(r.sub, r.listing));
}
