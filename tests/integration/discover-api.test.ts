import { CATALOGUE } from "@/lib/seed/catalogue";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { listDiscoveryResources } from "@/lib/x402-discovery";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import * as capabilityRoute from "@/app/api/capabilities/[id]/route";
import { flushDiscoveryLog, invalidateCandidates } from "@/lib/discovery";
import { warmDiscovery } from "@/lib/discovery/warm";
import { reloadDiscoverySettings } from "@/lib/discovery/settings";
import { discoverResponseSchema, RANKING_PRESETS } from "@/lib/schemas/discover";
import { addEndpoint, endpointId as eid } from "./discover-helpers";

// Exploration would let short-record endpoints jump ahead in some 5-minute windows; these tests pin
// the deterministic ranking (exploration has its own tests in tests/unit/ranking-order.test.ts).
process.env.DISCOVERY_EXPLORATION_RATE = "0";

type Endpoint = { endpoint_id: string; score: number; exclusion_reasons?: string[]; verified: boolean; payment: { network: string; price_per_call: number } };
type Body = Record<string, unknown> & { ranked_endpoints: Endpoint[]; fallback_endpoints: Endpoint[] };

let t: TestDb;
const post = async (json: unknown, headers?: Record<string, string>) => {
  const res = await call(discoverRoute.POST, "/api/discover", { method: "POST", json, headers });
  return { ...res, body: res.body as Body };
};
const ids = (list: Endpoint[]) => list.map((e) => e.endpoint_id);

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  // weather.current: clear trade-offs, plus endpoints that miss constraints or fail their checks.
  const wc = "weather.current";
  await addEndpoint(t.db, { capabilityId: wc, k: 1, ok: 995, total: 1000, p95: 900, price: 0.05 }); // reliable
  await addEndpoint(t.db, { capabilityId: wc, k: 2, ok: 900, total: 1000, p95: 60, price: 0.03 }); // fast
  await addEndpoint(t.db, { capabilityId: wc, k: 3, ok: 920, total: 1000, p95: 700, price: 0.001 }); // cheap
  await addEndpoint(t.db, { capabilityId: wc, k: 4, ok: 990, total: 1000, p95: 200, price: 0.01, network: "polygon" });
  await addEndpoint(t.db, { capabilityId: wc, k: 5, ok: 990, total: 1000, p95: 200, price: 0.01, checkState: "unverified" });
  await addEndpoint(t.db, { capabilityId: wc, k: 6, ok: 999, total: 1000, p95: 100, price: 0.01, checkState: "failing" });
  // weather.forecast: a proven endpoint against a lucky newcomer.
  await addEndpoint(t.db, { capabilityId: "weather.forecast", k: 11, ok: 970, total: 1000, p95: 300 });
  await addEndpoint(t.db, { capabilityId: "weather.forecast", k: 12, ok: 3, total: 3, p95: 300 });
  // weather.alerts: a free endpoint listed on optimism, one that takes polygon or base, one polygon only.
  await addEndpoint(t.db, { capabilityId: "weather.alerts", k: 31, ok: 950, total: 1000, p95: 200, price: 0, network: "optimism" });
  await addEndpoint(t.db, { capabilityId: "weather.alerts", k: 32, ok: 950, total: 1000, p95: 200, price: 0.002, network: "polygon", networks: ["polygon", "base"] });
  await addEndpoint(t.db, { capabilityId: "weather.alerts", k: 33, ok: 950, total: 1000, p95: 200, price: 0.002, network: "polygon" });
  // crypto.price: eight similar endpoints, for limits and fallbacks.
  for (let k = 21; k <= 28; k++) await addEndpoint(t.db, { capabilityId: "crypto.price", k, ok: 900 + k, total: 1000, p95: 150 });
});
afterAll(async () => {
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

describe("POST /api/discover by capability_id", () => {
  it("answers ranked endpoints, fallbacks, ranking info, a ttl and a discovery id", async () => {
    const res = await post({ capability_id: "weather.current" });
    expect(res.status).toBe(200);
    const body = discoverResponseSchema.parse(res.body);
    expect(body.resolved).toEqual({ capability_id: "weather.current", confidence: 1, candidates: [] });
    expect(body.ttl_seconds).toBe(300);
    expect(body.ranking_info).toEqual({ preset: "default", weights: RANKING_PRESETS.default, candidates_considered: 6, explored: 0 });
    expect(ids(res.body.ranked_endpoints).sort()).toEqual([eid(1), eid(2), eid(3), eid(4), eid(5)]);
    expect(res.body.fallback_endpoints.map((f) => [f.endpoint_id, f.exclusion_reasons])).toEqual([[eid(6), ["failed_recent_checks"]]]);
    const scores = body.ranked_endpoints.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.ranked_endpoints.every((e) => e.score > 0 && e.score < 1)).toBe(true);
    const unverified = body.ranked_endpoints.find((e) => e.endpoint_id === eid(5))!;
    expect(unverified.verified).toBe(false);
    expect(body.ranked_endpoints.find((e) => e.endpoint_id === eid(1))).toMatchObject({
      verified: true,
      payment: { type: "x402", price_per_call: 0.05, network: "base", accepted_assets: ["USDC"] },
      observed: { success_rate_7d: 0.995, sample_size_7d: 1000 },
    });
  });

  it("uses capability_id when an intent is sent too", async () => {
    const res = await post({ capability_id: "crypto.price", intent: "will it rain in Oslo tomorrow" });
    expect(res.status).toBe(200);
    expect(res.body.resolved).toEqual({ capability_id: "crypto.price", confidence: 1, candidates: [] });
  });

  it("is deterministic: the same request gets the same ranking", async () => {
    const a = await post({ capability_id: "weather.current", preferences: { ranking_preset: "balanced" } });
    invalidateCandidates(t.db);
    const b = await post({ capability_id: "weather.current", preferences: { ranking_preset: "balanced" } });
    expect(b.body.ranked_endpoints).toEqual(a.body.ranked_endpoints);
    expect(b.body.discovery_id).not.toBe(a.body.discovery_id);
  });

  it("answers the same after warming (every capability loaded in batches) as after a cold load", async () => {
    invalidateCandidates(t.db);
    const cold = await post({ capability_id: "crypto.price", preferences: { limit: 3 } });
    invalidateCandidates(t.db);
    const warmed = await warmDiscovery(t.db);
    expect(warmed.capabilities).toBe(CATALOGUE.capabilities.length);
    // The x402 catalogue was built by the warm-up: the first list answers from it.
    expect((await listDiscoveryResources(t.db, { limit: 1 })).pagination.total).toBe(warmed.catalogue);
    const warm = await post({ capability_id: "crypto.price", preferences: { limit: 3 } });
    expect(warm.body.ranked_endpoints).toEqual(cold.body.ranked_endpoints);
    expect(warm.body.fallback_endpoints).toEqual(cold.body.fallback_endpoints);
    // The answer came from what the warm-up cached: a change made behind the cache's back shows
    // only once the entry is invalidated (or expires).
    await t.db.execute(sql`update endpoints set price_per_call = 0.5 where id = ${eid(28)}::uuid`);
    const cached = await post({ capability_id: "crypto.price", preferences: { limit: 1 } });
    expect(cached.body.ranked_endpoints[0]).toMatchObject({ endpoint_id: eid(28), payment: { price_per_call: 0.01 } });
    invalidateCandidates(t.db, "crypto.price");
    const fresh = await post({ capability_id: "crypto.price", preferences: { limit: 20 } });
    expect(fresh.body.ranked_endpoints.find((e) => e.endpoint_id === eid(28))?.payment.price_per_call).toBe(0.5);
    await t.db.execute(sql`update endpoints set price_per_call = 0.01 where id = ${eid(28)}::uuid`);
    invalidateCandidates(t.db, "crypto.price");
  });

  it("serves a stale answer while one background refresh runs, then the fresh one", async () => {
    await post({ capability_id: "crypto.price" });
    process.env.DISCOVERY_CACHE_MS = "0";
    reloadDiscoverySettings();
    try {
      await t.db.execute(sql`update endpoints set price_per_call = 0.02 where id = ${eid(21)}::uuid`);
      const priceOf21 = async () =>
        (await post({ capability_id: "crypto.price", preferences: { limit: 20 } })).body.ranked_endpoints.find((e) => e.endpoint_id === eid(21))
          ?.payment.price_per_call;
      expect(await priceOf21()).toBe(0.01); // stale, but answered without waiting
      await vi.waitFor(async () => expect(await priceOf21()).toBe(0.02), { timeout: 10_000, interval: 50 });
    } finally {
      await t.db.execute(sql`update endpoints set price_per_call = 0.01 where id = ${eid(21)}::uuid`);
      delete process.env.DISCOVERY_CACHE_MS;
      reloadDiscoverySettings();
      invalidateCandidates(t.db);
    }
  });

  it("answers an empty ranking for a capability without endpoints", async () => {
    const res = await post({ capability_id: "util.random" });
    expect(res.status).toBe(200);
    expect(res.body.ranked_endpoints).toEqual([]);
    expect(res.body.fallback_endpoints).toEqual([]);
    expect((res.body.ranking_info as { candidates_considered: number }).candidates_considered).toBe(0);
  });
});

describe("ranking", () => {
  it("follows the preset: reliability, speed and budget each put their own endpoint first", async () => {
    const first = async (preset: string) => {
      const res = await post({ capability_id: "weather.current", constraints: { network: "base", verified_only: true }, preferences: { ranking_preset: preset } });
      expect((res.body.ranking_info as { preset: string }).preset).toBe(preset);
      return res.body.ranked_endpoints[0].endpoint_id;
    };
    expect(await first("reliability")).toBe(eid(1));
    expect(await first("speed")).toBe(eid(2));
    expect(await first("budget")).toBe(eid(3));
  });

  it("smooths success by sample size: 970/1000 ranks above 3/3", async () => {
    const res = await post({ capability_id: "weather.forecast", preferences: { ranking_preset: "reliability" } });
    expect(ids(res.body.ranked_endpoints)).toEqual([eid(11), eid(12)]);
  });

  it("normalises custom weights and reports them", async () => {
    const res = await post({ capability_id: "weather.current", preferences: { ranking_preset: "speed", weights: { price: 2, success: 2 } } });
    expect(res.status).toBe(200);
    expect(res.body.ranking_info).toEqual({
      preset: "custom",
      weights: { success: 0.5, latency: 0, price: 0.5, stability: 0 },
      candidates_considered: 6,
      explored: 0,
    });
    const top = res.body.ranked_endpoints[0] as Endpoint & { score_breakdown: { success: number; price: number } };
    expect(top.score).toBeCloseTo(0.5 * top.score_breakdown.success + 0.5 * top.score_breakdown.price, 3);
  });

  it("cuts at limit and offers the rest as beyond_limit fallbacks, at most 5", async () => {
    const res = await post({ capability_id: "crypto.price", preferences: { limit: 2 } });
    expect(ids(res.body.ranked_endpoints)).toEqual([eid(28), eid(27)]);
    expect(ids(res.body.fallback_endpoints)).toEqual([eid(26), eid(25), eid(24), eid(23), eid(22)]);
    expect(res.body.fallback_endpoints.every((f) => f.exclusion_reasons?.join() === "beyond_limit")).toBe(true);
    const none = await post({ capability_id: "crypto.price", preferences: { limit: 2, include_fallbacks: false } });
    expect(none.body.fallback_endpoints).toEqual([]);
    expect(ids(none.body.ranked_endpoints)).toEqual([eid(28), eid(27)]);
  });
});

describe("constraints", () => {
  it("filters by max_price", async () => {
    const res = await post({ capability_id: "weather.current", constraints: { max_price: 0.01 } });
    expect(res.body.ranked_endpoints.every((e) => e.payment.price_per_call <= 0.01)).toBe(true);
    expect(ids(res.body.ranked_endpoints).sort()).toEqual([eid(3), eid(4), eid(5)]);
  });

  it("filters by network, given by name or CAIP-2 id in any case", async () => {
    for (const network of ["polygon", "eip155:137", "POLYGON", "EIP155:137"]) {
      const res = await post({ capability_id: "weather.current", constraints: { network } });
      expect(res.status).toBe(200);
      expect(ids(res.body.ranked_endpoints)).toEqual([eid(4)]);
    }
  });

  it("never leaves a free endpoint out for its network, and keeps one that accepts the network among several", async () => {
    const res = await post({ capability_id: "weather.alerts", constraints: { network: "base" } });
    expect(ids(res.body.ranked_endpoints).sort()).toEqual([eid(31), eid(32)]);
    const byId = Object.fromEntries(res.body.ranked_endpoints.map((e) => [e.endpoint_id, e.payment]));
    expect(byId[eid(31)]).toMatchObject({ price_per_call: 0, network: "optimism", networks: [] });
    expect(byId[eid(32)]).toMatchObject({ network: "polygon", networks: ["polygon", "base"] });
    const polygon = await post({ capability_id: "weather.alerts", constraints: { network: "eip155:137" } });
    expect(ids(polygon.body.ranked_endpoints).sort()).toEqual([eid(31), eid(32), eid(33)]);
    const solana = await post({ capability_id: "weather.alerts", constraints: { network: "solana" } });
    expect(ids(solana.body.ranked_endpoints)).toEqual([eid(31)]);
  });

  it("keeps only verified endpoints with verified_only", async () => {
    const res = await post({ capability_id: "weather.current", constraints: { verified_only: true } });
    expect(res.body.ranked_endpoints.every((e) => e.verified)).toBe(true);
    expect(ids(res.body.ranked_endpoints)).not.toContain(eid(5));
  });

  it("offers the nearest misses, with every reason, when nothing meets the constraints", async () => {
    const res = await post({ capability_id: "weather.current", constraints: { max_price: 0.005, network: "solana", verified_only: true } });
    expect(res.status).toBe(200);
    expect(res.body.ranked_endpoints).toEqual([]);
    const reasons = Object.fromEntries(res.body.fallback_endpoints.map((f) => [f.endpoint_id, f.exclusion_reasons]));
    expect(res.body.fallback_endpoints).toHaveLength(5);
    expect(reasons[eid(3)]).toEqual(["network_mismatch"]);
    expect(res.body.fallback_endpoints[0].endpoint_id).toBe(eid(3));
    expect(reasons[eid(1)]).toEqual(["over_max_price", "network_mismatch"]);
    // Fewest unmet constraints first: the unverified one misses three, the failing one (four) is left out.
    expect(res.body.fallback_endpoints.at(-1)).toMatchObject({ endpoint_id: eid(5), exclusion_reasons: ["unverified", "over_max_price", "network_mismatch"] });
    expect(reasons[eid(6)]).toBeUndefined();
    const failing = await post({ capability_id: "weather.current", constraints: { network: "solana", verified_only: true } });
    const failingReasons = Object.fromEntries(failing.body.fallback_endpoints.map((f) => [f.endpoint_id, f.exclusion_reasons]));
    expect(failingReasons[eid(5)]).toEqual(["unverified", "network_mismatch"]);
    expect(failingReasons[eid(4)]).toEqual(["network_mismatch"]);
  });
});

describe("GET /api/capabilities/{id}?with_endpoints=true", () => {
  it("lists the endpoints in discover's default order, failing ones last, with the same scores", async () => {
    const detail = await call(capabilityRoute.GET, "/api/capabilities/weather.current?with_endpoints=true", { params: { id: "weather.current" } });
    const listed = detail.body.endpoints as Endpoint[];
    const discovered = await post({ capability_id: "weather.current", preferences: { limit: 20 } });
    expect(ids(listed)).toEqual([...ids(discovered.body.ranked_endpoints), eid(6)]);
    expect(listed.slice(0, 5)).toEqual(discovered.body.ranked_endpoints);
  });
});
