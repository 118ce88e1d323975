import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { NETWORK_NAMES } from "@/lib/schemas/networks";
import { PRESET_NAMES } from "@/lib/schemas/discover";
import { addEndpoint, countDiscoveries, counterTotals } from "./discover-helpers";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  await addEndpoint(t.db, { capabilityId: "weather.current", k: 1, ok: 9, total: 10 });
});
afterAll(async () => {
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

type Problem = { status: number; code: string; detail: string; errors?: Array<{ pointer: string; detail: string }> } & Record<string, unknown>;
// A different client address per call, so the anonymous rate limit (60/min) stays out of the way.
let client = 0;
const post = async (json: unknown) => {
  const ip = `198.51.100.${++client % 250}`;
  const res = await call(discoverRoute.POST, "/api/discover", { method: "POST", json, headers: { "x-forwarded-for": ip } });
  return { ...res, body: res.body as Problem };
};
const ok = { capability_id: "weather.current" };

// [name, body, status, code, pointer]
const cases: Array<[string, unknown, number, string, string | null]> = [
  ["neither capability_id nor intent", {}, 422, "validation_failed", "#/capability_id"],
  ["only constraints", { constraints: { max_price: 1 } }, 422, "validation_failed", "#/capability_id"],
  ["a capability id without a dot", { capability_id: "weather" }, 422, "validation_failed", "#/capability_id"],
  ["a capability id in capitals", { capability_id: "Weather.Current" }, 422, "validation_failed", "#/capability_id"],
  ["a capability id with spaces", { capability_id: "weather. current" }, 422, "validation_failed", "#/capability_id"],
  ["a capability id of 200 characters", { capability_id: `a.${"b".repeat(198)}` }, 422, "validation_failed", "#/capability_id"],
  ["a capability id that is a number", { capability_id: 42 }, 422, "validation_failed", "#/capability_id"],
  ["an empty intent", { intent: "" }, 422, "validation_failed", "#/intent"],
  ["a blank intent", { intent: "   \n " }, 422, "validation_failed", "#/intent"],
  ["a 5,000-character intent", { intent: "weather ".repeat(625) }, 422, "validation_failed", "#/intent"],
  ["an intent that is not a string", { intent: ["weather"] }, 422, "validation_failed", "#/intent"],
  ["a negative max_price", { ...ok, constraints: { max_price: -0.01 } }, 422, "validation_failed", "#/constraints/max_price"],
  ["a max_price as a string", { ...ok, constraints: { max_price: "0.1" } }, 422, "validation_failed", "#/constraints/max_price"],
  ["an unknown network", { ...ok, constraints: { network: "mars" } }, 422, "validation_failed", "#/constraints/network"],
  ["an unknown CAIP-2 network", { ...ok, constraints: { network: "eip155:999999" } }, 422, "validation_failed", "#/constraints/network"],
  ["verified_only as a string", { ...ok, constraints: { verified_only: "yes" } }, 422, "validation_failed", "#/constraints/verified_only"],
  ["an unknown preset", { ...ok, preferences: { ranking_preset: "fastest" } }, 422, "validation_failed", "#/preferences/ranking_preset"],
  ["weights all zero", { ...ok, preferences: { weights: { success: 0, latency: 0, price: 0, stability: 0 } } }, 422, "validation_failed", "#/preferences/weights"],
  ["empty weights", { ...ok, preferences: { weights: {} } }, 422, "validation_failed", "#/preferences/weights"],
  ["a negative weight", { ...ok, preferences: { weights: { success: -1, latency: 2 } } }, 422, "validation_failed", "#/preferences/weights/success"],
  ["limit 0", { ...ok, preferences: { limit: 0 } }, 422, "validation_failed", "#/preferences/limit"],
  ["limit 21", { ...ok, preferences: { limit: 21 } }, 422, "validation_failed", "#/preferences/limit"],
  ['limit "5"', { ...ok, preferences: { limit: "5" } }, 422, "validation_failed", "#/preferences/limit"],
  ["limit 2.5", { ...ok, preferences: { limit: 2.5 } }, 422, "validation_failed", "#/preferences/limit"],
  ["include_fallbacks as a number", { ...ok, preferences: { include_fallbacks: 1 } }, 422, "validation_failed", "#/preferences/include_fallbacks"],
  ["a misspelt field", { ...ok, constraints: { max_prize: 1 } }, 422, "unknown_field", "#/constraints/max_prize"],
  ["a field the caller may not set", { ...ok, discovery_id: "00000000-0000-4000-8000-000000000001" }, 422, "unknown_field", "#/discovery_id"],
  ["a body that is an array", [ok], 422, "validation_failed", "#"],
  ["an unknown capability", { capability_id: "weather.curent" }, 404, "capability_not_found", "#/capability_id"],
];

describe("POST /api/discover with bad input", () => {
  it.each(cases)("answers %s with a precise problem", async (_name, body, status, code, pointer) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.detail.length).toBeGreaterThan(0);
    if (pointer) expect(res.body.errors?.map((e) => e.pointer)).toContain(pointer);
  });

  it("lists the known networks and presets in the 422", async () => {
    const net = await post({ ...ok, constraints: { network: "mars" } });
    for (const n of NETWORK_NAMES) expect(net.body.detail).toContain(n);
    const preset = await post({ ...ok, preferences: { ranking_preset: "fastest" } });
    for (const p of PRESET_NAMES) expect(preset.body.detail).toContain(p);
  });

  it("suggests the closest capability ids for an unknown one", async () => {
    const res = await post({ capability_id: "weather.curent" });
    expect(res.body.suggestions).toContain("weather.current");
  });

  it("refuses malformed JSON, a wrong content type and a wrong method", async () => {
    const bad = await call(discoverRoute.POST, "/api/discover", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_json"]);
    const text = await call(discoverRoute.POST, "/api/discover", { method: "POST", body: JSON.stringify(ok), headers: { "content-type": "text/plain" } });
    expect([text.status, text.body.code]).toEqual([415, "unsupported_media_type"]);
    const get = await call(discoverRoute.GET, "/api/discover", { method: "GET" });
    expect([get.status, get.body.code, get.headers.get("allow")]).toEqual([405, "method_not_allowed", "POST, OPTIONS"]);
  });

  it("stores nothing for a refused request", async () => {
    await flushDiscoveryLog(t.db);
    const before = [await countDiscoveries(t.db), await counterTotals(t.db)];
    for (const [, body] of cases) await post(body);
    await flushDiscoveryLog(t.db);
    expect([await countDiscoveries(t.db), await counterTotals(t.db)]).toEqual(before);
    // ...while a good one is recorded, so the check above could fail.
    expect((await post(ok)).status).toBe(200);
    await flushDiscoveryLog(t.db);
    expect(await countDiscoveries(t.db)).toBe((before[0] as number) + 1);
  });
});
