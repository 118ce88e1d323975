// Exploration through POST /api/discover: a newcomer with a short, perfect record never takes first
// place from an endpoint with an established record; when exploration moves it up, the answer says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import * as capabilityRoute from "@/app/api/capabilities/[id]/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { EXPLORATION_WINDOW_MS, hash01, windowOf } from "@/lib/discovery/exploration";
import { reloadDiscoverySettings } from "@/lib/discovery/settings";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { discoverResponseSchema, type DiscoverResponse } from "@/lib/schemas/discover";
import { addEndpoint, endpointId as eid } from "./discover-helpers";

const RATE = 0.5;
let t: TestDb;
let capability = "";

const discover = async (capability_id: string, preferences?: Record<string, unknown>): Promise<DiscoverResponse> => {
  const res = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: { capability_id, preferences } });
  expect(res.status).toBe(200);
  return discoverResponseSchema.parse(res.body);
};

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  process.env.DISCOVERY_EXPLORATION_RATE = String(RATE);
  reloadDiscoverySettings();
  // Stay clear of a window boundary, then take a capability that explores in this window.
  const into = Date.now() % EXPLORATION_WINDOW_MS;
  if (into > EXPLORATION_WINDOW_MS - 20_000) await new Promise((r) => setTimeout(r, EXPLORATION_WINDOW_MS - into + 100));
  const w = windowOf(Date.now());
  capability = CATALOGUE.capabilities.map((c) => c.id).find((id) => hash01(`${id}|${w}`) < RATE)!;
  // The case: 167 reports, all successes, p95 514 ms, against 10 perfect reports at 120 ms.
  await addEndpoint(t.db, { capabilityId: capability, k: 1, ok: 167, total: 167, p95: 514, price: 0.01 });
  await addEndpoint(t.db, { capabilityId: capability, k: 2, ok: 10, total: 10, p95: 120, price: 0.005 });
  // Two more with long, good records, so that by score alone the newcomer is last.
  await addEndpoint(t.db, { capabilityId: capability, k: 3, ok: 995, total: 1000, p95: 110, price: 0.004 });
  await addEndpoint(t.db, { capabilityId: capability, k: 4, ok: 990, total: 1000, p95: 150, price: 0.005 });
}, 60_000);
afterAll(async () => {
  delete process.env.DISCOVERY_EXPLORATION_RATE;
  reloadDiscoverySettings();
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

describe("exploration in POST /api/discover", () => {
  it("keeps the established endpoint first and labels the explored one second, with its real score", async () => {
    const body = await discover(capability);
    expect(body.ranked_endpoints).toHaveLength(4);
    expect(body.ranked_endpoints[0].endpoint_id).not.toBe(eid(2));
    expect(body.ranked_endpoints[1].endpoint_id).toBe(eid(2));
    expect(body.ranked_endpoints[0].exploration).toBeUndefined();
    expect(body.ranked_endpoints[1].exploration).toBe(true);
    expect(body.ranking_info.explored).toBe(1);
    // Its real numbers: the same as on the capability page, which lists by score without exploration.
    const detail = await call(capabilityRoute.GET, `/api/capabilities/${capability}?with_endpoints=true`, { params: { id: capability } });
    const listed = (detail.body.endpoints as DiscoverResponse["ranked_endpoints"]).find((e) => e.endpoint_id === eid(2))!;
    expect(listed.exploration).toBeUndefined();
    expect({ ...body.ranked_endpoints[1], exploration: undefined }).toEqual({ ...listed, exploration: undefined });
  });

  it("offers it first among the fallbacks when the limit leaves room for one endpoint", async () => {
    const body = await discover(capability, { limit: 1 });
    expect(body.ranked_endpoints.map((e) => e.endpoint_id)).not.toContain(eid(2));
    expect(body.fallback_endpoints[0]).toMatchObject({ endpoint_id: eid(2), exploration: true, exclusion_reasons: ["beyond_limit"] });
    expect(body.ranking_info.explored).toBe(1);
  });

  it("says explored: 0 and labels nothing when exploration is off", async () => {
    process.env.DISCOVERY_EXPLORATION_RATE = "0";
    reloadDiscoverySettings();
    try {
      const body = await discover(capability);
      expect(body.ranking_info.explored).toBe(0);
      expect(body.ranked_endpoints.some((e) => "exploration" in e)).toBe(false);
      // By score alone the newcomer is last.
      expect(body.ranked_endpoints.map((e) => e.endpoint_id).at(-1)).toBe(eid(2));
    } finally {
      process.env.DISCOVERY_EXPLORATION_RATE = String(RATE);
      reloadDiscoverySettings();
    }
  });
});
