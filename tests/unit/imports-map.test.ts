// The mapping decision (lib/imports/map.ts, decideMapping): list only when the whole is confident
// enough, the parts read alone back its answer, and no part confidently names another capability.
import { describe, expect, it } from "vitest";
import { CONFLICT_THRESHOLD, decideMapping, MAP_THRESHOLD, SUPPORT_THRESHOLD } from "@/lib/imports/map";

const c = (capability_id: string, confidence: number) => ({ capability_id, confidence });

describe("decideMapping", () => {
  it("lists under the combined answer when it is confident and the parts back it", () => {
    const m = decideMapping({ combined: [c("weather.current", 0.93), c("weather.forecast", 0.04)], parts: { description: [c("weather.current", 0.9)], path: [c("weather.current", 0.3)], fields: [] } });
    expect(m).toEqual({ capabilityId: "weather.current", confidence: 0.93, candidates: [c("weather.current", 0.93), c("weather.forecast", 0.04)] });
  });

  it("does not list below the mapping threshold", () => {
    const m = decideMapping({ combined: [c("crypto.price", MAP_THRESHOLD - 0.01)], parts: { description: [c("crypto.price", 0.99)], path: [c("crypto.price", 0.99)] } });
    expect(m.capabilityId).toBeNull();
    expect(m.refused).toBe("low_confidence");
    expect(m.candidates).toEqual([c("crypto.price", MAP_THRESHOLD - 0.01)]);
    expect(decideMapping({ combined: [], parts: {} })).toMatchObject({ capabilityId: null, confidence: null, refused: "low_confidence" });
  });

  it("adds the whole's confidence to the parts' in it, runners-up included, and refuses a weak backing", () => {
    // Only the whole text finds it: no part names it.
    expect(decideMapping({ combined: [c("image.generate", 0.95)], parts: {} })).toMatchObject({ capabilityId: null, confidence: 0.95, refused: "weak_support" });
    expect(decideMapping({ combined: [c("image.generate", 0.95)], parts: { description: [c("llm.chat", 0.5), c("image.generate", 0.45)] } }).refused).toBe("weak_support");
    // A fair whole and two fair parts, one of them as a runner-up, reach it exactly.
    const each = (SUPPORT_THRESHOLD - 0.8) / 2;
    const m = decideMapping({ combined: [c("image.generate", 0.8)], parts: { description: [c("image.generate", each)], path: [c("image.edit", 0.5), c("image.generate", each)] } });
    expect(m.capabilityId).toBe("image.generate");
    expect(decideMapping({ combined: [c("image.generate", 0.8)], parts: { description: [c("image.generate", each)], path: [c("image.generate", each - 0.01)] } }).refused).toBe("weak_support");
  });

  it("does not count the whole when its text is one part's (a listing of a URL path alone is read once)", () => {
    const answers = { combined: [c("crypto.price", 0.97)], parts: { path: [c("crypto.price", 0.97)] } };
    expect(decideMapping(answers).capabilityId).toBe("crypto.price");
    expect(decideMapping({ ...answers, combinedIs: "path" })).toMatchObject({ capabilityId: null, refused: "weak_support" });
  });

  it("does not list when a part confidently names another capability", () => {
    const m = decideMapping({ combined: [c("image.generate", 0.95)], parts: { description: [c("image.generate", 0.99)], path: [c("image.generate", 0.99)], fields: [c("llm.chat", CONFLICT_THRESHOLD)] } });
    expect(m).toMatchObject({ capabilityId: null, confidence: 0.95, refused: "conflict:fields" });
  });

  it("takes other thresholds", () => {
    const parts = { description: [c("a.b", 0.9)], path: [c("a.b", 0.6)] };
    expect(decideMapping({ combined: [c("a.b", 0.3)], parts }, { threshold: 0.2, support: 1.5 }).capabilityId).toBe("a.b");
    expect(decideMapping({ combined: [c("a.b", 0.3)], parts }, { support: 1.5 }).refused).toBe("low_confidence");
    expect(decideMapping({ combined: [c("a.b", 0.9)], parts: { ...parts, fields: [c("c.d", 0.6)] } }, { conflict: 0.5 }).capabilityId).toBeNull();
    expect(decideMapping({ combined: [c("a.b", 0.9)], parts }, { support: 2.5 }).refused).toBe("weak_support");
  });
});
