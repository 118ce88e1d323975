import { describe, expect, it } from "vitest";
import { numberSetting } from "@/lib/env";

describe("numberSetting", () => {
  it("reads a number, and falls back when unset, blank, not a number or below the minimum", () => {
    expect(numberSetting("250", 5)).toBe(250);
    expect(numberSetting(" 0.5 ", 5)).toBe(0.5);
    expect(numberSetting(undefined, 5)).toBe(5);
    expect(numberSetting("  ", 5)).toBe(5);
    expect(numberSetting("soon", 5)).toBe(5);
    expect(numberSetting("Infinity", 5)).toBe(5);
    expect(numberSetting("-1", 5)).toBe(5);
    expect(numberSetting("0", 5)).toBe(0);
    expect(numberSetting("0", 5, { min: 1 })).toBe(5);
  });

  it("holds a value to its maximum", () => {
    expect(numberSetting("90000", 30, { max: 1440 })).toBe(1440);
    expect(numberSetting("60", 30, { max: 1440 })).toBe(60);
  });
});
