// The ranking evaluation (npm run eval:ranking, docs/ranking.md) at a small size, as a regression
// test: one seed, 12 capabilities, two simulated days at 45 honest calls an hour (so each reaches
// 2,000 reports), Capdex's ranking, the random-order baseline and five of the listed adversaries
// (the first three, 100 fresh accounts, and a rival paying for real calls to report them failed).
// The bounds are looser than the full evaluation's targets: 12 capabilities are a small sample.
import { describe, expect, it } from "vitest";
import { CHECKPOINTS, nearShare } from "@/scripts/ranking-eval/metrics";
import { checkTargets } from "@/scripts/ranking-eval/report";
import { runEvaluation, type EvalResult } from "@/scripts/ranking-eval/run";
import { PRESETS } from "@/scripts/ranking-eval/truth";

// One run, shared by the tests below.
let pending: Promise<EvalResult> | undefined;
const evaluation = () =>
  (pending ??= runEvaluation({ seeds: [1], capabilities: 12, days: 2, callsPerHour: 45, adversaries: ["sybil_promoter", "false_failures", "burst", "burst_accounts_100", "paid_false_failures"] }));

describe("the ranking, measured against the truth (small evaluation)", () => {
  it("puts a truly best or near-best endpoint first in most capabilities after 2,000 reports", async () => {
    const r = await evaluation();
    const last = CHECKPOINTS.length - 1;
    const near = PRESETS.map((p) => nearShare(r.policies.capdex.checkpoints[p][last]));
    expect(Math.min(...near)).toBeGreaterThanOrEqual(0.58);
    expect(near.reduce((s, x) => s + x, 0) / near.length).toBeGreaterThanOrEqual(0.75);
    // And far more often than a random order does.
    const random = PRESETS.map((p) => nearShare(r.policies.random.checkpoints[p][last]));
    expect(near.reduce((s, x) => s + x, 0)).toBeGreaterThan(2 * random.reduce((s, x) => s + x, 0));
  }, 120_000);

  it("gets agents at least 95% of an oracle's success, and takes an endpoint in an outage out of first place within 15 minutes", async () => {
    const r = await evaluation();
    for (const p of PRESETS) expect(r.policies.capdex.agents[p].first / r.policies.capdex.agents[p].oracle).toBeGreaterThanOrEqual(0.95);
    expect(r.policies.capdex.outages.length).toBeGreaterThan(3);
    const targets = checkTargets(r);
    expect(targets.find((t) => t.name.startsWith("slowest exit"))?.ok).toBe(true);
  }, 120_000);

  it("lets none of the listed adversaries move any capability's first place in any hour", async () => {
    const r = await evaluation();
    expect(r.attacks.map((a) => [a.adversary, a.pairsMovedOnce])).toEqual([
      ["sybil_promoter", 0],
      ["false_failures", 0],
      ["burst", 0],
      ["burst_accounts_100", 0],
      ["paid_false_failures", 0],
    ]);
    expect(r.attacks.every((a) => a.samples > 500)).toBe(true);
    // The rival really paid: real calls at B1's price, reported with their settlement.
    const rival = r.attacks.find((a) => a.adversary === "paid_false_failures")!;
    expect(rival.paidReports).toBeGreaterThan(500);
    expect(rival.attackUsd).toBeGreaterThan(0);
  }, 120_000);
});
