// What a simulated world measures: the ranking's top against the truth at report-count checkpoints
// and every hour, the agents' success against an oracle's, and how fast an endpoint in an outage
// leaves first place and regains it.
import type { RankingPreset } from "@/lib/schemas/discover";
import { PRESETS, type Truth } from "./truth";

export const CHECKPOINTS = [100, 500, 2_000] as const;
/** Utility within this of the best counts as "near best" (a tie no sample of this size can break). */
export const NEAR = 0.01;

export type Hits = { n: number; best: number; near: number; gap: number };
export type AgentTally = { calls: number; first: number; oracle: number; eventual: number; gap: number };
export type OutageRecord = {
  capability: string;
  endpoint: number;
  preset: RankingPreset;
  kind: "hour" | "day";
  durationMs: number;
  /** ms from the outage's start until it was no longer first (null: it stayed first to the end). */
  leftAfterMs: number | null;
  /** Honest reports about it between the start and that moment. */
  reportsBeforeLeaving: number | null;
  /** ms from the outage's end until first again, when truly best again (null: not within the run; undefined: not best). */
  regainedAfterMs?: number | null;
};

const emptyHits = (): Hits => ({ n: 0, best: 0, near: 0, gap: 0 });
const byPreset = <T>(make: () => T) => Object.fromEntries(PRESETS.map((p) => [p, make()])) as Record<RankingPreset, T>;
/** Empty tallies per preset, one per report count. */
export const hitsByPreset = (counts: readonly number[]) => byPreset(() => counts.map(emptyHits));

export class Metrics {
  checkpoints = hitsByPreset(CHECKPOINTS);
  /** In a baseline's world: Capdex's ranking of the reports the baseline's agents produced. */
  capdexView = hitsByPreset(CHECKPOINTS);
  /** Hourly samples per preset and day of the run. */
  hourly = byPreset(() => [] as Hits[]);
  agents = byPreset((): AgentTally => ({ calls: 0, first: 0, oracle: 0, eventual: 0, gap: 0 }));
  outages: OutageRecord[] = [];

  judge(into: Hits, truth: Truth, preset: RankingPreset, top: number): void {
    const u = truth.utility[preset];
    const best = u[truth.best[preset]];
    into.n++;
    if (top === truth.best[preset]) into.best++;
    if (u[top] >= best - NEAR) into.near++;
    into.gap += best - u[top];
  }

  hourlyFor(preset: RankingPreset, day: number): Hits {
    const list = this.hourly[preset];
    while (list.length <= day) list.push(emptyHits());
    return list[day];
  }
}

export const share = (h: Hits) => (h.n ? h.best / h.n : NaN);
export const nearShare = (h: Hits) => (h.n ? h.near / h.n : NaN);

export function sumHits(list: Hits[]): Hits {
  return list.reduce((a, h) => ({ n: a.n + h.n, best: a.best + h.best, near: a.near + h.near, gap: a.gap + h.gap }), emptyHits());
}
