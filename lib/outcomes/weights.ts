// How much an outcome report counts: base weights by reporter tier and discovery, and the caps the
// rollup job applies. Every value here is documented in docs/ranking.md; change both together.
import { createHash } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";

export const WEIGHTS = {
  /**
   * A report from an anonymous caller (one client address): stored and counted as a report, but of
   * no weight. Addresses cost nothing, and the ranking evaluation (docs/ranking.md) showed that the
   * anonymous allowance of an endpoint-hour, filled by a few addresses every hour, moves first
   * place in most capabilities: a failure rate is scored on a log scale, so a few points of false
   * failures (or successes) outweigh the difference between good endpoints. The caps below keep
   * any weight given to addresses bounded.
   */
  anonymous: 0,
  /** A report sent with an API key. */
  authenticated: 4,
  /** Multiplier for a report whose discovery_id this caller received for this endpoint in the last hour. */
  discoveryBonus: 2,
  /** How recent that discovery must be, when the report was sent. */
  discoveryWindowMinutes: 60,
  /**
   * Discoveries are logged within about a second of the answer (lib/discovery/log.ts), so one may
   * carry a time slightly after a quick report's: this much later still counts.
   */
  discoveryClockSlackMinutes: 5,
  /** A first-party probe of the endpoint (lib/probes): above anonymous, never capped. */
  probe: 3,
  /**
   * A paid test call of Capdex's own (lib/paid-checks): Capdex paid the endpoint from its wallet and
   * judged the answer. Weighed like a trusted caller's discovery-tied paid report (paid x
   * discoveryBonus), never capped (the operator's daily budget bounds how many there are), and
   * never the provider's: the wallet is Capdex's.
   */
  paidCheck: 16,
  /** Reports by the account that owns the endpoint's provider. */
  ownProvider: 0,
  /**
   * Reports by an account that owns a provider with an endpoint of the same capability: a
   * competitor grades its rivals no more than itself.
   */
  competitor: 0,
  /**
   * A report whose payment Capdex verified on chain (lib/payments): counted against the paying
   * wallet, not the account or address that sent it. Money moved to the endpoint is the costliest
   * signal a reporter can give; the discovery bonus applies on top (16).
   */
  paid: 8,
  /** A verified payment by the endpoint's own pay-to address or another of its provider's wallets. */
  providerPayer: 0,
  /**
   * The largest share of a wallet's verified spend over the last paidSpreadDays that one provider
   * may take for the wallet's reports on it to weigh as paid (its price, plus what the wallet paid
   * that provider before, at most this share of everything it paid; each payment valued at the
   * endpoint's listed price). Beyond it a paid success counts as its sender's unpaid report.
   * *Attack: a provider paying its own endpoint from wallets funded through an exchange*, which
   * nothing on chain links to it: the money comes back, so the campaign cost only gas. A wallet
   * that pays one provider only is exactly what that campaign looks like, and an agent's wallet
   * pays the providers of the many jobs it does. To weigh, a washer's wallet must now spend as much
   * with other providers, money that does not come back.
   */
  paidSpreadShare: 0.5,
  /** The window of a wallet's spend that paidSpreadShare reads. */
  paidSpreadDays: 7,
  /** The least a payment counts for in the spread (USD): one USDC unit, so a free endpoint's payments still count. */
  paidSpreadMinValue: 0.000001,
  /** Slack of the spread's comparison (USD): sums added in another order (SQL, the evaluation's ledger) agree. */
  paidSpreadTolerance: 1e-9,
  /** A report whose payment evidence the chain contradicts (forged, reused, underpaid, misdirected...). */
  rejectedEvidence: 0,
  /**
   * Multiplier for an unpaid report from an account younger than newAccountDays: none. Accounts are
   * free, so a fresh one has shown nothing yet; the ranking evaluation measured that 10, 100 or 1,000
   * accounts signed up for one burst moved first place in most capabilities at half weight. Paid
   * reports are not discounted (money is their cost), so a new account that pays counts at once.
   */
  newAccountFactor: 0,
  /** How old an account must be, when it reports, to weigh fully. */
  newAccountDays: 7,
  /**
   * On how many UTC days the account's reports must have been counted before (users.report_days,
   * kept by the rollup) for its unpaid reports to weigh at all. Age alone is free: accounts signed up
   * a month ahead and left idle moved first place in 436 of 500 capability-preset pairs of the
   * ranking evaluation. A history costs days of activity; paid reports need none.
   */
  historyDays: 3,
} as const;

export const CAPS = {
  /** Weight one anonymous address may add to one endpoint in one hour (2 discovery-tied reports). */
  anonymousPerReporter: 4,
  /** Weight one account may add to one endpoint in one hour (8 discovery-tied reports). */
  authenticatedPerReporter: 64,
  /**
   * Weight all anonymous reporters together may add to one endpoint in one hour. Addresses are
   * cheap, so a per-address cap alone grows with the number of addresses an attacker controls.
   */
  anonymousPerEndpoint: 20,
  /** Weight one paying wallet may add to one endpoint in one hour (4 discovery-tied paid reports). */
  paidPerPayer: 64,
  /**
   * Weight all verified paid reports together may add to one endpoint in one hour (5 wallets at
   * their cap). A provider paying its own endpoint from fresh wallets gets its money back and loses
   * only gas: this bounds what that buys.
   */
  paidPerEndpoint: 320,
  /**
   * Weight all unpaid account reports together may add to one endpoint in one hour (4 accounts at
   * their cap). Accounts cost a sign-in each: a per-account cap alone grows with their number.
   */
  authenticatedPerEndpoint: 256,
  /**
   * How far unpaid accounts' failures may outweigh their successes on one endpoint in one hour (2
   * discovery-tied failures). *Attack: accounts with a history reporting a rival's calls as failed in
   * a burst.* A log-scaled failure rate makes a few points of false failures decide between good
   * endpoints, and the pool above is several hours of honest weight; the ranking evaluation measured
   * that 10 such accounts changed first place in a third of the hours after their burst. Real faults
   * keep their figures: failures up to as many as the hour's successes count in full (a 40% failure
   * rate shows as 40%), an endpoint that fails every call still shows 0% success in that hour, and
   * outages are what probes see first. Counted oldest first, against the hour's running totals.
   */
  accountFailureExcess: 16,
} as const;

/** reporter_weights keys of the allowances the reporters of one kind share in an endpoint-hour. */
export const ANONYMOUS_POOL_KEY = "*anonymous";
export const ACCOUNTS_POOL_KEY = "*accounts";
export const PAID_POOL_KEY = "*paid";
/** reporter_weights keys of unpaid accounts' counted successes and failures in an endpoint-hour (CAPS.accountFailureExcess). */
export const ACCOUNT_SUCCESSES_KEY = "*account_successes";
export const ACCOUNT_FAILURES_KEY = "*account_failures";

/** "paid" is not stored: a report counts as paid when its payment evidence is verified (the rollup decides). */
export type ReporterKind = "anonymous" | "authenticated" | "probe" | "paid_check";

/** Reporter kinds of Capdex's own checks: weighed at their stored weight, never capped, never a distinct caller. */
export const FIRST_PARTY_KINDS = ["probe", "paid_check"] as const;

export type Reporter = { kind: ReporterKind; key: string; userId: string | null; baseWeight: number };

/**
 * Who the report is counted against. Accounts are capped per user (all their keys together);
 * addresses are stored only as a keyed hash, never in the clear.
 */
export function reporterOf(principal: Principal): Reporter {
  if (principal.kind === "authenticated") {
    return { kind: "authenticated", key: `u:${principal.userId}`, userId: principal.userId, baseWeight: WEIGHTS.authenticated };
  }
  return { kind: "anonymous", key: anonymousReporterKey(principal.key), userId: null, baseWeight: WEIGHTS.anonymous };
}

/** The secret mixed into address hashes (AUTH_SECRET; a fixed string in development). */
export function reporterSecret(): string {
  return process.env.AUTH_SECRET || "capdex-reporter-key";
}

// The rollup computes the same hash in SQL (sha256 of secret|key, first 32 hex digits), to match an
// anonymous report to the discovery its caller received: keep the two in step (lib/outcomes/rollup.ts).
export function anonymousReporterKey(principalKey: string): string {
  return `a:${createHash("sha256").update(`${reporterSecret()}|${principalKey}`).digest("hex").slice(0, 32)}`;
}
