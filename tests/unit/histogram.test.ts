// The latency histogram: log-spaced buckets whose percentiles stay within 5% of the exact ones.
import { describe, expect, it } from "vitest";
import { BUCKET_COUNT, bucketBounds, bucketOf, mergeHistograms, quantileOf, type Histogram } from "@/lib/outcomes/histogram";
import { createRandom } from "@/lib/seed/random";

type Rnd = ReturnType<typeof createRandom>;
const normal = (r: Rnd) => Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());

const DISTRIBUTIONS: Record<string, (r: Rnd) => number> = {
  lognormal: (r) => 180 * Math.exp(0.6 * normal(r)),
  uniform: (r) => r.between(50, 5000),
  exponential: (r) => -300 * Math.log(1 - r.next()),
  bimodal: (r) => (r.next() < 0.9 ? 80 + 10 * normal(r) : 2000 + 300 * normal(r)),
  pareto: (r) => 40 / Math.pow(1 - r.next(), 1 / 1.5),
  "small integers": (r) => r.int(1, 20),
  constant: () => 137,
};

function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

function histogramOf(values: number[]): Histogram {
  const h: Histogram = {};
  for (const v of values) h[bucketOf(v)] = (h[bucketOf(v)] ?? 0) + 1;
  return h;
}

describe("buckets", () => {
  it("put every latency from 0 to 600000 ms inside its bucket's bounds", () => {
    const r = createRandom(1);
    for (let i = 0; i < 20_000; i++) {
      const v = Math.exp(r.between(0, Math.log(600_000)));
      const [lo, hi] = bucketBounds(bucketOf(v));
      expect(v >= lo && v < hi).toBe(true);
    }
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(0.5)).toBe(0);
    expect(bucketOf(600_000)).toBeLessThan(BUCKET_COUNT);
  });

  it("are at most 10% wide", () => {
    for (let i = 1; i < BUCKET_COUNT; i++) {
      const [lo, hi] = bucketBounds(i);
      expect(hi / lo).toBeCloseTo(1.1, 10);
    }
  });
});

describe("percentiles from the histogram", () => {
  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    it(`are within 5% of the exact p50, p95 and p99 (${name})`, () => {
      for (const seed of [1, 2, 3]) {
        const r = createRandom(seed * 97);
        const values = Array.from({ length: 5_000 }, () => Math.max(1, draw(r)));
        const hist = histogramOf(values);
        for (const q of [0.5, 0.95, 0.99]) {
          const exact = exactQuantile(values, q);
          const estimate = quantileOf(hist, q)!;
          expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.05);
        }
      }
    });
  }

  it("hold for small samples too", () => {
    const r = createRandom(5);
    for (let n = 1; n <= 60; n++) {
      const values = Array.from({ length: n }, () => r.between(1, 3000));
      const estimate = quantileOf(histogramOf(values), 0.95)!;
      expect(Math.abs(estimate - exactQuantile(values, 0.95)) / exactQuantile(values, 0.95)).toBeLessThan(0.05);
    }
  });

  it("weigh buckets by their weight, not their report count", () => {
    // 90 light reports at 100 ms, 10 heavy ones at 1000 ms: by weight the heavy ones are the majority.
    const h: Histogram = { [bucketOf(100)]: 90 * 0.5, [bucketOf(1000)]: 10 * 8 };
    expect(quantileOf(h, 0.5)!).toBeGreaterThan(950);
  });

  it("are null for an empty histogram", () => {
    expect(quantileOf({}, 0.95)).toBeNull();
    expect(quantileOf({ "12": 0 }, 0.95)).toBeNull();
  });

  it("merge bucket by bucket", () => {
    const a: Histogram = { "3": 1, "10": 2 };
    expect(mergeHistograms(a, { "10": 3, "40": 1 })).toEqual({ "3": 1, "10": 5, "40": 1 });
    expect(mergeHistograms({ "1": 1 }, null)).toEqual({ "1": 1 });
  });
});
