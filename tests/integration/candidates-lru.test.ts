// The candidate cache is bounded by the endpoints it holds and evicts the least recently used
// capability first: a registry larger than the bound is served, from the database where evicted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { candidateCacheSize, getCandidates, invalidateCandidates } from "@/lib/discovery/candidates";
import { createTestDb, type TestDb } from "../helpers/db";
import { addEndpoint } from "./outcomes-fixtures";

let t: TestDb;
const CAPS = ["weather.current", "weather.forecast", "translate.text"];

beforeAll(async () => {
  process.env.DISCOVERY_CACHE_MAX_ENDPOINTS = "5";
  t = await createTestDb({ seed: "catalogue" });
  // 2 endpoints each: two capabilities fit (4), a third evicts one.
  for (const capabilityId of CAPS) for (let i = 0; i < 2; i++) await addEndpoint(t.db, { capabilityId, price: 0.001, checkState: "verified" });
});
afterAll(async () => {
  delete process.env.DISCOVERY_CACHE_MAX_ENDPOINTS;
  await t.close();
});

describe("candidate cache bound", () => {
  it("holds at most DISCOVERY_CACHE_MAX_ENDPOINTS endpoints, evicting the least recently used capability", async () => {
    invalidateCandidates(t.db);
    const first = await getCandidates(t.db, CAPS[0]);
    expect(first.candidates).toHaveLength(2);
    await getCandidates(t.db, CAPS[1]);
    expect(candidateCacheSize(t.db)).toEqual({ capabilities: 2, endpoints: 4 });
    // Used again more than a second later: CAPS[0] becomes the most recently used.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await getCandidates(t.db, CAPS[0])).toBe(first);
    await getCandidates(t.db, CAPS[2]);
    expect(candidateCacheSize(t.db)).toEqual({ capabilities: 2, endpoints: 4 });
    // CAPS[1] went; CAPS[0] is still the cached set, CAPS[1] is loaded afresh (and evicts CAPS[0] or CAPS[2]).
    expect(await getCandidates(t.db, CAPS[0])).toBe(first);
    const again = await getCandidates(t.db, CAPS[1]);
    expect(again.candidates).toHaveLength(2);
    expect(candidateCacheSize(t.db).endpoints).toBeLessThanOrEqual(5);
  });
});
