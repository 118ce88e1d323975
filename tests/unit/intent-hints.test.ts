// What an intent says besides its job: a ranking preference in its words, and the joins between
// the jobs of a multi-part need (lib/discovery/intent/hints.ts).
import { describe, it, expect } from "vitest";
import { presetFromIntent, splitParts } from "@/lib/discovery/intent/hints";

describe("presetFromIntent", () => {
  it.each([
    ["the cheapest transcription of this call", "budget"],
    ["low-cost OCR for receipts", "budget"],
    ["la traduction la moins chère", "budget"],
    ["самый дешёвый перевод текста", "budget"],
    ["最便宜的翻译接口", "budget"],
    ["fastest geocoding you have", "speed"],
    ["die schnellste Wettervorhersage", "speed"],
    ["most reliable email verification", "reliability"],
    ["la API más confiable para el clima", "reliability"],
  ])("reads %j as the %s preset", (text, preset) => {
    expect(presetFromIntent(text)).toBe(preset);
  });

  it.each([["weather in Oslo"], ["fast food near me"], ["cheapskate jokes"], ["transcribe a podcast"]])("finds no preference in %j", (text) => {
    expect(presetFromIntent(text)).toBeNull();
  });
});

describe("splitParts", () => {
  it("splits a need that joins two jobs, in order", () => {
    expect(splitParts("find the CFO's email and check it is deliverable")).toEqual(["find the CFO's email", "check it is deliverable"]);
    expect(splitParts("translate this review; then summarize it")).toEqual(["translate this review", "then summarize it"]);
    expect(splitParts("transcris l'audio et ensuite traduis-le en anglais")).toEqual(["transcris l'audio", "traduis-le en anglais"]);
    expect(splitParts("把这段音频转成文字然后翻译成英文")).toEqual(["把这段音频转成文字", "翻译成英文"]);
  });

  it("keeps a need with one job whole", () => {
    expect(splitParts("weather in Lisbon tomorrow")).toEqual(["weather in Lisbon tomorrow"]);
    expect(splitParts("météo en France")).toEqual(["météo en France"]);
    expect(splitParts("brandon")).toEqual(["brandon"]);
  });

  it("never returns more than four parts, nor empty ones", () => {
    const parts = splitParts("a and b and c and d and e and f");
    expect(parts.length).toBeLessThanOrEqual(4);
    for (const text of ["and and and", "x and y", "; ;"]) expect(splitParts(text).every((p) => p.trim().length >= 3), text).toBe(true);
  });
});
