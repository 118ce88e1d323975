// The API-key format (`cdx_` + 40 base62 characters) and its digest; no database here, so the
// route wrapper, the CLI and tests share one definition.
import { createHash, randomBytes } from "node:crypto";

export const KEY_PREFIX = "cdx_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 40 base62 characters carry about 238 bits. */
export const KEY_BODY_LENGTH = 40;
/** Characters of the key kept for display (`cdx_` + 8), enough to tell keys apart, far too few to guess the rest. */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

/** A well-formed key: what a caller may present. Longer bodies are accepted so the length can grow. */
export const KEY_PATTERN = /^cdx_[0-9A-Za-z]{32,128}$/;
/** Something in a URL that looks like one of our keys. */
export const KEY_LIKE = /cdx_[0-9A-Za-z]{16,}/;

export function generateApiKey(): string {
  let out = KEY_PREFIX;
  while (out.length < KEY_PREFIX.length + KEY_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 * 62: dropping bytes >= 248 keeps every character equally likely.
      if (byte < 248 && out.length < KEY_PREFIX.length + KEY_BODY_LENGTH) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Hex SHA-256 of the whole key: what is stored and looked up. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
