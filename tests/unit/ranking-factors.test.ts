import { describe, expect, it } from "vitest";
import {
  availabilityShare,
  computeFactors,
  computeReferences,
  FAILED_PROBE_SHARE,
  settledSuccesses,
  consistency,
  latencyFactor,
  priceFactor,
  probeFactor,
  stabilityFactor,
  smoothedSuccess,
  successFactor,
  SUCCESS_PRIOR_MEAN,
  weighScore,
} from "@/lib/discovery/scoring";
import { chooseWeights } from "@/lib/discovery/weights";
import { RANKING_PRESETS } from "@/lib/schemas/discover";
import { candidate, figures } from "./ranking-fixtures";

describe("success factor", () => {
  it("smooths by sample size so 3/3 stays below 970/1000", () => {
    const small = smoothedSuccess(figures({ ok: 3, total: 3 }));
    const large = smoothedSuccess(figures({ ok: 970, total: 1000 }));
    expect(small).toBeLessThan(large);
    expect(large).toBeCloseTo(0.969, 2);
    expect(small).toBeGreaterThan(SUCCESS_PRIOR_MEAN);
    expect(successFactor(figures({ ok: 3, total: 3 }))).toBeLessThan(successFactor(figures({ ok: 970, total: 1000 })));
  });

  it("gives an endpoint without reports the prior, neither 0 nor 1", () => {
    expect(smoothedSuccess(figures({}))).toBe(SUCCESS_PRIOR_MEAN);
    const f = successFactor(figures({}));
    expect(f).toBeGreaterThan(0);
    expect(f).toBeLessThan(1);
  });

  it("approaches the observed rate as reports accumulate, and a poor record stays poor", () => {
    expect(smoothedSuccess(figures({ ok: 5000, total: 10_000 }))).toBeCloseTo(0.5, 2);
    expect(smoothedSuccess(figures({ ok: 0, total: 3 }))).toBeLessThan(SUCCESS_PRIOR_MEAN);
    expect(smoothedSuccess(figures({ ok: 0, total: 3 }))).toBeGreaterThan(0.5);
  });

  it("scores failures on a log scale: a third per tenfold more failures", () => {
    const at = (rate: number) => successFactor(figures({ ok: rate * 1e7, total: 1e7 }));
    expect(at(0.9995)).toBe(1);
    expect(at(0.99)).toBeCloseTo(2 / 3, 2);
    expect(at(0.9)).toBeCloseTo(1 / 3, 2);
    expect(at(0)).toBeCloseTo(0, 5);
    // 99.5% against 90%: twentyfold fewer failures is a wide gap, not a tenth.
    expect(at(0.995) - at(0.9)).toBeGreaterThan(0.4);
  });

  it("is optimistic only when exploring", () => {
    expect(successFactor(figures({}), true)).toBe(1);
    expect(successFactor(figures({ ok: 1, total: 3 }), true)).toBeLessThan(1);
  });
});

describe("latency factor", () => {
  it("scores the fastest 1 (with enough reports) and loses a fifth per doubling, log-scaled", () => {
    const many = (p95: number) => figures({ ok: 1000, total: 1000, p95 });
    expect(latencyFactor(many(100), 100)).toBeCloseTo(1, 2);
    expect(latencyFactor(many(200), 100)).toBeCloseTo(0.8, 2);
    expect(latencyFactor(many(400), 100)).toBeCloseTo(0.6, 2);
    expect(latencyFactor(many(3200), 100)).toBeCloseTo(0, 2);
    expect(latencyFactor(many(99_999), 100)).toBeGreaterThanOrEqual(0);
  });

  it("gives an endpoint without latency data the prior, and shrinks a short record toward it", () => {
    expect(latencyFactor(figures({}), 100)).toBe(0.5);
    const short = latencyFactor(figures({ ok: 2, total: 2, p95: 100 }), 100);
    expect(short).toBeGreaterThan(0.5);
    expect(short).toBeLessThan(0.9);
  });

  it("takes its reference from endpoints with a real record, not from one lucky call", () => {
    const refs = computeReferences([
      { pricePerCall: 0.01, figures: figures({ ok: 1, total: 1, p95: 5 }) },
      { pricePerCall: 0.02, figures: figures({ ok: 100, total: 100, p95: 80 }) },
      { pricePerCall: 0.03, figures: figures({ ok: 100, total: 100, p95: 120 }) },
    ]);
    expect(refs).toEqual({ bestP95: 80, cheapest: 0.01 });
  });
});

describe("price factor", () => {
  it("scores the cheapest 1 and a 10x price about 0.5", () => {
    expect(priceFactor(0.01, 0.01)).toBe(1);
    expect(priceFactor(0.1, 0.01)).toBeCloseTo(0.5, 1);
    expect(priceFactor(0.02, 0.01)).toBeGreaterThan(priceFactor(0.05, 0.01));
  });

  it("copes with free endpoints and never leaves [0,1]", () => {
    expect(priceFactor(0, 0)).toBe(1);
    expect(priceFactor(0.001, 0)).toBeGreaterThan(0.8);
    expect(priceFactor(1000, 0)).toBe(0);
  });
});

describe("stability factor", () => {
  it("prefers steady days to a week that swings, beyond what chance explains", () => {
    const steady = figures({ ok: 900, total: 1000, days: [0.9, 0.91, 0.89, 0.9, 0.9, 0.91, 0.9] });
    const swinging = figures({ ok: 700, total: 1000, days: [0.99, 0.3, 0.98, 0.4, 0.99, 0.5, 0.99] });
    expect(consistency(steady)).toBeGreaterThan(0.9);
    expect(consistency(swinging)).toBeLessThan(0.5);
  });

  it("does not call a quiet endpoint unstable for noisy days", () => {
    // 2 reports a day: 0.5 and 1.0 are what chance gives at p = 0.75.
    const quiet = figures({ ok: 10, total: 14, days: [1, 0.5, 1, 0.5, 1, 0.5, 0.5] });
    expect(consistency(quiet)).toBeGreaterThan(0.85);
  });

  it("uses a prior with under two days of data, and counts the probe state", () => {
    expect(consistency(figures({}))).toBe(0.7);
    expect(probeFactor({ checkState: "verified", lastCheckOk: true, consecutiveFailures: 0 })).toBe(1);
    expect(probeFactor({ checkState: "failing", lastCheckOk: false, consecutiveFailures: 3 })).toBe(0);
    expect(probeFactor({ checkState: "unverified", lastCheckOk: null, consecutiveFailures: 0 })).toBe(0.5);
    expect(probeFactor({ checkState: "unverified", lastCheckOk: false, consecutiveFailures: 2 })).toBeCloseTo(0.2);
    const ok = stabilityFactor(candidate({ checkState: "verified" }));
    const failing = stabilityFactor(candidate({ checkState: "failing" }));
    expect(ok - failing).toBeCloseTo(0.4);
  });
});

describe("incidents that are over", () => {
  // A week of 7,000 units of weight a day, 1% failures; day 2 (index 2) lost 10% to an outage.
  const week = (days: number[]) => {
    const total = 7 * 7000;
    const ok = days.reduce((s, d) => s + d * 7000, 0);
    return figures({ ok, total, days });
  };
  const clean = week([0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99]);
  const outage = week([0.99, 0.99, 0.89, 0.99, 0.99, 0.99, 0.99]);

  it("counts an earlier day far below the typical one at the typical rate once the last day is back to normal", () => {
    expect(settledSuccesses(outage)).toBeCloseTo(clean.weighted_success_7d, 6);
    expect(successFactor(outage)).toBeCloseTo(successFactor(clean), 6);
    // The incident still shows where it belongs: in the stability factor.
    expect(consistency(outage)).toBeLessThan(consistency(clean) - 0.05);
  });

  it("discounts nothing while the last 24 hours are low too (a degradation that persists)", () => {
    const ongoing = week([0.99, 0.99, 0.89, 0.99, 0.99, 0.99, 0.89]);
    expect(settledSuccesses(ongoing)).toBe(ongoing.weighted_success_7d);
  });

  it("leaves days alone that differ by no more than chance, and short records alone", () => {
    const quiet = figures({ ok: 40, total: 42, days: [1, 1, 0.8, 1, 1, 1, 1] });
    expect(settledSuccesses(quiet)).toBe(quiet.weighted_success_7d);
    const short = figures({ ok: 900, total: 1000, days: [null, null, null, null, null, 0.8, 1] });
    expect(settledSuccesses(short)).toBe(short.weighted_success_7d);
  });

  it("reads how many reports a rate rests on from its weight, never from sample_size_7d", () => {
    const a = figures({ ok: 6930, total: 7000, days: [0.99, 0.98, 0.99, 1, 0.99, 0.98, 0.99] });
    const flooded = { ...a, sample_size_7d: 1_000_000 };
    expect(consistency(flooded)).toBe(consistency(a));
    expect(settledSuccesses(flooded)).toBe(settledSuccesses(a));
  });
});

describe("availability", () => {
  it("keeps a quarter of the whole score per failed probe in a row, all of it after a pass", () => {
    const w = RANKING_PRESETS.budget;
    const score = (spec: Parameters<typeof candidate>[0]) => {
      const c = candidate(spec);
      return weighScore(computeFactors(c, computeReferences([c])), w);
    };
    const up = score({ id: 1, ok: 990, total: 1000, checkState: "verified" });
    expect(availabilityShare({ lastCheckOk: true, consecutiveFailures: 0 })).toBe(1);
    expect(FAILED_PROBE_SHARE).toBe(0.25);
    const once = score({ id: 1, ok: 990, total: 1000, checkState: "unverified", lastCheckOk: false, consecutiveFailures: 1 });
    const probe = (n: number) => 0.6 * consistency(figures({ ok: 990, total: 1000 })) + 0.4 * n;
    // The stability factor drops with the probe state; the whole score is then scaled.
    expect(once).toBeCloseTo(0.25 * (up - 0.1 * (probe(1) - probe(0.35))), 3);
    expect(score({ id: 1, ok: 990, total: 1000, checkState: "unverified", lastCheckOk: false, consecutiveFailures: 2 })).toBeLessThan(once / 3);
  });
});

describe("weights", () => {
  it("uses the preset's weights, default when none is named", () => {
    expect(chooseWeights(undefined)).toEqual({ preset: "default", weights: RANKING_PRESETS.default });
    expect(chooseWeights({ ranking_preset: "speed" })).toEqual({ preset: "speed", weights: RANKING_PRESETS.speed });
    for (const w of Object.values(RANKING_PRESETS)) {
      expect(w.success + w.latency + w.price + w.stability).toBeCloseTo(1, 10);
    }
  });

  it("normalises custom weights to sum 1, missing ones counting 0, and they replace the preset", () => {
    const c = chooseWeights({ ranking_preset: "budget", weights: { success: 3, latency: 1 } });
    expect(c).toEqual({ preset: "custom", weights: { success: 0.75, latency: 0.25, price: 0, stability: 0 } });
    const thirds = chooseWeights({ weights: { success: 1, latency: 1, price: 1 } }).weights;
    expect(thirds.success).toBeCloseTo(1 / 3, 3);
  });

  it("refuses weights that are all zero", () => {
    expect(() => chooseWeights({ weights: { success: 0, latency: 0 } })).toThrowError(/weight/);
  });

  it("keeps the score in [0,1]", () => {
    const one = { success: 1, latency: 1, price: 1, stability: 1 };
    expect(weighScore(one, RANKING_PRESETS.balanced)).toBeCloseTo(1, 10);
    expect(weighScore({ success: 0, latency: 0, price: 0, stability: 0 }, RANKING_PRESETS.default)).toBe(0);
  });
});
