// The mapping decision (lib/imports/map.ts, decideMapping): list only when the whole is confident
// enough, the parts read alone back its answer, and no part confidently names another capability;
// and the listing's own name and path not contradicting the capability (contradiction).
import { describe, expect, it } from "vitest";
import { parseItem, type ParsedItem } from "@/lib/imports/item";
import { CONFLICT_THRESHOLD, contradiction, createMapper, decideMapping, DESCRIPTION_CONFLICT_THRESHOLD, MAP_THRESHOLD, SUPPORT_THRESHOLD } from "@/lib/imports/map";
import { memoryRegistry } from "../../scripts/eval-mapping";
import { v2Item } from "../helpers/catalogue-server";

function v2(url: string, opts: Parameters<typeof v2Item>[1] = {}): ParsedItem {
  const r = parseItem(v2Item(url, opts), null);
  if (!r.ok) throw new Error(`fixture does not parse: ${r.reason}`);
  return r.item;
}

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

describe("the description's veto", () => {
  it("vetoes from DESCRIPTION_CONFLICT_THRESHOLD, where the other parts need CONFLICT_THRESHOLD", () => {
    // The whole pulled to token metadata by its path and fields, the description sure of a token profile.
    const answers = (part: "description" | "path") => ({
      combined: [c("crypto.token_metadata", 0.95)],
      parts: { [part]: [c("onchain.token_profile", DESCRIPTION_CONFLICT_THRESHOLD)], fields: [c("crypto.token_metadata", 1)] },
    });
    expect(DESCRIPTION_CONFLICT_THRESHOLD).toBeLessThan(CONFLICT_THRESHOLD);
    expect(decideMapping(answers("description"))).toMatchObject({ capabilityId: null, refused: "conflict:description" });
    expect(decideMapping(answers("path")).capabilityId).toBe("crypto.token_metadata");
    // A lower `conflict` still applies to the description.
    expect(decideMapping({ combined: [c("a.b", 0.9)], parts: { description: [c("c.d", 0.6)], path: [c("a.b", 1)] } }, { conflict: 0.5 }).refused).toBe("conflict:description");
  });
});

describe("contradiction: the listing's own name or path against the capability", () => {
  const lookup = { id: "social.profile_lookup", title: "Social profile lookup" };
  const fundamentals = { id: "finance.company_fundamentals", title: "Company financials" };
  it("refuses a persona (a role's name) under a capability of data", () => {
    const persona = v2("https://advisors-x402.dev/financial_analyst", { description: "Financial modeling, KPI analysis, profitability analysis and variance analysis" });
    expect(contradiction(persona, fundamentals)).toBe("persona");
    expect(contradiction(v2("https://advisors-x402.dev/social-media-manager", { description: "Generate engaging social media posts and hashtag strategies" }), { id: "social.post_search", title: "Social post search" })).toBe("persona");
    expect(contradiction(v2("https://advisors-x402.dev/chat", { description: "Plan airdrop sizing and eligibility", serviceName: "Airdrop Economics Planner" }), { id: "defi.airdrops", title: "Airdrop tracker" })).toBe("persona");
    // Advice, and a profession's own work (marketing, legal), are what a persona sells.
    expect(contradiction(persona, { id: "agents.expert_advice", title: "Expert advisor" })).toBeNull();
    expect(contradiction(v2("https://advisors-x402.dev/growth_strategist", { description: "Go-to-market plans" }), { id: "marketing.strategy", title: "Marketing and growth plan" })).toBeNull();
    // A role word inside the path is not the listing's name; an agent is a seller's tool, not a role.
    expect(contradiction(v2("https://mesh-x402.dev/agents/AnalystAgent/company_financials", { description: "Income statement and balance sheet of a company" }), fundamentals)).toBeNull();
  });

  it("refuses a path that creates or changes something under a lookup or a search", () => {
    const create = v2("https://links-x402.dev/api/x402/create-profile", { description: "Create an agent profile" });
    expect(contradiction(create, lookup)).toBe("action");
    expect(contradiction(v2("https://links-x402.dev/api/profiles/update", { description: "Profile" }), lookup)).toBe("action");
    expect(contradiction(create, { id: "agents.register", title: "Register agent" })).toBeNull();
    expect(contradiction(v2("https://links-x402.dev/api/profile", { description: "Public profile of an account" }), lookup)).toBeNull();
  });

  it("keeps such a listing out of the mapping, with the reason, on the real registry", async () => {
    const map = await createMapper(memoryRegistry());
    const persona = map(v2("https://advisors-x402.dev/financial_analyst", { description: "Financial modeling, KPI analysis, profitability analysis, variance analysis, and data-driven financial insights" }));
    expect(persona).toMatchObject({ capabilityId: null, refused: "persona" });
    expect(persona.candidates[0]?.capability_id).toBe("finance.company_fundamentals");
    expect(map(v2("https://nimbus-x402.dev/v1/weather/current", { description: "Current weather conditions for a city: temperature, wind and humidity" })).capabilityId).toBe("weather.current");
  }, 60_000);
});
