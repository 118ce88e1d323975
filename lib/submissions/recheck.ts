// Background re-checks. Each unit of work is claimed with FOR UPDATE SKIP LOCKED plus a lease
// (claimed_until, or a due time pushed forward), so several instances never check one row twice.
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { domainClaims, endpoints, submissions, verifiedDomains } from "@/lib/db/schema";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { lookupTxt } from "@/lib/dns/resolver";
import { checkChallenge, evaluateLookups, isTransient, LOOKUP_DEADLINE_MS, type ChallengeCheck } from "./challenge";
import { attemptVerification } from "./verify";

const CLAIM_LEASE = sql`interval '2 minutes'`;
const LOST_RECHECK = sql`interval '1 hour'`;
const DAILY = sql`interval '1 day'`;
/** DNS trouble (SERVFAIL, timeouts) alone unlists nothing until the last clear answer is this old. */
const TRANSIENT_GRACE = sql`interval '3 days'`;

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}

/** Expires overdue submissions, then checks a batch of due pending ones. */
export async function recheckPendingSubmissions(
  db: Db,
  opts: { batch?: number; concurrency?: number; nextCheckInMs: number },
): Promise<{ expired: number; checked: number; listed: number }> {
  const expired = await db
    .update(submissions)
    .set({ status: "expired", claimedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(submissions.status, "pending_verification"), lte(submissions.expiresAt, sql`now()`)))
    .returning({ id: submissions.id });
  const due = db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.status, "pending_verification"),
        sql`${submissions.expiresAt} > now()`,
        or(isNull(submissions.nextCheckAt), lte(submissions.nextCheckAt, sql`now()`)),
        or(isNull(submissions.claimedUntil), lte(submissions.claimedUntil, sql`now()`)),
      ),
    )
    .orderBy(sql`${submissions.nextCheckAt} asc nulls first`)
    .limit(opts.batch ?? 50)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(submissions)
    .set({ claimedUntil: sql`now() + ${CLAIM_LEASE}` })
    .where(inArray(submissions.id, due))
    .returning();
  let listed = 0;
  await eachLimited(claimed, opts.concurrency ?? 10, async (sub) => {
    const attempt = await attemptVerification(db, sub, { nextCheckInMs: opts.nextCheckInMs });
    if (attempt.outcome === "listed") listed++;
  });
  return { expired: expired.length, checked: claimed.length, listed };
}

/**
 * The tokens that prove an endpoint's domain: its submission's and its owner's account domain's,
 * or, for an imported listing (no submission), those of the verified claims of its domain.
 */
async function tokensForEndpoint(db: Db, submissionId: string | null, host: string, domain: string): Promise<string[]> {
  if (!submissionId) {
    const claims = await db
      .select({ token: domainClaims.token })
      .from(domainClaims)
      .where(and(eq(domainClaims.domain, domain), eq(domainClaims.status, "verified")));
    return claims.map((c) => c.token);
  }
  const [sub] = await db
    .select({ token: submissions.token, userId: submissions.userId })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  if (!sub) return [];
  const tokens = [sub.token];
  if (sub.userId) {
    const rows = await db
      .select({ token: verifiedDomains.token })
      .from(verifiedDomains)
      .where(and(eq(verifiedDomains.userId, sub.userId), inArray(verifiedDomains.domain, [host, domain])));
    tokens.push(...rows.map((r) => r.token));
  }
  return tokens;
}

/**
 * Daily re-check of listed endpoints' domains: submitted ones, and imported ones whose domain was
 * claimed (lib/imports/claims.ts schedules those). A record that has gone marks the endpoint
 * unverified (domain_verified=false, domain_reason says why), re-checked hourly until it is back.
 */
export async function recheckEndpointDomains(db: Db, opts: { batch?: number; concurrency?: number } = {}) {
  const due = db
    .select({ id: endpoints.id })
    .from(endpoints)
    .where(and(eq(endpoints.status, "listed"), lte(endpoints.domainNextCheckAt, sql`now()`)))
    .orderBy(asc(endpoints.domainNextCheckAt))
    .limit(opts.batch ?? 100)
    .for("update", { skipLocked: true });
  // Pushing the due time forward is the claim: no other instance sees these rows as due meanwhile.
  const claimed = await db
    .update(endpoints)
    .set({ domainNextCheckAt: sql`now() + ${CLAIM_LEASE}` })
    .where(inArray(endpoints.id, due))
    .returning({
      id: endpoints.id,
      host: endpoints.host,
      domain: endpoints.domain,
      submissionId: endpoints.submissionId,
      capabilityId: endpoints.capabilityId,
    });
  const counts = { checked: claimed.length, verified: 0, lost: 0, transient: 0 };
  await eachLimited(claimed, opts.concurrency ?? 10, async (e) => {
    const tokens = await tokensForEndpoint(db, e.submissionId, e.host, e.domain);
    const check = await checkChallenge(e.host, e.domain, tokens);
    const verdict = await applyEndpointCheck(db, e.id, check);
    counts[verdict]++;
    if (verdict !== "transient") invalidateCandidates(db, e.capabilityId);
  });
  return counts;
}

async function applyEndpointCheck(db: Db, id: string, check: ChallengeCheck): Promise<"verified" | "lost" | "transient"> {
  if (check.verified) {
    await db
      .update(endpoints)
      .set({ domainVerified: true, domainReason: null, domainCheckedAt: sql`now()`, domainNextCheckAt: sql`now() + ${DAILY}`, updatedAt: sql`now()` })
      .where(eq(endpoints.id, id));
    return "verified";
  }
  if (isTransient(check.reason)) {
    // Keep the last clear verdict unless DNS has been failing for longer than the grace period.
    const [stale] = await db
      .update(endpoints)
      .set({ domainVerified: false, domainReason: check.reason, domainNextCheckAt: sql`now() + ${LOST_RECHECK}`, updatedAt: sql`now()` })
      .where(and(eq(endpoints.id, id), sql`coalesce(${endpoints.domainCheckedAt}, ${endpoints.createdAt}) < now() - ${TRANSIENT_GRACE}`))
      .returning({ id: endpoints.id });
    if (stale) return "lost";
    await db.update(endpoints).set({ domainNextCheckAt: sql`now() + ${LOST_RECHECK}` }).where(eq(endpoints.id, id));
    return "transient";
  }
  await db
    .update(endpoints)
    .set({ domainVerified: false, domainReason: check.reason, domainCheckedAt: sql`now()`, domainNextCheckAt: sql`now() + ${LOST_RECHECK}`, updatedAt: sql`now()` })
    .where(eq(endpoints.id, id));
  return "lost";
}

/** Daily re-check of the domains on users' accounts: one whose record has gone no longer lists at once. */
export async function recheckAccountDomains(db: Db, opts: { batch?: number; concurrency?: number } = {}) {
  const due = db
    .select({ id: verifiedDomains.id })
    .from(verifiedDomains)
    .where(lte(verifiedDomains.nextCheckAt, sql`now()`))
    .orderBy(asc(verifiedDomains.nextCheckAt))
    .limit(opts.batch ?? 100)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(verifiedDomains)
    .set({ nextCheckAt: sql`now() + ${CLAIM_LEASE}` })
    .where(inArray(verifiedDomains.id, due))
    .returning();
  const counts = { checked: claimed.length, verified: 0, lost: 0, transient: 0 };
  await eachLimited(claimed, opts.concurrency ?? 10, async (d) => {
    const lookup = await lookupTxt(d.recordName, { deadlineMs: LOOKUP_DEADLINE_MS });
    const check = evaluateLookups([{ recordName: d.recordName, covers: d.domain }], [lookup], [d.token]);
    const verdict = check.verified ? "verified" : isTransient(check.reason) ? "transient" : "lost";
    counts[verdict]++;
    await db
      .update(verifiedDomains)
      .set(
        verdict === "transient"
          ? { nextCheckAt: sql`now() + ${LOST_RECHECK}` }
          : { status: verdict, lastCheckedAt: sql`now()`, nextCheckAt: sql`now() + ${DAILY}` },
      )
      .where(eq(verifiedDomains.id, d.id));
  });
  return counts;
}
