// Ranking one capability's candidates: score every endpoint, keep those that meet the constraints
// and are not failing, and explain the next-best alternatives as fallbacks.
import { EXCLUSION_REASONS, type FallbackEndpoint, type RankedEndpoint } from "@/lib/schemas/discover";
import { normalizeNetwork } from "@/lib/schemas/networks";
import type { Candidate } from "./candidates";
import { pickExplorer } from "./exploration";
import { computeFactors, computeReferences, round4, weighScore, type Factors, type Weights } from "./scoring";

export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];
export type Constraints = { max_price?: number; network?: string; verified_only?: boolean };
export type RankOptions = {
  capabilityId: string;
  weights: Weights;
  constraints?: Constraints;
  limit: number;
  includeFallbacks: boolean;
  /** Exploration window (lib/discovery/exploration.ts) and the share of windows that explore. */
  window: number;
  explorationRate: number;
};
export type Ranking = { ranked: RankedEndpoint[]; fallbacks: FallbackEndpoint[]; considered: number };

export const MAX_FALLBACKS = 5;

type Scored = { c: Candidate; out: RankedEndpoint; reasons: ExclusionReason[] };

/** An endpoint counts as verified when its probes pass and its domain record still stands. */
export function isVerified(c: Pick<Candidate, "checkState" | "domainVerified">): boolean {
  return c.checkState === "verified" && c.domainVerified;
}

/** Why the endpoint cannot be ranked under these constraints (empty: it can), in API.md's order. */
export function exclusionReasons(c: Candidate, constraints: Constraints | undefined): ExclusionReason[] {
  const found = new Set<ExclusionReason>();
  if (c.checkState === "failing") found.add("failed_recent_checks");
  if (constraints?.verified_only && !isVerified(c)) found.add("unverified");
  if (constraints?.max_price !== undefined && c.pricePerCall > constraints.max_price) found.add("over_max_price");
  if (constraints?.network !== undefined && (normalizeNetwork(c.network) ?? c.network) !== constraints.network) {
    found.add("network_mismatch");
  }
  return EXCLUSION_REASONS.filter((r) => found.has(r));
}

export function toRankedEndpoint(c: Candidate, factors: Factors, weights: Weights): RankedEndpoint {
  return {
    endpoint_id: c.id,
    provider_name: c.providerName,
    url: c.url,
    method: c.method,
    score: round4(weighScore(factors, weights)),
    verified: isVerified(c),
    payment: { type: c.paymentType, price_per_call: c.pricePerCall, network: c.network, accepted_assets: c.acceptedAssets },
    observed: {
      success_rate_7d: c.figures.success_rate_7d,
      p95_latency_ms: c.figures.p95_latency_ms,
      sample_size_7d: c.figures.sample_size_7d,
      last_verified_at: c.lastVerifiedAt,
    },
    score_breakdown: {
      success: round4(factors.success),
      latency: round4(factors.latency),
      price: round4(factors.price),
      stability: round4(factors.stability),
    },
  };
}

const byScore = (a: Scored, b: Scored) =>
  b.out.score - a.out.score || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0);

/** Every candidate scored, best first (ties by endpoint id), with its exclusion reasons. */
export function scoreCandidates(candidates: readonly Candidate[], opts: RankOptions): Scored[] {
  const refs = computeReferences(candidates);
  const explorer = pickExplorer(opts.capabilityId, candidates, opts.window, opts.explorationRate);
  return candidates
    .map((c) => ({
      c,
      out: toRankedEndpoint(c, computeFactors(c, refs, c.id === explorer), opts.weights),
      reasons: exclusionReasons(c, opts.constraints),
    }))
    .sort(byScore);
}

export function rankCandidates(candidates: readonly Candidate[], opts: RankOptions): Ranking {
  const scored = scoreCandidates(candidates, opts);
  const eligible = scored.filter((s) => s.reasons.length === 0);
  const ranked = eligible.slice(0, opts.limit).map((s) => s.out);
  if (!opts.includeFallbacks) return { ranked, fallbacks: [], considered: candidates.length };

  // Next best first: what the limit cut off, then failing endpoints that otherwise fit, and only when
  // nothing fits at all, the nearest misses (fewest unmet constraints, then score).
  const fallbacks: FallbackEndpoint[] = eligible
    .slice(opts.limit, opts.limit + MAX_FALLBACKS)
    .map((s) => ({ ...s.out, exclusion_reasons: ["beyond_limit"] }));
  const failing = scored.filter((s) => s.reasons.length === 1 && s.reasons[0] === "failed_recent_checks");
  const misses = eligible.length
    ? []
    : scored
        .filter((s) => s.reasons.length > 0 && !failing.includes(s))
        .sort((a, b) => a.reasons.length - b.reasons.length || byScore(a, b));
  for (const s of [...failing, ...misses]) {
    if (fallbacks.length >= MAX_FALLBACKS) break;
    fallbacks.push({ ...s.out, exclusion_reasons: s.reasons });
  }
  return { ranked, fallbacks, considered: candidates.length };
}
