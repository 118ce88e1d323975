// What any ranking could reach from a given number of reports: an ideal ranking that knows every
// endpoint's true latency, price and stability exactly, and estimates only the success rate, from
// the reports spread evenly over the capability's endpoints (each an API-key report tied to its
// discovery, weight 8), through the real success factor (prior included). Where it misses the truly
// best endpoint, the reports cannot tell the endpoints apart: failure rates within a factor of two
// or so of each other are not measurable from a few hundred calls, yet a log-scaled success factor
// weighs them. Computed at the start of the run (no outage yet).
import { successFactor } from "@/lib/discovery/scoring";
import { emptyFigures } from "@/lib/outcomes/figures";
import { WEIGHTS } from "@/lib/outcomes/weights";
import { RANKING_PRESETS, type RankingPreset } from "@/lib/schemas/discover";
import { CHECKPOINTS, hitsByPreset, Metrics, type Hits } from "./metrics";
import type { Network } from "./network";
import { uniform } from "./random";
import { PRESETS, type TruthBook } from "./truth";

const REPORT_WEIGHT = WEIGHTS.authenticated * WEIGHTS.discoveryBonus;

function factorOf(successes: number, total: number): number {
  const f = emptyFigures();
  f.weighted_total_7d = total;
  f.weighted_success_7d = successes;
  return successFactor(f);
}

/** Report counts beyond the run's checkpoints: how much traffic an ideal ranking needs for 95%. */
export const LONG_CHECKPOINTS = [5_000, 10_000, 20_000, 50_000, 200_000] as const;

export function ceilingOf(network: Network, truth: TruthBook, checkpoints: readonly number[] = CHECKPOINTS): Record<RankingPreset, Hits[]> {
  const m = new Metrics();
  const hits = hitsByPreset(checkpoints);
  for (const cap of network.capabilities) {
    const t = truth.at(cap, network.startMs);
    const exact = cap.endpoints.map((e) => factorOf((1 - e.failure) * 1e12, 1e12));
    checkpoints.forEach((n, k) => {
      const calls = Math.floor(n / cap.endpoints.length);
      const estimated = cap.endpoints.map((e) => {
        let failures = 0;
        for (let j = 0; j < calls; j++) if (uniform(network.seed, 90, cap.index, e.index, n, j) < e.failure) failures++;
        return factorOf((calls - failures) * REPORT_WEIGHT, calls * REPORT_WEIGHT);
      });
      for (const p of PRESETS) {
        const w = RANKING_PRESETS[p].success;
        const u = t.utility[p].map((x, i) => x - w * exact[i] + w * estimated[i]);
        const top = u.reduce((bi, x, i) => (x > u[bi] ? i : bi), 0);
        m.judge(hits[p][k], t, p, top);
      }
    });
  }
  return hits;
}
