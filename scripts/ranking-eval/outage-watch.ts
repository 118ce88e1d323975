// Follows every outage of an endpoint that was first for some preset when the outage began: when
// it stopped being first (and after how many honest reports about it), and, if it is truly best
// again once the outage is over, when it was first again.
import type { RankingPreset } from "@/lib/schemas/discover";
import type { Metrics, OutageRecord } from "./metrics";
import type { Network, Outage, TrueCapability } from "./network";
import { PRESETS, type TruthBook } from "./truth";

type Tracker = {
  cap: TrueCapability;
  e: number;
  outage: Outage;
  preset: RankingPreset;
  reportsAtStart: number;
  phase: "down" | "ended" | "regain" | "done";
  record: OutageRecord;
};

export class OutageWatch {
  private upcoming: Array<{ cap: TrueCapability; e: number; outage: Outage }>;
  private active: Tracker[] = [];

  constructor(
    network: Network,
    private metrics: Metrics,
    private topOf: (cap: TrueCapability, preset: RankingPreset, now: number) => number,
    private truth: TruthBook,
    private reportsOf: (cap: number, e: number) => number,
  ) {
    this.upcoming = network.capabilities
      .flatMap((cap) => cap.endpoints.flatMap((ep) => ep.outages.map((outage) => ({ cap, e: ep.index, outage }))))
      .sort((a, b) => a.outage.start - b.outage.start);
  }

  /** At the end of a step (time `to`): start following outages that begin within the next step, then advance the others. */
  step(to: number, stepMs: number): void {
    for (const tr of this.active) this.advance(tr, to);
    this.active = this.active.filter((tr) => tr.phase !== "done");
    while (this.upcoming.length && this.upcoming[0].outage.start < to + stepMs) {
      const { cap, e, outage } = this.upcoming.shift()!;
      if (outage.start < to) continue;
      for (const preset of PRESETS) {
        if (this.topOf(cap, preset, to) !== e) continue;
        const record: OutageRecord = { capability: cap.id, endpoint: e, preset, kind: outage.kind, durationMs: outage.end - outage.start, leftAfterMs: null, reportsBeforeLeaving: null };
        this.metrics.outages.push(record);
        this.active.push({ cap, e, outage, preset, reportsAtStart: this.reportsOf(cap.index, e), phase: "down", record });
      }
    }
  }

  /** Outages still followed at the end of the run: not left, or not regained, within it. */
  finish(): void {
    for (const tr of this.active) if (tr.phase === "regain") tr.record.regainedAfterMs = null;
    this.active = [];
  }

  private advance(tr: Tracker, to: number): void {
    const { cap, e, outage, preset } = tr;
    if (tr.phase === "down") {
      if (this.topOf(cap, preset, to) !== e) {
        tr.record.leftAfterMs = to - outage.start;
        tr.record.reportsBeforeLeaving = this.reportsOf(cap.index, e) - tr.reportsAtStart;
        tr.phase = "ended";
      } else if (to >= outage.end) {
        tr.phase = "ended";
      }
    }
    if (tr.phase === "ended" && to >= outage.end) {
      if (this.truth.at(cap, to).best[preset] !== e) {
        tr.phase = "done";
        return;
      }
      tr.phase = "regain";
    }
    if (tr.phase === "regain" && this.topOf(cap, preset, to) === e) {
      tr.record.regainedAfterMs = to - outage.end;
      tr.phase = "done";
    }
  }
}
