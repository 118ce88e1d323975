// The truth the ranking is judged against: each preset's own utility, computed by Capdex's real
// scoring functions from an endpoint's true qualities instead of its observed figures (an exact
// success rate and p95 backed by a practically infinite sample, probes that say whether it is up
// now, daily success rates from its true outage history). The truly best endpoint of a capability
// for a preset is the one with the highest true utility.
import { computeFactors, computeReferences, weighScore, type ScoringInput, type Weights } from "@/lib/discovery/scoring";
import { emptyFigures } from "@/lib/outcomes/figures";
import { RANKING_PRESETS, type RankingPreset } from "@/lib/schemas/discover";
import { DAY, HOUR, isUp, trueSuccessOver, type TrueCapability, type TrueEndpoint } from "./network";

export const PRESETS = Object.keys(RANKING_PRESETS) as RankingPreset[];
const INFINITE = 1e12;

export type Truth = {
  /** Per preset: true utility of each endpoint (capability order) and the index of the best. */
  utility: Record<RankingPreset, number[]>;
  best: Record<RankingPreset, number>;
};

/** The endpoint's true qualities as scoring input: up or not at t, its daily history as of `dayRef`. */
function trueInput(e: TrueEndpoint, t: number, dayRef: number): ScoringInput {
  const up = isUp(e, t);
  const figures = emptyFigures();
  const rate = up ? 1 - e.failure : 0;
  figures.weighted_total_7d = INFINITE;
  figures.weighted_success_7d = rate * INFINITE;
  figures.sample_size_7d = INFINITE;
  figures.success_rate_7d = rate;
  figures.p95_latency_ms = e.p95;
  // Day 6 is the last 24 hours, as in ObservedFigures.daily_success.
  figures.daily_success = Array.from({ length: 7 }, (_, i) => trueSuccessOver(e, dayRef - (7 - i) * DAY, dayRef - (6 - i) * DAY));
  return {
    pricePerCall: e.price,
    checkState: up ? "verified" : "failing",
    lastCheckOk: up,
    consecutiveFailures: up ? 0 : 3,
    figures,
  };
}

export function utilityOf(weights: Weights, inputs: ScoringInput[]): number[] {
  const refs = computeReferences(inputs);
  return inputs.map((i) => weighScore(computeFactors(i, refs), weights));
}

/** The truth of each capability at a time, cached by hour and by which endpoints are up. */
export class TruthBook {
  private cache = new Map<number, Truth>();

  at(cap: TrueCapability, t: number): Truth {
    const hour = Math.floor(t / HOUR);
    let mask = 0;
    for (const e of cap.endpoints) mask = mask * 2 + (isUp(e, t) ? 1 : 0);
    const key = (hour * 128 + cap.index) * 256 + mask;
    let truth = this.cache.get(key);
    if (!truth) {
      // Daily history as of the hour (it changes slowly); whether each endpoint is up, at t itself.
      const inputs = cap.endpoints.map((e) => trueInput(e, t, hour * HOUR));
      const utility = {} as Truth["utility"];
      const best = {} as Truth["best"];
      // An endpoint in an outage serves nobody, however cheap: its utility is 0.
      const up = cap.endpoints.map((e) => isUp(e, t));
      for (const p of PRESETS) {
        const u = utilityOf(RANKING_PRESETS[p], inputs).map((x, i) => (up[i] ? x : 0));
        utility[p] = u;
        best[p] = u.reduce((bi, x, i) => (x > u[bi] ? i : bi), 0);
      }
      truth = { utility, best };
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(key, truth);
    }
    return truth;
  }
}
