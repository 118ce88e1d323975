// The mapping decision (lib/imports/map.ts, decideMapping): list only when the whole is confident
// and no part confidently names another capability.
import { describe, expect, it } from "vitest";
import { CONFLICT_THRESHOLD, decideMapping, MAP_THRESHOLD } from "@/lib/imports/map";

const c = (capability_id: string, confidence: number) => ({ capability_id, confidence });

describe("decideMapping", () => {
  it("lists under the combined answer when it is confident and the parts agree or say little", () => {
    const m = decideMapping({ combined: [c("weather.current", 0.93), c("weather.forecast", 0.04)], parts: { description: [c("weather.current", 0.9)], path: [c("weather.forecast", 0.3)], fields: [] } });
    expect(m).toEqual({ capabilityId: "weather.current", confidence: 0.93, candidates: [c("weather.current", 0.93), c("weather.forecast", 0.04)] });
  });

  it("does not list below the mapping threshold, even above discover's floor", () => {
    const m = decideMapping({ combined: [c("crypto.price", MAP_THRESHOLD - 0.01)], parts: {} });
    expect(m.capabilityId).toBeNull();
    expect(m.refused).toBe("low_confidence");
    expect(m.candidates).toEqual([c("crypto.price", MAP_THRESHOLD - 0.01)]);
    expect(decideMapping({ combined: [], parts: {} })).toMatchObject({ capabilityId: null, confidence: null, refused: "low_confidence" });
  });

  it("does not list when a part confidently names another capability", () => {
    const m = decideMapping({ combined: [c("image.generate", 0.95)], parts: { description: [c("image.generate", 0.9)], fields: [c("llm.chat", CONFLICT_THRESHOLD)] } });
    expect(m).toMatchObject({ capabilityId: null, confidence: 0.95, refused: "conflict:fields" });
  });

  it("takes other thresholds", () => {
    expect(decideMapping({ combined: [c("a.b", 0.6)], parts: {} }, { threshold: 0.5 }).capabilityId).toBe("a.b");
    expect(decideMapping({ combined: [c("a.b", 0.9)], parts: { path: [c("c.d", 0.6)] } }, { conflict: 0.7 }).capabilityId).toBe("a.b");
  });
});
