// Turning a verified submission into a listed endpoint, in one transaction: provider, endpoint,
// the submission's new state and (for a signed-in submitter) the proven domain on their account.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { endpoints, providers, submissions, verifiedDomains, type Submission } from "@/lib/db/schema";
import { probeEndpoint } from "@/lib/probes";
import { holdForCapability, waitsForCapability } from "./pending-capability";

/** How a submission came to be listed. */
export type ListingProof =
  | { kind: "dns"; recordName: string; coveredName: string; foundRecords: string[] }
  | { kind: "account_domain"; coveredName: string }
  | { kind: "operator" };

export type LastCheck = {
  found_records: string[];
  reason: string;
  detail?: string;
  record_name?: string | null;
  /** The name now saved on the submitter's account (later submissions under it are verified at once). */
  account_domain?: string | null;
};

export type ListingResult =
  | { outcome: "listed"; submission: Submission; endpointId: string }
  | { outcome: "already_listed"; submission: Submission; endpointId: string | null }
  | { outcome: "not_pending"; submission: Submission | null };

export const DOMAIN_RECHECK_INTERVAL = sql`interval '1 day'`;

/**
 * Lists a pending submission. Safe against a concurrent verify of the same submission (row lock)
 * and against another submission of the same URL and capability (the unique index decides).
 */
export async function listSubmission(db: Db, submissionId: string, proof: ListingProof): Promise<ListingResult> {
  const result = await listInTransaction(db, submissionId, proof);
  if (result.outcome === "listed") {
    // The first look at the new listing's 402 (its offers and bazaar declaration), now rather than
    // at the schedule's next pass; a failure here is only a failed first probe.
    await probeEndpoint(db, result.endpointId).catch((err) => {
      console.error("[capdex] first probe of a new listing failed:", err instanceof Error ? err.message : err);
    });
    // discover caches a capability's candidates for a few seconds; this instance shows the listing at once
    invalidateCandidates(db, result.submission.capabilityId);
  }
  return result;
}

function listInTransaction(db: Db, submissionId: string, proof: ListingProof): Promise<ListingResult> {
  return db.transaction(async (tx) => {
    const [sub] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for("update");
    if (!sub || sub.status !== "pending_verification") return { outcome: "not_pending", submission: sub ?? null };
    // proposed capability not accepted yet: proven, parked as pending_capability (./pending-capability.ts)
    if (await waitsForCapability(tx as unknown as Db, sub)) return { outcome: "not_pending", submission: await holdForCapability(tx as unknown as Db, sub, proof) };

    const providerId = await findOrCreateProvider(tx as unknown as Db, sub);
    const fields = {
      providerId,
      submissionId: sub.id,
      method: sub.method,
      host: sub.host,
      domain: sub.domain,
      description: sub.description,
      paymentType: sub.paymentType,
      pricePerCall: sub.pricePerCall,
      network: sub.network,
      networks: sub.networks.length ? sub.networks : [sub.network],
      acceptedAssets: sub.acceptedAssets,
      source: "submission",
      // A submitted description until the endpoint's own 402 declares one (lib/probes/seen.ts).
      call: sub.call ? { source: "submitted" as const, ...(sub.call as { method: string }), updated_at: new Date().toISOString() } : null,
      declaration: null,
      declarationIssue: null,
      status: "listed",
      isDemo: false,
      domainVerified: true,
      domainCheckedAt: sql`now()`,
      // an operator's approval stands without a record, so there is nothing to re-check
      domainNextCheckAt: proof.kind === "operator" ? null : sql`now() + ${DOMAIN_RECHECK_INTERVAL}`,
      domainReason: null,
      // probes decide check_state; a new listing is unverified until the first probe passes
      checkState: "unverified",
      consecutiveFailures: 0,
      nextCheckAt: sql`now()`,
      updatedAt: sql`now()`,
    } as const;
    // A delisted endpoint at the same URL and capability is taken over by the new owner; a listed one
    // stays as it is and this submission is refused (an unclaimed imported one excepted).
    const [endpoint] = await tx
      .insert(endpoints)
      .values({ ...fields, url: sub.endpointUrl, capabilityId: sub.capabilityId })
      .onConflictDoUpdate({
        target: [endpoints.url, endpoints.capabilityId],
        set: fields,
        // A listed one stays, unless a catalogue listed it and nobody claimed it: a DNS-proven
        // submission supersedes an import (never the other way round).
        setWhere: sql`${endpoints.status} <> 'listed' or (${endpoints.source} <> 'submission' and not ${endpoints.domainVerified})`,
      })
      .returning({ id: endpoints.id });

    if (!endpoint) {
      const [existing] = await tx
        .select({ id: endpoints.id })
        .from(endpoints)
        .where(and(eq(endpoints.url, sub.endpointUrl), eq(endpoints.capabilityId, sub.capabilityId)));
      const lastCheck: LastCheck = {
        found_records: proof.kind === "dns" ? proof.foundRecords : [],
        reason: "already_listed",
        detail: "This URL is already listed for this capability.",
      };
      const [updated] = await tx
        .update(submissions)
        .set({ status: "rejected", lastCheck, checkedAt: sql`now()`, claimedUntil: null, updatedAt: sql`now()` })
        .where(eq(submissions.id, sub.id))
        .returning();
      return { outcome: "already_listed", submission: updated, endpointId: existing?.id ?? null };
    }

    let accountDomain: string | null = null;
    if (sub.userId && proof.kind === "dns") {
      accountDomain = proof.coveredName;
      await tx
        .insert(verifiedDomains)
        .values({ userId: sub.userId, domain: proof.coveredName, recordName: proof.recordName, token: sub.token })
        .onConflictDoUpdate({
          target: [verifiedDomains.userId, verifiedDomains.domain],
          set: {
            recordName: proof.recordName,
            token: sub.token,
            verifiedAt: sql`now()`,
            lastCheckedAt: sql`now()`,
            nextCheckAt: sql`now() + ${DOMAIN_RECHECK_INTERVAL}`,
            status: "verified",
          },
        });
    } else if (proof.kind === "account_domain") {
      accountDomain = proof.coveredName;
    }
    const lastCheck: LastCheck = {
      found_records: proof.kind === "dns" ? proof.foundRecords : [],
      reason: proof.kind === "dns" ? "verified" : proof.kind === "operator" ? "approved_by_operator" : "account_domain",
      detail:
        proof.kind === "dns"
          ? `The record was found at ${proof.recordName}.`
          : proof.kind === "operator"
            ? "Listed by an operator without DNS verification."
            : `${proof.coveredName} was already verified for your account.`,
      record_name: proof.kind === "dns" ? proof.recordName : null,
      account_domain: accountDomain,
    };
    const [updated] = await tx
      .update(submissions)
      .set({ status: "verified", endpointId: endpoint.id, lastCheck, checkedAt: sql`now()`, claimedUntil: null, updatedAt: sql`now()` })
      .where(eq(submissions.id, sub.id))
      .returning();
    return { outcome: "listed", submission: updated, endpointId: endpoint.id };
  });
}

/** The submitter's provider: the same name and contact (and account, when signed in), or a new one. */
async function findOrCreateProvider(db: Db, sub: Submission): Promise<string> {
  const [found] = await db
    .select({ id: providers.id })
    .from(providers)
    .where(
      and(
        eq(providers.name, sub.providerName),
        eq(providers.contactEmail, sub.contactEmail),
        sql`${providers.userId} is not distinct from ${sub.userId}`,
        eq(providers.isDemo, false),
      ),
    )
    .limit(1);
  if (found) return found.id;
  const [created] = await db
    .insert(providers)
    .values({ name: sub.providerName, contactEmail: sub.contactEmail, userId: sub.userId })
    .returning({ id: providers.id });
  return created.id;
}
