// Claiming the imported listings of a domain: a provider publishes one DNS TXT record at
// `_capdex-challenge.<registrable domain>` (the same flow as a submission's, lib/submissions) and,
// once it is found, every listing imported under that domain becomes theirs: domain_verified, their
// contact on the provider, and never again overwritten by an import.
import { and, eq, sql } from "drizzle-orm";
import type { Principal } from "@/lib/auth/principal";
import { queryRows, type Db } from "@/lib/db/client";
import { domainClaims, type DomainClaim } from "@/lib/db/schema";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { ApiError } from "@/lib/http/errors";
import { CHALLENGE_TTL_DAYS, checkChallenge, newChallengeToken, recordNameFor, recordValueFor } from "@/lib/submissions/challenge";
import { checkEndpointUrl } from "@/lib/submissions/url";

export type ClaimOut = {
  claim_id: string;
  domain: string;
  status: string;
  verification: { method: "dns_txt"; record_type: "TXT"; record_name: string; record_value: string; expires_at: string };
  /** Imported listings under the domain not claimed yet. */
  claimable: number;
  claimed_endpoints: number;
  last_check: { found_records: string[]; reason: string; detail: string } | null;
};

/** The registrable domain of a name or URL someone types ("api.example.com", "https://example.com/x"). */
export function claimDomainOf(input: string): string {
  const raw = input.trim();
  const url = /^[a-z]+:\/\//i.test(raw) ? raw : `https://${raw.replace(/\/.*$/, "")}/`;
  try {
    return checkEndpointUrl(url, { pointer: "#/domain" }).domain;
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError("validation_failed", "domain: Not a public domain name.", { errors: [{ pointer: "#/domain", detail: "Not a public domain name, e.g. example.com." }] });
    throw err;
  }
}

async function claimableCount(db: Db, domain: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from endpoints where domain = ${domain} and source <> 'submission' and not domain_verified`,
  );
  return Number(row.n);
}

async function toOut(db: Db, c: DomainClaim): Promise<ClaimOut> {
  const check = c.lastCheck as ClaimOut["last_check"];
  return {
    claim_id: c.id,
    domain: c.domain,
    status: c.status,
    verification: { method: "dns_txt", record_type: "TXT", record_name: recordNameFor(c.domain), record_value: recordValueFor(c.token), expires_at: c.expiresAt.toISOString() },
    claimable: await claimableCount(db, c.domain),
    claimed_endpoints: c.claimedEndpoints,
    last_check: check ?? null,
  };
}

export async function createDomainClaim(db: Db, input: { domain: string; contact_email: string; provider_name?: string }, principal: Principal): Promise<ClaimOut> {
  const domain = claimDomainOf(input.domain);
  const [claim] = await db
    .insert(domainClaims)
    .values({
      domain,
      token: newChallengeToken(),
      contactEmail: input.contact_email,
      providerName: input.provider_name?.trim() || null,
      userId: principal.kind === "authenticated" ? principal.userId : null,
      expiresAt: sql`now() + ${CHALLENGE_TTL_DAYS} * interval '1 day'`,
    })
    .returning();
  return toOut(db, claim);
}

export async function getDomainClaim(db: Db, id: string): Promise<ClaimOut> {
  const [claim] = await db.select().from(domainClaims).where(eq(domainClaims.id, id));
  if (!claim) throw new ApiError("not_found", `There is no claim ${id}.`);
  return toOut(db, claim);
}

/** Looks the record up now; when found, every imported listing of the domain becomes the claimant's. */
export async function verifyDomainClaim(db: Db, id: string): Promise<ClaimOut> {
  const [claim] = await db.select().from(domainClaims).where(eq(domainClaims.id, id));
  if (!claim) throw new ApiError("not_found", `There is no claim ${id}.`);
  if (claim.status !== "pending_verification") return toOut(db, claim);
  if (claim.expiresAt.getTime() <= Date.now()) {
    const [expired] = await db.update(domainClaims).set({ status: "expired" }).where(eq(domainClaims.id, id)).returning();
    return toOut(db, expired);
  }
  const check = await checkChallenge(claim.domain, claim.domain, [claim.token]);
  const lastCheck = { found_records: check.foundRecords, reason: check.reason, detail: check.detail };
  if (!check.verified) {
    const [updated] = await db.update(domainClaims).set({ lastCheck, checkedAt: sql`now()` }).where(eq(domainClaims.id, id)).returning();
    return toOut(db, updated);
  }
  const claimed = await queryRows<{ capability_id: string }>(
    db,
    // From now on the daily domain re-check (lib/submissions/recheck.ts) looks for the claim's record.
    sql`update endpoints set domain_verified = true, domain_checked_at = now(), domain_reason = null, updated_at = now(),
          domain_next_check_at = now() + interval '1 day'
        where domain = ${claim.domain} and source <> 'submission' and not domain_verified
        returning capability_id`,
  );
  await queryRows(
    db,
    sql`update providers set contact_email = ${claim.contactEmail}, user_id = coalesce(${claim.userId}::text, user_id),
          name = coalesce(${claim.providerName}::text, name)
        where domain = ${claim.domain}`,
  );
  const [updated] = await db
    .update(domainClaims)
    .set({ status: "verified", lastCheck, checkedAt: sql`now()`, claimedEndpoints: claimed.length })
    .where(and(eq(domainClaims.id, id), eq(domainClaims.status, "pending_verification")))
    .returning();
  for (const c of new Set(claimed.map((r) => r.capability_id))) invalidateCandidates(db, c);
  return toOut(db, updated ?? claim);
}
