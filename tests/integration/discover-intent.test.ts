import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { bumpRegistryVersion } from "@/lib/registry/version";
import { capabilities } from "@/lib/db/schema";
import { addEndpoint } from "./discover-helpers";

let t: TestDb;
const post = (json: unknown) => call(discoverRoute.POST, "/api/discover", { method: "POST", json });
type Candidate = { capability_id: string; confidence: number };

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  await addEndpoint(t.db, { capabilityId: "weather.forecast", k: 1, ok: 95, total: 100, p95: 200 });
});
afterAll(async () => {
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

describe("POST /api/discover by intent", () => {
  it("resolves a clear intent to its capability with a confidence and runners-up", async () => {
    const res = await post({ intent: "will it rain in Oslo tomorrow" });
    expect(res.status).toBe(200);
    const resolved = res.body.resolved as { capability_id: string; confidence: number; candidates: Candidate[] };
    expect(resolved.capability_id).toBe("weather.forecast");
    expect(resolved.confidence).toBeGreaterThan(0.4);
    expect(resolved.confidence).toBeLessThanOrEqual(1);
    expect(resolved.candidates.length).toBeLessThanOrEqual(3);
    expect(resolved.candidates.map((c) => c.capability_id)).not.toContain("weather.forecast");
    for (const c of resolved.candidates) expect(c.confidence).toBeLessThanOrEqual(resolved.confidence);
    expect((res.body.ranked_endpoints as unknown[]).length).toBe(1);
  });

  it("answers 404 intent_unresolved with candidates when nothing serves the need", async () => {
    const res = await post({ intent: "book a table for four tonight" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe("intent_unresolved");
    expect(Array.isArray(res.body.candidates)).toBe(true);
    expect((res.body.candidates as Candidate[]).length).toBeLessThanOrEqual(3);
    expect((res.body.errors as Array<{ pointer: string }>)[0].pointer).toBe("#/intent");
  });

  it("finds a capability added to the registry at once", async () => {
    await t.db.insert(capabilities).values({
      id: "util.horoscope",
      categoryId: "util",
      title: "Daily horoscope",
      description: "Astrology readings for each zodiac sign",
      tags: ["astrology", "zodiac"],
      aliases: ["horoscope", "star sign reading"],
    });
    await bumpRegistryVersion(t.db);
    await new Promise((r) => setTimeout(r, 1100)); // the registry copy is re-checked once a second
    const res = await post({ intent: "today's horoscope for a zodiac sign" });
    expect(res.status).toBe(200);
    expect((res.body.resolved as { capability_id: string }).capability_id).toBe("util.horoscope");
  });
});
