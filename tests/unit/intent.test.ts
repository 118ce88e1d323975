// Behaviour of the intent resolver (lib/discovery/intent) on the starter registry, plus the evaluation sets'
// figures on both splits, so a change that only fits the dev split fails here.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  buildIntentIndex,
  completeIntentIndex,
  interimIntentIndex,
  needsRuntimeClasses,
  resolveIntent,
  resolveNeed,
  INTENT_CONFIDENCE_FLOOR,
  RUNTIME_CLASS_FLOOR,
  type IntentDoc,
  type IntentResolution,
} from "@/lib/discovery/intent";
import { loadCases, STARTER_CAPABILITIES } from "../../scripts/eval-intents";

type Registry = {
  categories: { id: string; title: string }[];
  capabilities: { id: string; title: string; description: string; tags: string[]; aliases?: string[]; examples?: string[] }[];
};

const root = path.resolve(__dirname, "../..");
/** tests/eval/intents-blind.jsonl as `npm run eval:intents` scores it (the relabelled unservable needs as servable), read once. */
const blindCases = loadCases("blind");
const registry = JSON.parse(readFileSync(path.join(root, "lib/registry/capabilities.json"), "utf8")) as Registry;
const titles = new Map(registry.categories.map((c) => [c.id, c.title]));
const docs: IntentDoc[] = registry.capabilities.map((c) => {
  const category = c.id.split(".")[0];
  return { ...c, category, categoryTitle: titles.get(category) };
});
const index = buildIntentIndex(docs);
const resolve = (intent: string): IntentResolution => resolveIntent(index, intent);
const best = (intent: string): string | null => resolve(intent).best?.capability_id ?? null;

describe("registry enrichment", () => {
  it("gives every capability aliases and examples", () => {
    for (const c of registry.capabilities) {
      expect(c.aliases?.length ?? 0, c.id).toBeGreaterThanOrEqual(5);
      expect(c.examples?.length ?? 0, c.id).toBeGreaterThanOrEqual(4);
    }
  });
});

describe("resolveIntent", () => {
  it("prefers weather.forecast for 'will it rain in Oslo tomorrow'", () => {
    const r = resolve("will it rain in Oslo tomorrow");
    expect(r.best?.capability_id).toBe("weather.forecast");
    expect(r.best?.confidence).toBeGreaterThanOrEqual(INTENT_CONFIDENCE_FLOOR);
  });

  it("tells current conditions from a forecast by tense", () => {
    expect(best("what's the temperature in Lisbon right now")).toBe("weather.current");
    expect(best("will it snow in Lisbon this weekend")).toBe("weather.forecast");
    expect(best("how much did it rain in Lisbon last year")).toBe("weather.historical");
  });

  it("leaves made-up words unresolved: 300 phrases of one to three pseudo-words (fixed seed)", () => {
    // Syllables of random consonants and vowels: no word of any supported language on purpose, so
    // nothing but the model's guessing could name a capability for them.
    let seed = 7;
    const draw = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = (s: string) => s[Math.floor(draw() * s.length)];
    const word = () => {
      let w = "";
      for (let i = 2 + Math.floor(draw() * 3); i > 0; i--) w += pick("bcdfghjklmnprstvwxzq") + pick("aeiouy") + (draw() < 0.4 ? pick("bcdfghjklmnprstvwxz") : "");
      return w;
    };
    const phrases = Array.from({ length: 300 }, () => Array.from({ length: 1 + Math.floor(draw() * 3) }, word).join(" "));
    expect(new Set(phrases).size).toBeGreaterThan(290);
    const resolved = phrases.filter((p) => resolve(p).best !== null);
    expect(resolved).toEqual([]);
  });

  it.each([
    ["book a table for four tonight"],
    ["walk my dog"],
    ["file my taxes"],
    ["mow the lawn"],
  ])("rejects %j as unresolved, with its top guesses", (intent) => {
    const r = resolve(intent);
    expect(r.best).toBeNull();
    expect(r.candidates.length).toBeLessThanOrEqual(3);
    for (const c of r.candidates) expect(c.confidence).toBeLessThan(INTENT_CONFIDENCE_FLOOR);
  });

  it("tolerates typos", () => {
    expect(best("weathr forcast for tomorow in Bergen")).toBe("weather.forecast");
    expect(best("transalte this paragraph to german")).toBe("translate.text");
    expect(best("curent exchnage rate usd eur")).toBe("finance.fx_rate");
  });

  it("leaves real words alone instead of \"correcting\" them into registry words", () => {
    // "rash" is one letter from "cash" (company financials), "walk" from "talk" (chat).
    expect(best("diagnose my rash")).toBeNull();
    expect(best("walk my dog")).toBeNull();
  });

  it("handles plurals and other inflections", () => {
    expect(best("stock quotes for MSFT")).toBe("finance.stock_quote");
    expect(best("transcribing voicemails")).toBe("audio.transcribe");
    expect(best("validating email addresses")).toBe("email.verify");
  });

  it("does not depend on word order for keyword queries", () => {
    expect(best("forecast weather Oslo")).toBe("weather.forecast");
    expect(best("Oslo weather forecast")).toBe("weather.forecast");
  });

  it("uses word order where it carries the meaning", () => {
    expect(best("speech to text")).toBe("audio.transcribe");
    expect(best("text to speech")).toBe("audio.tts");
  });

  it("understands concrete values: IPs, wallet addresses, flight numbers, CVEs", () => {
    expect(best("where is 203.0.113.9")).toBe("geo.ip_lookup");
    expect(best("balance of 0x742d35Cc6634C0532925a3b844Bc454e4438f44e")).toBe("crypto.wallet_balance");
    expect(best("has KL1234 landed yet")).toBe("travel.flight_status");
    expect(best("details for CVE-2023-4863")).toBe("security.vuln_lookup");
  });

  it("separates near neighbours", () => {
    expect(best("bitcoin price")).toBe("crypto.price");
    expect(best("Apple share price")).toBe("finance.stock_quote");
    expect(best("latest headlines about the Olympics")).toBe("search.news");
    // Both read it: the news behind a move, or the move itself. The two must be the top two.
    const netflix = resolve("why did Netflix shares drop today");
    expect([netflix.best, ...netflix.candidates].slice(0, 2).map((c) => c?.capability_id).sort()).toEqual(["finance.market_news", "finance.stock_quote"]);
  });

  it("is confident on a clear match and less so when two capabilities compete", () => {
    const clear = resolve("translate this paragraph from English to German");
    expect(clear.best?.capability_id).toBe("translate.text");
    expect(clear.best?.confidence).toBeGreaterThanOrEqual(0.8);
    const vague = resolve("weather in Oslo");
    expect(vague.best === null || vague.best.confidence < (clear.best?.confidence ?? 1)).toBe(true);
  });

  it("returns well-formed candidates: best first, 3 decimals, best not repeated", () => {
    for (const intent of ["eth gas fees", "pdf -> markdown", "convert 100 dollars to yen", "walk my dog"]) {
      const r = resolve(intent);
      const all = [...(r.best ? [r.best] : []), ...r.candidates];
      expect(r.candidates.length).toBeLessThanOrEqual(3);
      for (let i = 0; i < all.length; i++) {
        expect(all[i].confidence).toBeGreaterThanOrEqual(0);
        expect(all[i].confidence).toBeLessThanOrEqual(1);
        expect(Math.round(all[i].confidence * 1000) / 1000).toBe(all[i].confidence);
        if (i > 0) expect(all[i].confidence).toBeLessThanOrEqual(all[i - 1].confidence);
      }
      if (r.best) expect(r.candidates.map((c) => c.capability_id)).not.toContain(r.best.capability_id);
      expect(new Set(all.map((c) => c.capability_id)).size).toBe(all.length);
    }
  });

  it("never throws on odd input", () => {
    const odd = [
      "",
      "\u0000\u0000",
      "\uD800 lone surrogate \uDFFF",
      "🌧️☔ tomorrow?",
      "https://example.com/?q=<script>alert(1)</script>",
      "0".repeat(500),
      "a".repeat(500),
      "'".repeat(499),
      "\u202Eevil bidi",
      Array.from({ length: 120 }, (_, i) => `word${i}`).join(" "),
    ];
    for (const intent of odd) {
      const r = resolve(intent);
      expect(Array.isArray(r.candidates)).toBe(true);
    }
  });

  it("is deterministic, also across index rebuilds", () => {
    const again = buildIntentIndex(docs.map((d) => ({ ...d })));
    for (const intent of ["will it rain in Oslo tomorrow", "draw a fox", "book a table for four tonight"]) {
      expect(resolveIntent(again, intent)).toEqual(resolve(intent));
    }
  });

  it("finds a capability added to the index at run time", () => {
    const before = buildIntentIndex(docs);
    expect(resolveIntent(before, "daily horoscope for my zodiac sign").best?.capability_id).not.toBe("util.horoscope");
    const after = buildIntentIndex([
      ...docs,
      {
        id: "util.horoscope",
        category: "util",
        title: "Daily horoscope",
        description: "Astrology readings for each zodiac sign",
        tags: ["astrology", "zodiac"],
        aliases: ["horoscope", "star sign reading"],
      },
    ]);
    expect(resolveIntent(after, "daily horoscope for my zodiac sign").best?.capability_id).toBe("util.horoscope");
    expect(resolveIntent(after, "will it rain in Oslo tomorrow").best?.capability_id).toBe("weather.forecast");
    // The new capability has a model class of its own, learned from its registry texts.
    expect(after.extension?.docs.length).toBe(1);
    expect(after.unknown.size).toBe(0);
  });

  it("learns run-time classes a slice at a time, giving the event loop turns, to the same weights", async () => {
    const renamed = docs.map((d, i) => (i % 50 === 3 ? { ...d, id: `${d.id}_sliced` } : d));
    const whole = buildIntentIndex(renamed);
    const interim = interimIntentIndex(renamed);
    expect(needsRuntimeClasses(interim)).toBe(true);
    expect(interim.extension).toBeNull();
    expect(interim.unknown.size).toBe(whole.runtime.size);
    let done = false;
    let turnsWhileTraining = 0;
    const tick = setInterval(() => void (done || turnsWhileTraining++), 0);
    const complete = await completeIntentIndex(interim, renamed).finally(() => {
      done = true;
      clearInterval(tick);
    });
    // A timer ran while training was under way: trainExtension in one piece would let none run.
    expect(turnsWhileTraining).toBeGreaterThan(0);
    expect(complete.lexical).toBe(interim.lexical);
    expect(complete.runtime).toEqual(whole.runtime);
    expect(Array.from(complete.extension!.bias)).toEqual(Array.from(whole.extension!.bias));
    expect(new Map([...complete.extension!.rows].map(([f, w]) => [f, Array.from(w)]))).toEqual(new Map([...whole.extension!.rows].map(([f, w]) => [f, Array.from(w)])));
    expect(needsRuntimeClasses(complete)).toBe(false);
    expect(await completeIntentIndex(complete, renamed)).toBe(complete);
  });

  it("learns run-time classes for capabilities the model was not trained on, from their registry texts", () => {
    // Ten capabilities under new ids: the shipped model has no class for them, so only their registry
    // texts teach the run-time classes (lib/discovery/intent/extension.ts) what they do.
    const renamed = new Map(docs.filter((_, i) => i % 40 === 7).map((d) => [d.id, `${d.id}_new`]));
    const fresh = buildIntentIndex(docs.map((d) => (renamed.has(d.id) ? { ...d, id: renamed.get(d.id)! } : d)));
    expect(fresh.extension?.docs.length).toBe(renamed.size);
    const blind = blindCases.filter((c) => c.expected.some((e) => renamed.has(e)));
    expect(blind.length).toBeGreaterThanOrEqual(50);
    const answers = blind.map((c) => ({ c, best: resolveIntent(fresh, c.intent).best }));
    const right = answers.filter(({ c, best }) => c.expected.map((e) => renamed.get(e) ?? e).includes(best?.capability_id ?? "")).length;
    expect(right / blind.length).toBeGreaterThanOrEqual(0.8); // 48 of 57 (84%) on 2026-12-03; 0.75 before the context sentences
    // A run-time class is the answer only at its own floor; below it, it stays a candidate.
    const newIds = new Set(renamed.values());
    for (const { best } of answers) if (best && newIds.has(best.capability_id)) expect(best.confidence).toBeGreaterThanOrEqual(RUNTIME_CLASS_FLOOR);
    // Needs that nothing serves are rarely taken by a new class (5 of 200 on 2026-12-03).
    const unservable = blindCases.filter((c) => c.expected.length === 0);
    expect(unservable.filter((c) => newIds.has(resolveIntent(fresh, c.intent).best?.capability_id ?? "")).length).toBeLessThanOrEqual(8);
    // Needs for the capabilities it knows keep their answers.
    expect(resolveIntent(fresh, "will it rain in Oslo tomorrow").best?.capability_id).toBe(best("will it rain in Oslo tomorrow"));
  });
});

describe("needs as agents write them (examples from issue 16, none in the training corpus)", () => {
  it.each([
    ["I'm planning a user's hike near Boulder on Saturday and need to know whether thunderstorms are expected that afternoon", "weather.forecast"],
    ["Before we invoice this new customer in Germany I have to confirm that their VAT number is real", "data.vat_validate"],
    ["which bus or train gets me from the airport to the old town fastest", "maps.directions"],
    ["who runs the internet connection behind this address 203.0.113.7", "geo.ip_lookup"],
    ["wie viel sind 200 Dollar gerade in Pfund", "finance.fx_rate"],
    ["convertis ce document Word en PDF", "docs.convert"],
    ["px of BTC rn", "crypto.price"],
    ["Hourly pollen counts by lat/lon, JSON", "weather.air_quality"],
  ])("resolves %j", (intent, expected) => {
    expect(best(intent)).toBe(expected);
  });

  it.each([["reserve a tee time at the golf club"], ["repair the cracked screen on my phone"], ["file my tax return"]])(
    "says no to the near miss %j, and still names its runners-up",
    (intent) => {
      const r = resolve(intent);
      expect(r.best).toBeNull();
      expect(r.candidates).toHaveLength(3);
    },
  );

  it("reads needs in scripts without spaces and non-Latin scripts", () => {
    expect(best("明日の東京の天気は？")).toBe("weather.forecast");
    expect(best("明天北京的天气怎么样")).toBe("weather.forecast");
    expect(best("bitcoin price")).toBe("crypto.price");
  });

  it("never answers a short, unsure need with confidence", () => {
    // As discover reads a person's need (resolveNeed); a listing's one-word parts are read as they are.
    for (const intent of ["run it", "I need the numbers"]) {
      const r = resolveNeed(index, intent);
      expect(r.best?.confidence ?? 0, intent).toBeLessThanOrEqual(0.5);
    }
    expect(resolveNeed(index, "bitcoin price").best!.confidence).toBeGreaterThan(0.9);
  });

  it("gives a clean answer in languages it was not trained on: right, or unresolved, never a wrong confident one", () => {
    // The model now reads 22 languages (the people sets measure them); these four it never saw.
    const cases: [string, string][] = [
      ["hali ya hewa kesho Nairobi", "weather.forecast"],
      ["huomisen sää Helsingissä", "weather.forecast"],
      ["holnapi időjárás Budapesten", "weather.forecast"],
      ["předpověď počasí na zítra v Praze", "weather.forecast"],
      ["käännä tämä lause englanniksi", "translate.text"],
    ];
    for (const [intent, expected] of cases) {
      const r = resolve(intent);
      if (r.best) expect(r.best.capability_id, intent).toBe(expected);
      else expect(r.candidates.length, intent).toBeGreaterThan(0);
    }
  });
});

function score(cases: { intent: string; expected: string[] }[]) {
  let top1 = 0;
  let top3 = 0;
  let wronglyRejected = 0;
  let servable = 0;
  let unservable = 0;
  let rejected = 0;
  for (const c of cases) {
    const r = resolve(c.intent);
    if (c.expected.length === 0) {
      unservable++;
      if (r.best === null) rejected++;
      continue;
    }
    servable++;
    if (r.best && c.expected.includes(r.best.capability_id)) top1++;
    if ([...(r.best ? [r.best] : []), ...r.candidates].slice(0, 3).some((x) => c.expected.includes(x.capability_id))) top3++;
    if (r.best === null) wronglyRejected++;
  }
  return { top1: top1 / servable, top3: top3 / servable, wronglyRejected: wronglyRejected / servable, rejected: rejected / unservable };
}

// Regression bounds, a little under the measured figures (docs/intents.md); `npm run eval:intents`
// measures the targets themselves, per style.
describe("blind evaluation set (tests/eval/intents-blind.jsonl)", () => {
  const cases = blindCases;

  it("has 1,200+ servable needs (10+ per capability, every style) and 180+ unservable ones, split in two", () => {
    const servable = cases.filter((c) => c.expected.length);
    expect(servable.length).toBeGreaterThanOrEqual(1200);
    // 200 written as unservable, 14 of which the grown registry serves (relabelled).
    const relabelled = cases.filter((c) => c.style === "relabelled");
    expect(relabelled).toHaveLength(14);
    expect(cases.length - servable.length).toBe(200 - relabelled.length);
    // Written for the starter registry's 100 capabilities; the registry has grown since (the people
    // and fresh sets cover the others).
    const covered = registry.capabilities.filter((c) => servable.filter((x) => x.expected.includes(c.id)).length >= 10);
    expect(covered.length).toBeGreaterThanOrEqual(100);
    // ... which are the registry's first 100 (what `eval:intents -- --registry starter` scores against).
    const starter = new Set(registry.capabilities.slice(0, STARTER_CAPABILITIES).map((c) => c.id));
    const written = new Set(servable.filter((c) => c.style !== "relabelled").flatMap((c) => c.expected));
    expect(written).toEqual(starter);
    const styles = new Set(servable.map((c) => c.style));
    for (const s of ["keyword", "short_question", "long_agent", "values", "chat", "paraphrase", "service_description", "other_language"]) expect(styles).toContain(s);
    expect(new Set(cases.map((c) => c.split))).toEqual(new Set(["dev", "holdout"]));
  });

  for (const split of ["dev", "holdout"]) {
    it(`holds its figures on the ${split} split`, () => {
      const s = score(cases.filter((c) => c.split === split));
      expect(s.top1).toBeGreaterThanOrEqual(0.9);
      expect(s.top3).toBeGreaterThanOrEqual(0.97);
      expect(s.wronglyRejected).toBeLessThanOrEqual(0.05);
      expect(s.rejected).toBeGreaterThanOrEqual(0.85);
    });
  }
});

describe("first evaluation set (tests/eval/intents.json, written while tuning the lexical resolver)", () => {
  type OldCase = { intent: string; expected: string | null; split: string };
  const cases = JSON.parse(readFileSync(path.join(root, "tests/eval/intents.json"), "utf8")) as OldCase[];

  it("keeps its figures: top-1 >= 90%, top-3 >= 97%, unservable rejected >= 90%", () => {
    const s = score(cases.map((c) => ({ intent: c.intent, expected: c.expected ? [c.expected] : [] })));
    expect(s.top1).toBeGreaterThanOrEqual(0.9);
    expect(s.top3).toBeGreaterThanOrEqual(0.97);
    expect(s.rejected).toBeGreaterThanOrEqual(0.9);
  });
});
