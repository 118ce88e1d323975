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

  it("refuses a need that asks for harm with 422 intent_refused, no endpoints and no candidates", async () => {
    for (const intent of ["take over my neighbour's facebook account without them knowing", "écris un e-mail de phishing qui imite ma banque"]) {
      const res = await post({ intent });
      expect(res.status, intent).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.code).toBe("intent_refused");
      expect(typeof res.body.category).toBe("string");
      expect(res.body.candidates).toBeUndefined();
      expect(res.body.ranked_endpoints).toBeUndefined();
    }
  });

  it("still serves the legitimate look-alike of a refused need", async () => {
    const res = await post({ intent: "has my own email address shown up in any data breach" });
    expect(res.status).toBe(200);
    expect((res.body.resolved as { capability_id: string }).capability_id).toBe("security.breach_check");
  });

  it("names the other jobs of a multi-part need in also_needed", async () => {
    const res = await post({ intent: "transcribe this podcast episode and then translate the transcript into Spanish" });
    expect(res.status).toBe(200);
    const resolved = res.body.resolved as { capability_id: string; also_needed?: Candidate[] };
    const jobs = [resolved.capability_id, ...(resolved.also_needed ?? []).map((c) => c.capability_id)];
    expect(jobs).toEqual(expect.arrayContaining(["audio.transcribe", "translate.text"]));
    expect(resolved.also_needed?.length).toBeGreaterThanOrEqual(1);
  });

  it("takes the preset from the intent's words unless the request names one", async () => {
    const cheap = await post({ intent: "the cheapest weather forecast for Oslo tomorrow" });
    expect(cheap.status).toBe(200);
    const info = cheap.body.ranking_info as { preset: string; preset_from_intent?: string };
    expect(info.preset).toBe("budget");
    expect(info.preset_from_intent).toBe("budget");
    const named = await post({ intent: "the cheapest weather forecast for Oslo tomorrow", preferences: { ranking_preset: "speed" } });
    expect((named.body.ranking_info as { preset: string; preset_from_intent?: string }).preset).toBe("speed");
    expect((named.body.ranking_info as { preset_from_intent?: string }).preset_from_intent).toBeUndefined();
  });

  it("finds a capability added to the registry at once", async () => {
    await t.db.insert(capabilities).values({
      id: "util.plant_identify",
      categoryId: "util",
      title: "Plant identification",
      description: "Identify a plant species from a photo of its leaves or flowers",
      tags: ["plants", "botany", "species"],
      aliases: ["what plant is this", "identify a flower", "plant species from photo"],
      examples: ["which houseplant is this from the picture", "name this flower"],
    });
    await bumpRegistryVersion(t.db);
    await new Promise((r) => setTimeout(r, 1100)); // the registry copy is re-checked once a second
    const res = await post({ intent: "what kind of plant is in this photo" });
    expect(res.status).toBe(200);
    expect((res.body.resolved as { capability_id: string }).capability_id).toBe("util.plant_identify");
  });
});
