import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey, KEY_LIKE } from "@/lib/auth/key-format";

describe("API key format", () => {
  it("is cdx_ followed by 40 base62 characters, different every time", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^cdx_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("uses the whole base62 alphabet (no bias towards a few characters)", () => {
    const seen = new Set(Array.from({ length: 100 }, generateApiKey).join("").slice(4).replace(/cdx_/g, ""));
    expect(seen.size).toBe(62);
  });

  it("is stored as the hex SHA-256 of the whole key", () => {
    const k = generateApiKey();
    expect(hashApiKey(k)).toBe(createHash("sha256").update(k).digest("hex"));
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps only cdx_ and 8 characters for display", () => {
    const k = generateApiKey();
    expect(displayPrefix(k)).toBe(k.slice(0, 12));
    expect(displayPrefix(k)).toHaveLength(12);
  });

  it("accepts well-formed keys only", () => {
    expect(isWellFormedKey(generateApiKey())).toBe(true);
    expect(isWellFormedKey("cdx_" + "a".repeat(32))).toBe(true);
    expect(isWellFormedKey("cdx_" + "a".repeat(31))).toBe(false);
    expect(isWellFormedKey("cdx_" + "a".repeat(39) + "-")).toBe(false);
    expect(isWellFormedKey("sk_" + "a".repeat(40))).toBe(false);
    expect(isWellFormedKey(" cdx_" + "a".repeat(40))).toBe(false);
    expect(isWellFormedKey("")).toBe(false);
  });

  it("recognises a key pasted into a URL", () => {
    expect(KEY_LIKE.test(`x${generateApiKey()}y`)).toBe(true);
    expect(KEY_LIKE.test("cdx_short")).toBe(false);
  });
});
