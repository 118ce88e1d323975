// The four ranking factors (success, latency, price, stability), each in [0,1], and the score that
// weighs them. Pure functions of an endpoint's figures and its capability's other endpoints.
import type { ObservedFigures } from "@/lib/outcomes/figures";

export type Weights = { success: number; latency: number; price: number; stability: number };
/** The four factors, and the share of the score an endpoint keeps while it may be down (default 1). */
export type Factors = Weights & { availability?: number };

/** What scoring needs to know about one endpoint. */
export type ScoringInput = {
  pricePerCall: number;
  checkState: string;
  lastCheckOk: boolean | null;
  consecutiveFailures: number;
  figures: ObservedFigures;
  /** The paid test calls' summary (lib/paid-checks): only its last verdict is read here. */
  delivery?: { last_verdict: string } | null;
};

/** The capability-wide references the relative factors compare against. */
export type References = { bestP95: number | null; cheapest: number };

// Success: Beta prior worth PRIOR_WEIGHT units of report weight (5 API-key reports, under 7 probes)
// at PRIOR_MEAN, so 3/3 (0.83) stays below 970/1000 (0.97); then scored on the failure rate, log-scaled: each tenfold rise in failures from 0.1% costs 1/3.
export const SUCCESS_PRIOR_MEAN = 0.8;
export const SUCCESS_PRIOR_WEIGHT = 20;
export const FAILURE_FLOOR = 0.001;
// Chance variation of a rate depends on how many reports it rests on. Reports are counted from their
// weight, about this much each (a plain API-key report; probes weigh 3, discovery-tied reports 8),
// never from sample_size_7d: reports of no weight (anonymous, over a cap) would make it what anyone likes.
export const WEIGHT_PER_REPORT = 4;
// Incidents: a day below the median day by this many standard deviations of its rate is an incident
// (with at least this many days of data, and a floor on the variance so that an endpoint with no
// failures at all does not make every single failure an incident).
export const INCIDENT_SIGMAS = 4;
export const INCIDENT_MIN_DAYS = 3;
export const INCIDENT_MIN_VARIANCE = 0.002;
// Latency: each doubling of p95 over the fastest endpoint costs 1/5; 32x slower scores 0.
export const LATENCY_RANGE = 32;
export const LATENCY_PRIOR = 0.5;
export const LATENCY_PRIOR_WEIGHT = 5;
/** Endpoints with fewer weighted reports cannot set the fastest p95 (one lucky call is not a record). */
export const LATENCY_REFERENCE_MIN_WEIGHT = 5;
// Price: log-scaled against the cheapest; 100x the cheapest scores 0. PRICE_FLOOR keeps free ones finite.
export const PRICE_RANGE = 100;
export const PRICE_FLOOR_USD = 0.001;
// Stability: day-to-day variation beyond binomial noise, blended with the probe state.
export const CONSISTENCY_PRIOR = 0.7;
export const CONSISTENCY_PRIOR_DAYS = 2;
export const STABILITY_PROBE_SHARE = 0.4;

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * Smoothed 7-day success rate: the posterior mean under a Beta prior, with incidents that are over
 * discounted (settledSuccesses). `optimistic` (exploration) uses a prior mean of 1 instead, the
 * upper end of what the endpoint's short record allows.
 */
export function smoothedSuccess(f: ObservedFigures, optimistic = false): number {
  const mean = optimistic ? 1 : SUCCESS_PRIOR_MEAN;
  return clamp01((settledSuccesses(f) + SUCCESS_PRIOR_WEIGHT * mean) / (f.weighted_total_7d + SUCCESS_PRIOR_WEIGHT));
}

/**
 * Weighted successes, with an incident that is over counted at the endpoint's typical rate: an
 * earlier day of the week whose success rate lies further below the median day than chance allows
 * (INCIDENT_SIGMAS standard deviations of a day's rate at the week's rate), while the last 24 hours
 * are back to typical. An outage of an hour would otherwise weigh on the success factor for a week after it
 * ended; once over, it counts in the stability factor (consistency), not twice. While the last day
 * is itself low, nothing is discounted: a degradation that persists is not an incident that is over.
 * Days are assumed to carry equal weight (figures hold each day's rate, not its weight).
 */
export function settledSuccesses(f: ObservedFigures): number {
  const days = f.daily_success;
  const today = days[6];
  let known = 0;
  for (const d of days) if (d !== null) known++;
  if (today === null || known < INCIDENT_MIN_DAYS || !(f.weighted_total_7d > 0)) return f.weighted_success_7d;
  const typical = median(days.filter((d): d is number => d !== null));
  const perDay = f.weighted_total_7d / known;
  // Chance variation from the week's overall rate, which (unlike the median day) keeps the failures
  // a quiet endpoint's few reports do show.
  const overall = f.weighted_success_7d / f.weighted_total_7d;
  const spread = Math.max(overall * (1 - overall), INCIDENT_MIN_VARIANCE);
  const tolerance = INCIDENT_SIGMAS * Math.sqrt((spread * WEIGHT_PER_REPORT) / perDay);
  if (today < typical - tolerance) return f.weighted_success_7d;
  let settled = f.weighted_success_7d;
  for (let i = 0; i < 6; i++) {
    const d = days[i];
    if (d !== null && d < typical - tolerance) settled += (typical - d) * perDay;
  }
  return Math.min(settled, f.weighted_total_7d);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The success factor: the smoothed failure rate on a log scale, because 90% and 99.5% success differ
 * twentyfold in failed calls, not by a tenth. 0.1% failures or fewer score 1, 1% 0.67, 10% 0.33, all 0.
 */
export function successFactor(f: ObservedFigures, optimistic = false): number {
  const failure = Math.max(FAILURE_FLOOR, 1 - smoothedSuccess(f, optimistic));
  return clamp01(1 - Math.log10(failure / FAILURE_FLOOR) / -Math.log10(FAILURE_FLOOR));
}

/** p95 against the capability's fastest, log-scaled, smoothed toward a prior by sample size. */
export function latencyFactor(f: ObservedFigures, bestP95: number | null, optimistic = false): number {
  const prior = optimistic ? 1 : LATENCY_PRIOR;
  if (f.p95_latency_ms === null || bestP95 === null) return prior;
  const ratio = Math.max(1, f.p95_latency_ms) / Math.max(1, bestP95);
  const raw = clamp01(1 - Math.log(ratio) / Math.log(LATENCY_RANGE));
  const n = f.weighted_total_7d;
  return clamp01((n * raw + LATENCY_PRIOR_WEIGHT * prior) / (n + LATENCY_PRIOR_WEIGHT));
}

/** Price against the cheapest candidate, log-scaled: 2x costs 0.15, 10x costs 0.5 (at prices well above PRICE_FLOOR). */
export function priceFactor(price: number, cheapest: number): number {
  const ratio = (Math.max(0, price) + PRICE_FLOOR_USD) / (Math.max(0, cheapest) + PRICE_FLOOR_USD);
  return clamp01(1 - Math.log(Math.max(1, ratio)) / Math.log(PRICE_RANGE));
}

/**
 * Consistency of the daily success rates over the week: their spread beyond what chance explains
 * for that many reports a day (a quiet endpoint's days are noisy without being unstable).
 */
export function consistency(f: ObservedFigures): number {
  const days = f.daily_success.filter((d): d is number => d !== null);
  if (days.length < 2) return CONSISTENCY_PRIOR;
  const mean = days.reduce((s, d) => s + d, 0) / days.length;
  const variance = days.reduce((s, d) => s + (d - mean) ** 2, 0) / days.length;
  const perDay = Math.max(1, f.weighted_total_7d / WEIGHT_PER_REPORT / days.length);
  const noise = (mean * (1 - mean)) / perDay;
  const raw = clamp01(1 - 3 * Math.sqrt(Math.max(0, variance - noise)));
  return (days.length * raw + CONSISTENCY_PRIOR_DAYS * CONSISTENCY_PRIOR) / (days.length + CONSISTENCY_PRIOR_DAYS);
}

/** Recent probe state: passing 1, failing 0, unverified in between, lower after each failed probe. */
export function probeFactor(e: Pick<ScoringInput, "checkState" | "lastCheckOk" | "consecutiveFailures">): number {
  if (e.checkState === "verified") return 1;
  if (e.checkState === "failing") return 0;
  if (e.lastCheckOk === true) return 0.7;
  if (e.lastCheckOk === null) return 0.5;
  return Math.max(0.1, 0.5 - 0.15 * e.consecutiveFailures);
}

export function stabilityFactor(e: ScoringInput): number {
  return clamp01((1 - STABILITY_PROBE_SHARE) * consistency(e.figures) + STABILITY_PROBE_SHARE * probeFactor(e));
}

/** References over every candidate of the capability, so constraints never change anyone's score. */
export function computeReferences(candidates: ReadonlyArray<Pick<ScoringInput, "pricePerCall" | "figures">>): References {
  let cheapest = Infinity;
  let bestP95: number | null = null;
  let anyP95: number | null = null;
  for (const c of candidates) {
    cheapest = Math.min(cheapest, c.pricePerCall);
    const p95 = c.figures.p95_latency_ms;
    if (p95 === null) continue;
    anyP95 = anyP95 === null ? p95 : Math.min(anyP95, p95);
    if (c.figures.weighted_total_7d >= LATENCY_REFERENCE_MIN_WEIGHT) bestP95 = bestP95 === null ? p95 : Math.min(bestP95, p95);
  }
  return { bestP95: bestP95 ?? anyP95, cheapest: Number.isFinite(cheapest) ? cheapest : 0 };
}

/**
 * The share of its score an endpoint keeps while its latest probe failed. A total outage shows in
 * the first probe after it begins (every PROBE_INTERVAL_SECONDS, 10 minutes), long before a week of
 * reports moves, and an endpoint that is down is worth nothing to a caller, however cheap or fast:
 * so the whole score is scaled, not one factor. Each further failure quarters it again; a passing
 * probe restores it; from the third failure the endpoint is not ranked at all (failed_recent_checks).
 */
export const FAILED_PROBE_SHARE = 0.25;

/**
 * The share of its score an endpoint keeps while Capdex's last paid test call of it (lib/paid-checks)
 * was paid for and not delivered, or delivered the wrong output. Probes only ask for the 402; a
 * seller that answers it correctly and takes the money for nothing passes every probe, and its
 * week of reports may be long: the whole score is scaled, as for a failed probe, until a paid call
 * is delivered again (docs/ranking.md).
 */
export const FAILED_DELIVERY_SHARE = 0.25;

/** Capdex's last paid call of the endpoint was paid for and not delivered, or got the wrong output. */
export function lastPaidCallFailed(e: Pick<ScoringInput, "delivery">): boolean {
  const verdict = e.delivery?.last_verdict;
  return verdict === "paid_not_delivered" || verdict === "wrong_output";
}

export function availabilityShare(e: Pick<ScoringInput, "lastCheckOk" | "consecutiveFailures" | "delivery">): number {
  const probe = e.lastCheckOk === false ? Math.pow(FAILED_PROBE_SHARE, Math.max(1, e.consecutiveFailures)) : 1;
  return lastPaidCallFailed(e) ? probe * FAILED_DELIVERY_SHARE : probe;
}

export function computeFactors(e: ScoringInput, refs: References, optimistic = false): Factors {
  return {
    success: successFactor(e.figures, optimistic),
    latency: latencyFactor(e.figures, refs.bestP95, optimistic),
    price: priceFactor(e.pricePerCall, refs.cheapest),
    stability: stabilityFactor(e),
    availability: availabilityShare(e),
  };
}

/** Weighted sum of the factors (weights sum to 1, so the score stays in [0,1]), times availability. */
export function weighScore(f: Factors, w: Weights): number {
  return clamp01((f.success * w.success + f.latency * w.latency + f.price * w.price + f.stability * w.stability) * (f.availability ?? 1));
}

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
