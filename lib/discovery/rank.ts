// Ranking one capability's candidates: score every endpoint, keep those that meet the constraints
// and are not failing, let exploration move one new endpoint up (never to first place over an
// established record), and explain the next-best alternatives as fallbacks.
import type { EXCLUSION_REASONS, FallbackEndpoint, RankedEndpoint } from "@/lib/schemas/discover";
import type { Candidate } from "./candidates";
import { pickExplorer, placeExplorer } from "./exploration";
import { meetsNetwork } from "./networks";
import { computeFactors, computeReferences, round4, weighScore, type Factors, type Weights } from "./scoring";

export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];
export type Constraints = {
  max_price?: number;
  network?: string;
  verified_only?: boolean;
  /** lower-case symbol or contract address */
  asset?: string;
  /** lower-case x402 scheme */
  scheme?: string;
  callable?: boolean;
};
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
export type Ranking = { ranked: RankedEndpoint[]; fallbacks: FallbackEndpoint[]; considered: number; explored: number };

export const MAX_FALLBACKS = 5;

type Scored = { c: Candidate; out: RankedEndpoint; reasons: readonly ExclusionReason[] };

/**
 * A submitted endpoint whose domain record has gone (it may have changed hands). Imported endpoints
 * have no record until their provider claims them: that is not a loss.
 */
export function isDomainLost(c: Pick<Candidate, "domainVerified" | "source">): boolean {
  return !c.domainVerified && c.source === "submission";
}

/** `verified`: the endpoint's last probe passed (and, for a submission, its domain record still stands). */
export function isVerified(c: Pick<Candidate, "checkState" | "domainVerified" | "source">): boolean {
  return c.checkState === "verified" && !isDomainLost(c);
}

const NONE: readonly ExclusionReason[] = Object.freeze([]);

/** Why the endpoint cannot be ranked under these constraints (empty: it can), in API.md's order. */
export function exclusionReasons(c: Candidate, constraints: Constraints | undefined): readonly ExclusionReason[] {
  const failing = c.checkState === "failing";
  // A domain whose TXT record has gone may have changed hands: never ranked until it is back.
  const domainLost = isDomainLost(c);
  if (!constraints && !failing && !domainLost) return NONE;
  const out: ExclusionReason[] = [];
  if (failing) out.push("failed_recent_checks");
  // verified_only: both facts, the probes' and the domain's (API.md, version 0.2).
  if (domainLost || (constraints?.verified_only && !(isVerified(c) && c.domainVerified))) out.push("unverified");
  if (constraints?.max_price !== undefined && c.pricePerCall > constraints.max_price) out.push("over_max_price");
  // Free endpoints take no payment, so no network excludes them (API.md, version 0.3).
  if (constraints?.network !== undefined && !meetsNetwork(c, constraints.network)) out.push("network_mismatch");
  if (constraints?.asset !== undefined && !c.assetKeys.includes(constraints.asset)) out.push("asset_mismatch");
  if (constraints?.scheme !== undefined && !c.schemes.includes(constraints.scheme)) out.push("scheme_mismatch");
  if (constraints?.callable && !c.call) out.push("not_callable");
  return out.length ? out : NONE;
}

export function toRankedEndpoint(c: Candidate, factors: Factors, weights: Weights): RankedEndpoint {
  return {
    endpoint_id: c.id,
    provider_name: c.providerName,
    url: c.url,
    method: c.method,
    score: round4(weighScore(factors, weights)),
    verified: isVerified(c),
    domain_verified: c.domainVerified,
    source: c.source,
    payment: { type: c.paymentType, price_per_call: c.pricePerCall, network: c.network, networks: c.networks, accepted_assets: c.acceptedAssets },
    observed: {
      success_rate_7d: c.figures.success_rate_7d,
      p95_latency_ms: c.figures.p95_latency_ms,
      sample_size_7d: c.figures.sample_size_7d,
      distinct_reporters_7d: c.figures.distinct_reporters_7d,
      paid_reports_7d: c.figures.paid_reports_7d,
      distinct_payers_7d: c.figures.distinct_payers_7d,
      last_verified_at: c.lastVerifiedAt,
      delivery: deliveryOf(c.delivery),
    },
    score_breakdown: {
      success: round4(factors.success),
      latency: round4(factors.latency),
      price: round4(factors.price),
      stability: round4(factors.stability),
    },
    ...(c.call ? { call: c.call } : {}),
    page: endpointPagePath(c.id),
  };
}

/** observed.delivery from the stored summary (lib/paid-checks): null before the first paid call. */
export function deliveryOf(d: Candidate["delivery"]): RankedEndpoint["observed"]["delivery"] {
  if (!d || !(d.checks > 0)) return null;
  return {
    checks: d.checks,
    delivered_share: Math.round((d.delivered / d.checks) * 10_000) / 10_000,
    last_check_at: d.last_check_at,
    last_verdict: d.last_verdict as "delivered" | "wrong_output" | "paid_not_delivered",
  };
}

/** The endpoint's page in the portal (API.md, version 0.3). */
export function endpointPagePath(endpointId: string): string {
  return `/endpoints/${endpointId}`;
}

const byScore = (a: Scoring, b: Scoring) =>
  b.out.score - a.out.score || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0);

// Scores depend on the candidates and the weights, not on the constraints or on exploration, so one
// scored list per cached candidate set and weighting serves every request until either changes.
// The entries are frozen: callers share them.
// On globalThis: the discover route, the x402 routes and the start-up code (which builds the x402
// catalogue) are bundled apart, each with its own copy of this module; with the memo per copy,
// the same 100,000 default-weight scorings were held once per bundle.
type Scoring = { c: Candidate; out: RankedEndpoint };
const sharedMemo = globalThis as unknown as { __capdexScorings?: WeakMap<readonly Candidate[], Map<string, Scoring[]>> };
const memo = (sharedMemo.__capdexScorings ??= new WeakMap());
const MAX_WEIGHTINGS = 16;

function scored(candidates: readonly Candidate[], w: Weights): Scoring[] {
  const key = `${w.success}|${w.latency}|${w.price}|${w.stability}`;
  let byKey = memo.get(candidates);
  if (!byKey) memo.set(candidates, (byKey = new Map()));
  let list = byKey.get(key);
  if (!list) {
    const refs = computeReferences(candidates);
    list = candidates.map((c) => ({ c, out: freeze(toRankedEndpoint(c, computeFactors(c, refs), w)) })).sort(byScore);
    if (byKey.size >= MAX_WEIGHTINGS) byKey.clear();
    byKey.set(key, list);
  }
  return list;
}

function freeze(e: RankedEndpoint): RankedEndpoint {
  Object.freeze(e.payment.accepted_assets);
  Object.freeze(e.payment.networks);
  Object.freeze(e.payment);
  if (e.observed.delivery) Object.freeze(e.observed.delivery);
  Object.freeze(e.observed);
  Object.freeze(e.score_breakdown);
  return Object.freeze(e);
}

/** Every candidate scored, best first (ties by endpoint id), with its exclusion reasons; no exploration. */
export function scoreCandidates(candidates: readonly Candidate[], opts: Pick<RankOptions, "weights" | "constraints">): Scored[] {
  return scored(candidates, opts.weights).map((s) => ({ ...s, reasons: exclusionReasons(s.c, opts.constraints) }));
}

/**
 * ranked: what meets the constraints, best first, up to limit, after exploration has moved at most
 * one new endpoint up (lib/discovery/exploration.ts; that entry says `exploration: true`). fallbacks,
 * next best first: what the limit cut off, then failing endpoints that otherwise fit, and only when
 * nothing fits at all, the nearest misses (fewest unmet constraints, then score).
 */
export function rankCandidates(candidates: readonly Candidate[], opts: RankOptions): Ranking {
  const fit: Scoring[] = [];
  const failing: FallbackEndpoint[] = [];
  const misses: Array<{ s: Scoring; reasons: readonly ExclusionReason[] }> = [];
  for (const s of scored(candidates, opts.weights)) {
    const reasons = exclusionReasons(s.c, opts.constraints);
    if (reasons.length === 0) {
      fit.push(s);
    } else if (!opts.includeFallbacks) {
      continue;
    } else if (reasons.length === 1 && (reasons[0] === "failed_recent_checks" || (reasons[0] === "unverified" && isDomainLost(s.c)))) {
      if (failing.length < MAX_FALLBACKS) failing.push({ ...s.out, exclusion_reasons: [reasons[0]] });
    } else {
      misses.push({ s, reasons });
    }
  }
  const placed = placeExplorer(fit, pickExplorer(opts.capabilityId, candidates, opts.window, opts.explorationRate));
  const entry = (s: Scoring, i: number): RankedEndpoint => (i === placed ? { ...s.out, exploration: true } : s.out);
  const ranked = fit.slice(0, opts.limit).map(entry);
  const fallbacks: FallbackEndpoint[] = [];
  if (opts.includeFallbacks) {
    for (let i = opts.limit; i < fit.length && fallbacks.length < MAX_FALLBACKS; i++) {
      fallbacks.push({ ...entry(fit[i], i), exclusion_reasons: ["beyond_limit"] });
    }
    fallbacks.push(...failing);
  }
  if (!ranked.length && misses.length && fallbacks.length < MAX_FALLBACKS) {
    misses.sort((a, b) => a.reasons.length - b.reasons.length || byScore(a.s, b.s));
    for (const m of misses.slice(0, MAX_FALLBACKS - fallbacks.length)) fallbacks.push({ ...m.s.out, exclusion_reasons: [...m.reasons] });
  }
  const shown = fallbacks.slice(0, MAX_FALLBACKS);
  const explored = [...ranked, ...shown].filter((e) => e.exploration).length;
  return { ranked, fallbacks: shown, considered: candidates.length, explored };
}
