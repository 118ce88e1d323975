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
  /** Reports by the account that owns the endpoint's provider. */
  ownProvider: 0,
  /**
   * Reports by an account that owns a provider with an endpoint of the same capability: a
   * competitor grades its rivals no more than itself.
   */
  competitor: 0,
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
} as const;

/** reporter_weights key of the shared anonymous allowance of an endpoint-hour. */
export const ANONYMOUS_POOL_KEY = "*anonymous";

export type ReporterKind = "anonymous" | "authenticated" | "probe";

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
