import { describe, expect, it } from "vitest";
import { rankCandidates, type RankOptions } from "@/lib/discovery/rank";
import { EXPLORATION_MAX_WEIGHT, hash01, pickExplorer } from "@/lib/discovery/exploration";
import { RANKING_PRESETS } from "@/lib/schemas/discover";
import { candidate, idOf } from "./ranking-fixtures";

const opts = (o: Partial<RankOptions> = {}): RankOptions => ({
  capabilityId: "weather.current",
  weights: RANKING_PRESETS.default,
  limit: 5,
  includeFallbacks: true,
  window: 1,
  explorationRate: 0,
  ...o,
});
const ids = (list: Array<{ endpoint_id: string }>) => list.map((e) => e.endpoint_id);

// Three honest trade-offs: reliable but slow and dear, fast, cheap.
const reliable = candidate({ id: 1, ok: 995, total: 1000, p95: 900, price: 0.05 });
const fast = candidate({ id: 2, ok: 900, total: 1000, p95: 60, price: 0.03 });
const cheap = candidate({ id: 3, ok: 920, total: 1000, p95: 700, price: 0.001 });
const trio = [cheap, fast, reliable];

describe("presets", () => {
  it("orders the same endpoints differently under reliability, speed and budget", () => {
    expect(ids(rankCandidates(trio, opts({ weights: RANKING_PRESETS.reliability })).ranked)[0]).toBe(idOf(1));
    expect(ids(rankCandidates(trio, opts({ weights: RANKING_PRESETS.speed })).ranked)[0]).toBe(idOf(2));
    expect(ids(rankCandidates(trio, opts({ weights: RANKING_PRESETS.budget })).ranked)[0]).toBe(idOf(3));
  });

  it("puts 970/1000 above 3/3 when all else is equal", () => {
    const proven = candidate({ id: 10, ok: 970, total: 1000, p95: 200 });
    const lucky = candidate({ id: 11, ok: 3, total: 3, p95: 200 });
    for (const weights of Object.values(RANKING_PRESETS)) {
      expect(ids(rankCandidates([lucky, proven], opts({ weights })).ranked)).toEqual([idOf(10), idOf(11)]);
    }
  });

  it("reports scores in [0,1], best first, consistent with the breakdown and weights", () => {
    const { ranked } = rankCandidates(trio, opts({ weights: RANKING_PRESETS.balanced }));
    const w = RANKING_PRESETS.balanced;
    for (const e of ranked) {
      const b = e.score_breakdown;
      expect(e.score).toBeGreaterThanOrEqual(0);
      expect(e.score).toBeLessThanOrEqual(1);
      expect(e.score).toBeCloseTo(b.success * w.success + b.latency * w.latency + b.price * w.price + b.stability * w.stability, 3);
    }
    expect(ranked.map((e) => e.score)).toEqual([...ranked.map((e) => e.score)].sort((a, b) => b - a));
  });
});

describe("ties and determinism", () => {
  it("breaks ties by endpoint id and gives the same answer for the same data", () => {
    const twins = [5, 3, 4].map((id) => candidate({ id, ok: 90, total: 100, p95: 100 }));
    const a = rankCandidates(twins, opts());
    expect(ids(a.ranked)).toEqual([idOf(3), idOf(4), idOf(5)]);
    expect(rankCandidates([...twins].reverse(), opts())).toEqual(a);
  });
});

describe("constraints and exclusion reasons", () => {
  const pool = [
    candidate({ id: 1, ok: 990, total: 1000, p95: 100, price: 0.01, network: "base" }),
    candidate({ id: 2, ok: 990, total: 1000, p95: 100, price: 0.5, network: "base" }),
    candidate({ id: 3, ok: 990, total: 1000, p95: 100, price: 0.01, network: "polygon" }),
    candidate({ id: 4, ok: 990, total: 1000, p95: 100, price: 0.01, checkState: "unverified" }),
    candidate({ id: 5, ok: 990, total: 1000, p95: 100, price: 0.01, checkState: "failing" }),
    candidate({ id: 6, ok: 980, total: 1000, p95: 100, price: 0.01 }),
  ];

  it("ranks only endpoints that meet every constraint and are not failing", () => {
    const r = rankCandidates(pool, opts({ constraints: { max_price: 0.1, network: "base", verified_only: true } }));
    expect(ids(r.ranked)).toEqual([idOf(1), idOf(6)]);
    expect(r.considered).toBe(6);
    // While others fit, endpoints that miss a constraint are not offered (a failing one is unverified too).
    expect(r.fallbacks).toEqual([]);
    const loose = rankCandidates(pool, opts({ constraints: { max_price: 0.1, network: "base" } }));
    expect(loose.fallbacks.map((f) => [f.endpoint_id, f.exclusion_reasons])).toEqual([[idOf(5), ["failed_recent_checks"]]]);
  });

  it("never ranks a failing endpoint, even without constraints", () => {
    const r = rankCandidates(pool, opts({ limit: 20 }));
    expect(ids(r.ranked)).not.toContain(idOf(5));
    expect(r.fallbacks.find((f) => f.endpoint_id === idOf(5))?.exclusion_reasons).toEqual(["failed_recent_checks"]);
  });

  it("offers what the limit cut off as beyond_limit, best first, then failing ones, at most 5", () => {
    const many = Array.from({ length: 12 }, (_, i) => candidate({ id: 100 + i, ok: 900 + i, total: 1000, p95: 100 }));
    const broken = candidate({ id: 200, checkState: "failing", ok: 1, total: 10 });
    const r = rankCandidates([...many, broken], opts({ limit: 3 }));
    expect(ids(r.ranked)).toEqual([idOf(111), idOf(110), idOf(109)]);
    expect(r.fallbacks.map((f) => f.endpoint_id)).toEqual([idOf(108), idOf(107), idOf(106), idOf(105), idOf(104)]);
    expect(r.fallbacks.every((f) => f.exclusion_reasons.join() === "beyond_limit")).toBe(true);
    const r2 = rankCandidates([...many.slice(0, 4), broken], opts({ limit: 3 }));
    expect(r2.fallbacks.map((f) => f.exclusion_reasons)).toEqual([["beyond_limit"], ["failed_recent_checks"]]);
  });

  it("when nothing meets the constraints, offers the nearest misses with their reasons", () => {
    const r = rankCandidates(pool, opts({ constraints: { max_price: 0.001, network: "solana" } }));
    expect(r.ranked).toEqual([]);
    expect(r.fallbacks).toHaveLength(5);
    for (const f of r.fallbacks) expect(f.exclusion_reasons.length).toBeGreaterThan(0);
    // id 3 (polygon, cheap enough? no) and the rest miss both price and network; the failing one misses three.
    const reasons = Object.fromEntries(r.fallbacks.map((f) => [f.endpoint_id, f.exclusion_reasons]));
    expect(reasons[idOf(1)]).toEqual(["over_max_price", "network_mismatch"]);
    expect(r.fallbacks.at(-1)?.exclusion_reasons.length).toBeGreaterThanOrEqual(r.fallbacks[0].exclusion_reasons.length);
    const single = rankCandidates(pool, opts({ constraints: { network: "solana" } }));
    expect(single.fallbacks.every((f) => f.exclusion_reasons.includes("network_mismatch"))).toBe(true);
    expect(single.fallbacks[0].exclusion_reasons).toEqual(["network_mismatch"]);
  });

  it("names each reason: over_max_price, network_mismatch, unverified", () => {
    const only = (c: ReturnType<typeof candidate>, constraints: RankOptions["constraints"]) =>
      rankCandidates([c], opts({ constraints })).fallbacks[0]?.exclusion_reasons;
    expect(only(pool[1], { max_price: 0.1 })).toEqual(["over_max_price"]);
    expect(only(pool[2], { network: "base" })).toEqual(["network_mismatch"]);
    expect(only(pool[3], { verified_only: true })).toEqual(["unverified"]);
    expect(only(candidate({ domainVerified: false }), { verified_only: true })).toEqual(["unverified"]);
    expect(only(pool[0], { max_price: 0.01, network: "base", verified_only: true })).toBeUndefined();
  });

  it("never excludes a free endpoint by network: it takes no payment, so it lists no network", () => {
    const free = candidate({ id: 40, ok: 95, total: 100, p95: 100, price: 0, network: "optimism" });
    const r = rankCandidates([free], opts({ constraints: { network: "base", max_price: 0.01 } }));
    expect(ids(r.ranked)).toEqual([idOf(40)]);
    expect(r.ranked[0].payment.price_per_call).toBe(0);
    expect(r.ranked[0].payment.networks).toEqual([]);
    expect(r.ranked[0].payment.network).toBe("optimism");
  });

  it("keeps an endpoint that accepts the constraint's network among several, and names them network first", () => {
    const multi = candidate({ id: 41, ok: 95, total: 100, p95: 100, network: "polygon", networks: ["polygon", "base"] });
    const single = candidate({ id: 42, ok: 95, total: 100, p95: 100, network: "polygon" });
    const r = rankCandidates([multi, single], opts({ constraints: { network: "base" } }));
    expect(ids(r.ranked)).toEqual([idOf(41)]);
    expect(r.ranked[0].payment).toMatchObject({ network: "polygon", networks: ["polygon", "base"] });
    expect(rankCandidates([single], opts({ constraints: { network: "base" } })).fallbacks[0].exclusion_reasons).toEqual(["network_mismatch"]);
    expect(ids(rankCandidates([multi, single], opts({ constraints: { network: "solana" } })).ranked)).toEqual([]);
  });

  it("never ranks an endpoint whose domain record has gone: it is a fallback marked unverified", () => {
    const lost = { ...pool[0], domainVerified: false };
    const r = rankCandidates([lost, ...pool.slice(1)], opts({ limit: 20 }));
    expect(r.ranked.map((e) => e.endpoint_id)).not.toContain(lost.id);
    expect(r.fallbacks.find((f) => f.endpoint_id === lost.id)?.exclusion_reasons).toEqual(["unverified"]);
  });

  it("leaves fallbacks out when the caller does not want them", () => {
    expect(rankCandidates(pool, opts({ limit: 1, includeFallbacks: false })).fallbacks).toEqual([]);
  });

  it("scores an endpoint the same whatever the constraints", () => {
    const all = rankCandidates(pool, opts({ limit: 20 })).ranked;
    const some = rankCandidates(pool, opts({ constraints: { network: "base" } })).ranked;
    for (const e of some) expect(e.score).toBe(all.find((a) => a.endpoint_id === e.endpoint_id)?.score);
  });
});

describe("exploration", () => {
  const established = Array.from({ length: 8 }, (_, i) => candidate({ id: 300 + i, ok: 980, total: 1000, p95: 100 }));
  const newcomer = candidate({ id: 399, p95: null });

  it("explores in about the configured share of windows, one new endpoint at a time", () => {
    let explored = 0;
    for (let w = 0; w < 4000; w++) {
      const pick = pickExplorer("weather.current", [...established, newcomer], w, 0.1);
      if (pick !== null) {
        expect(pick).toBe(newcomer.id);
        explored++;
      }
    }
    expect(explored / 4000).toBeGreaterThan(0.07);
    expect(explored / 4000).toBeLessThan(0.13);
  });

  it("never explores endpoints with a record, failing ones, or at rate 0", () => {
    for (let w = 0; w < 500; w++) {
      expect(pickExplorer("weather.current", established, w, 0.5)).toBeNull();
      expect(pickExplorer("weather.current", [candidate({ checkState: "failing" })], w, 0.5)).toBeNull();
      expect(pickExplorer("weather.current", [newcomer], w, 0)).toBeNull();
    }
    expect(established[0].figures.weighted_total_7d).toBeGreaterThanOrEqual(EXPLORATION_MAX_WEIGHT);
  });

  /** The first window (from 0) in which the pool explores, and the first in which it does not. */
  const windows = (pool: Parameters<typeof pickExplorer>[1], rate = 0.1) => {
    let on = -1;
    let off = -1;
    for (let w = 0; w < 1000 && (on < 0 || off < 0); w++) {
      const picked = pickExplorer("weather.current", pool, w, rate) !== null;
      if (picked && on < 0) on = w;
      if (!picked && off < 0) off = w;
    }
    return { on, off };
  };

  it("places the new endpoint second in an exploring window, labelled, with its real score; nowhere near it otherwise", () => {
    const pool = [...established, newcomer];
    const { on, off } = windows(pool);
    const quiet = rankCandidates(pool, opts({ window: off, explorationRate: 0.1 }));
    expect(ids(quiet.ranked)).not.toContain(newcomer.id);
    expect(quiet.explored).toBe(0);
    expect([...quiet.ranked, ...quiet.fallbacks].some((e) => e.exploration)).toBe(false);

    const exploring = rankCandidates(pool, opts({ window: on, explorationRate: 0.1 }));
    expect(ids(exploring.ranked)[1]).toBe(newcomer.id);
    expect(exploring.ranked[0].exploration).toBeUndefined();
    expect(exploring.ranked[1].exploration).toBe(true);
    expect(exploring.explored).toBe(1);
    // Exploration changes the place, not the numbers: the same score and breakdown as in a quiet window.
    const real = rankCandidates(pool, opts({ window: off, explorationRate: 0.1, limit: 20 })).ranked.find((e) => e.endpoint_id === newcomer.id)!;
    const { exploration, ...placed } = exploring.ranked[1];
    expect(exploration).toBe(true);
    expect(placed).toEqual(real);
    expect(placed.score_breakdown.success).toBeLessThan(exploring.ranked[0].score_breakdown.success);
    expect(placed.score).toBeLessThan(exploring.ranked[2].score);
    // Same window, same answer.
    expect(rankCandidates(pool, opts({ window: on, explorationRate: 0.1 }))).toEqual(exploring);
  });

  it("never puts an explored endpoint first while an established endpoint meets the constraints, whatever the window", () => {
    // The case: 10 perfect reports against 167 with 100% success and a slower p95.
    const proven = candidate({ id: 500, ok: 167, total: 167, p95: 514, price: 0.01 });
    const young = candidate({ id: 501, ok: 10, total: 10, p95: 120, price: 0.005 });
    const pool = [proven, young, ...established.slice(0, 3)];
    let exploredWindows = 0;
    for (let w = 0; w < 400; w++) {
      for (const limit of [1, 2, 5]) {
        const r = rankCandidates(pool, opts({ window: w, explorationRate: 0.5, limit }));
        expect(r.ranked[0].exploration).toBeUndefined();
        expect(r.ranked[0].endpoint_id).not.toBe(young.id);
        const flagged = [...r.ranked, ...r.fallbacks].filter((e) => e.exploration);
        expect(flagged.length).toBe(r.explored);
        if (r.explored && limit === 5) {
          exploredWindows++;
          expect(r.ranked[1].endpoint_id).toBe(young.id);
        }
      }
    }
    expect(exploredWindows).toBeGreaterThan(100);
  });

  it("with limit 1, offers the explored endpoint first among the fallbacks, labelled", () => {
    const pool = [...established, newcomer];
    const { on } = windows(pool);
    const r = rankCandidates(pool, opts({ window: on, explorationRate: 0.1, limit: 1 }));
    expect(r.ranked[0].endpoint_id).not.toBe(newcomer.id);
    expect(r.fallbacks[0]).toMatchObject({ endpoint_id: newcomer.id, exploration: true, exclusion_reasons: ["beyond_limit"] });
    expect(r.explored).toBe(1);
  });

  it("may put the explored endpoint first when no established endpoint meets the constraints", () => {
    const elsewhere = established.map((c) => ({ ...c, networkName: "polygon", network: "polygon", networks: ["polygon"] }));
    const rookie = candidate({ id: 600, ok: 2, total: 4, p95: 300 });
    const pool = [...elsewhere, newcomer, rookie];
    const { on } = windows(pool, 0.5);
    const explorer = pickExplorer("weather.current", pool, on, 0.5);
    const r = rankCandidates(pool, opts({ window: on, explorationRate: 0.5, constraints: { network: "base" } }));
    expect(r.ranked.every((e) => e.payment.network === "base")).toBe(true);
    expect(r.ranked[0].endpoint_id).toBe(explorer);
  });

  it("leaves the order alone when the explorer's own score already places it", () => {
    // A new endpoint that beats every established one on its short record is first on its merits, unlabelled.
    const weak = Array.from({ length: 3 }, (_, i) => candidate({ id: 700 + i, ok: 400, total: 1000, p95: 2000, price: 1 }));
    const star = candidate({ id: 799, ok: 19, total: 19, p95: 50, price: 0.001 });
    const pool = [...weak, star];
    const { on } = windows(pool);
    const r = rankCandidates(pool, opts({ window: on, explorationRate: 0.1 }));
    expect(r.ranked[0].endpoint_id).toBe(star.id);
    expect(r.explored).toBe(0);
    expect(r.ranked[0].exploration).toBeUndefined();
  });

  it("does not explore an endpoint that misses the constraints", () => {
    const pool = [...established, { ...newcomer, pricePerCall: 5 }];
    const { on } = windows(pool);
    const r = rankCandidates(pool, opts({ window: on, explorationRate: 0.1, constraints: { max_price: 1 } }));
    expect(ids(r.ranked)).not.toContain(newcomer.id);
    expect(r.explored).toBe(0);
  });

  it("hashes to a roughly uniform [0,1)", () => {
    const buckets = Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(hash01(`cap|${i}`) * 10)]++;
    for (const b of buckets) expect(b).toBeGreaterThan(850);
  });
});
