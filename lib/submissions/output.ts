// How a submission is shown to callers (lib/schemas/submit.ts): never the contact e-mail.
import type { Endpoint, Submission } from "@/lib/db/schema";
import { challengeNames, recordValueFor } from "./challenge";
import type { LastCheck } from "./listing";

export type SubmissionListing = Pick<Endpoint, "id" | "status" | "domainVerified" | "domainReason" | "domainCheckedAt" | "checkState">;

export function toVerification(sub: Pick<Submission, "host" | "domain" | "token" | "expiresAt">) {
  const [atHost, atDomain] = challengeNames(sub.host, sub.domain);
  return {
    method: "dns_txt" as const,
    record_type: "TXT" as const,
    record_name: atHost.recordName,
    record_value: recordValueFor(sub.token),
    expires_at: sub.expiresAt.toISOString(),
    // the same record here covers every host under the registrable domain
    alternative_record_name: atDomain?.recordName ?? null,
  };
}

export function toSubmissionOut(sub: Submission, listing?: SubmissionListing | null) {
  const check = sub.lastCheck as LastCheck | null;
  return {
    submission_id: sub.id,
    status: sub.status,
    domain: sub.host,
    registrable_domain: sub.domain,
    endpoint_url: sub.endpointUrl,
    capability_id: sub.capabilityId,
    // set when it proposed its capability (POST /submit proposed_capability): status pending_capability
    // once the domain is proven, until an operator decides (docs/proposals.md)
    proposal_id: sub.proposalId ?? null,
    provider_name: sub.providerName,
    method: sub.method,
    price_per_call: sub.pricePerCall,
    network: sub.network,
    networks: sub.networks.length ? sub.networks : [sub.network],
    verification: toVerification(sub),
    endpoint_id: sub.endpointId,
    checked_at: sub.checkedAt?.toISOString() ?? null,
    last_check: check
      ? { found_records: check.found_records ?? [], reason: check.reason, detail: check.detail ?? null }
      : null,
    account_domain: check?.account_domain ?? null,
    // once listed: whether the domain record is still there (re-checked daily) and the probes' verdict
    listing: listing
      ? {
          endpoint_id: listing.id,
          status: listing.status,
          domain_verified: listing.domainVerified,
          domain_reason: listing.domainReason,
          domain_checked_at: listing.domainCheckedAt?.toISOString() ?? null,
          check_state: listing.checkState,
        }
      : null,
    created_at: sub.createdAt.toISOString(),
    links: { self: `/api/submit/${sub.id}`, verify: `/api/submit/${sub.id}/verify` },
  };
}

export type SubmissionOut = ReturnType<typeof toSubmissionOut>;
