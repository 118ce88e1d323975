// Catalogue noise, recognised and held back instead of listed (docs/imports.md, "Noise"): listings
// whose description is boilerplate or says nothing, payments for content or for minting a token,
// testnet-only offers, and one host's many identical listings. Deterministic and cheap: regular
// expressions over one item, and counts of (host, description) groups across a run.
import { createHash } from "node:crypto";
import { NETWORKS } from "@/lib/schemas/networks";
import type { ParsedItem } from "./item";

export const NOISE_REASONS = ["boilerplate_description", "empty_description", "duplicate_listing", "testnet_only", "content_paywall", "token_mint"] as const;
export type NoiseReason = (typeof NOISE_REASONS)[number];
/** Reasons that depend on the other listings of the host (decided again at the end of each completed run). */
export const GROUP_REASONS: readonly NoiseReason[] = ["boilerplate_description", "duplicate_listing"];

/** This many listings of one host with the same description make a group (boilerplate when short, duplicates when their input is the same too). */
export const GROUP_MIN = 5;
/** A repeated description of at most this many words says nothing about each listing. */
const SHORT_WORDS = 8;
/** Under this many letters of meaningful words, a description says nothing. */
const MEANINGFUL_MIN = 15;

const TESTNETS: ReadonlySet<string> = new Set([NETWORKS["base-sepolia"], NETWORKS["solana-devnet"]]);

// Known boilerplate, whole descriptions (after normalising case and spaces).
const BOILERPLATE = new Set([
  "premium api access",
  "payment for api access",
  "api access",
  "paid api access",
  "paid endpoint",
  "paid content",
  "premium content",
  "protected route",
  "protected endpoint",
  "payment required",
  "x402 payment",
  "x402 protected endpoint",
  "hello world",
  "test",
  "test endpoint",
  "testing",
  "demo",
  "demo endpoint",
]);

/** Words that say nothing about what a listing does: prices, networks, payment and generic API words. */
const GENERIC = new Set(
  (
    "a an the and or of for to on in at by with via from your you our this that is are be it its per each " +
    "usdc usd usdt dollar dollars cent cents price paid pay payment payments required requires fee fees cost costs " +
    "base sepolia solana devnet mainnet testnet eth ethereum polygon network onchain x402 402 " +
    "api apis access premium endpoint endpoints resource resources service services route routes request requests call calls " +
    "protected content data get post http https v1 v2 new free test testing demo example hello world powered provider run"
  ).split(" "),
);

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** The words that say something (not a price, a network, a number or a generic API word). */
export function meaningfulWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => !(w.length < 2 || GENERIC.has(w) || /^v?\d+(k|m)?$/.test(w) || /^0x[0-9a-f]+$/.test(w)));
}

/** Letters of the words that say something. */
export function meaningfulChars(text: string): number {
  return meaningfulWords(text).reduce((n, w) => n + w.length, 0);
}

const PRICE_ONLY = /^(?:(?:payment|pay|price|cost|fee)(?:\s+(?:required|for|of))?\s*:?\s*)?\(?\$?\s*\d[\d.,]*\s*(?:usdc|usd|usdt|\$)?\)?(?:\s+(?:on|via)\s+[\w-]+)?(?:\s+\w+)?\.?$/i;
const QUESTFLOW = /\s*[|\-–]\s*powered by questflow\.?\s*$/i;

const PAYWALL = [
  /\bipfs\b.*\b(?:content|file|retriev|cid|gateway)/i,
  /\b(?:by|the|a|its)\s+cid\b/i,
  /\bunlock(?:s|ing)?\s+(?:this|the|premium|exclusive|full|my|our)?\s*(?:content|article|post|file|image|video|photo|story|report)s?\b/i,
  /\baccess\s+to\s+(?:the\s+)?(?:protected|premium|exclusive|gated|paywalled)\s+(?:content|resource|article|file|image|page|post)s?\b/i,
  /\b(?:premium|paywalled|gated|exclusive|full)\s+(?:article|blog|post|newsletter|story|essay)s?\b/i,
  /\bretrieve\s+(?:a|the)\s+private\s+file\b/i,
  /\bpaywall(?:ed)?\b/i,
  /\bread\s+the\s+full\s+(?:article|post|story)\b/i,
];
// A CID in the path: CIDv0 (Qm...) or CIDv1 (bafy...).
const CID = /\/(?:ipfs\/)?(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,})(?:\/|$)/;

const MINT = [
  /^\W*mint\b/i,
  /\bmint\s+(?:an?\s+|your\s+|the\s+|\d[\d,.]*k?\s+)?(?:\$[a-z]\w*|nfts?|tokens?|coins?)\b/i,
  /\bmint(?:ed)?\s+(?:directly\s+)?(?:to|into)\s+your\s+wallet\b/i,
  /\b(?:get|receive)\s+[\d,.]+\s*k?\s+(?:\$?[a-z]\w*\s+)?tokens?\b/i,
  /\bpay\s+[\d.]+\s*(?:usdc|usd|\$)?\s*(?:→|->|to|and|,)\s*(?:get|receive)\b/i,
  /\btokens?\s+will\s+be\s+(?:sent|minted|airdropped|delivered)\b/i,
  /\b(?:public|token)\s+sale\b/i,
  /^\s*\$[a-z][a-z0-9]{1,14}\s*$/i,
  /\bbuy\s+(?:[\d.,]+|custom)\s+(?:usdc|usd)?\s*(?:amount\s+)?worth\s+of\b/i,
  /\bnft\s+collection\s+(?:featuring|of|with)\b/i,
];

// A path segment that ends with the word "mint", perhaps versioned: `/mint`, `/mint-1000`, `/mint-v2`,
// `/x402-mint`, `/nft-mint/api/verify-and-mint` (the endpoint sells the mint). Not `/tokens/minted`
// (a read of what was minted) nor `/mint-info` (a Solana token's mint address is read there).
const MINT_PATH = /(?:^|\/)(?:[^/]*[-_])?mint(?:[-_]v?\d+)?(?:\/|$)/i;

/** The noise one item shows by itself (no other listing needed), or null. */
export function noiseOfItem(item: ParsedItem): NoiseReason | null {
  const accepts = item.paymentSeen.accepts;
  if (accepts.length && accepts.every((a) => TESTNETS.has(a.network))) return "testnet_only";
  const d = item.description;
  const path = new URL(item.url).pathname;
  if (MINT.some((re) => re.test(d)) || MINT_PATH.test(path)) return "token_mint";
  if (PAYWALL.some((re) => re.test(d)) || CID.test(path)) return "content_paywall";
  const n = norm(d);
  const bare = n.replace(QUESTFLOW, "").trim();
  if (BOILERPLATE.has(n) || BOILERPLATE.has(bare.replace(/[.!]+$/, ""))) return "boilerplate_description";
  // "Web3 Trader | Powered by Questflow": a role's name and the platform's, nothing the endpoint does.
  if (bare !== n && bare.split(" ").length <= 3) return "boilerplate_description";
  if (PRICE_ONLY.test(n)) return "boilerplate_description";
  if (meaningfulChars(d) < MEANINGFUL_MIN && !saysSomethingElse(item)) {
    // Some words, all of them about paying or generic ("Payment for access"): boilerplate; else nothing said.
    return n && /\b(?:usdc|usd|payment|pay|access|premium|protected|paid|api)\b/.test(n) ? "boilerplate_description" : "empty_description";
  }
  return null;
}

/** A name, tags, declared fields or path words that say what the listing does, without its description. */
function saysSomethingElse(item: ParsedItem): boolean {
  return meaningfulChars(item.parts.name) >= MEANINGFUL_MIN || meaningfulChars(item.parts.fields) >= MEANINGFUL_MIN || meaningfulChars(item.parts.path) >= MEANINGFUL_MIN;
}

const digest = (s: string) => createHash("sha256").update(s).digest("base64url").slice(0, 16);

export type GroupKeys = {
  /** host + description: many of these, with a short description, are boilerplate. */
  repeat: string;
  /** host + description + declared input: many of these are duplicates. */
  duplicate: string;
  short: boolean;
} | null;

/** The item's group keys, or null when its description is empty (listings told apart by their path only are not grouped). */
export function groupKeysOf(item: ParsedItem): GroupKeys {
  const d = norm(item.description);
  if (!d) return null;
  return { repeat: digest(`${item.host}\n${d}`), duplicate: digest(`${item.host}\n${d}\n${item.inputNames.join(",")}`), short: d.split(" ").length <= SHORT_WORDS };
}

/**
 * A run's noise judge: an item's own noise first; then, counting the (host, description) groups
 * seen so far in the run, a group that reached GROUP_MIN. The earlier members of a group, and the
 * representative of duplicates, are settled at the end of a completed run (lib/imports/store.ts,
 * settleGroups). `previous`: an earlier run's group reason stays until then.
 */
export function createNoiseJudge(): (item: ParsedItem, previous?: { state: string; reason: string | null }) => NoiseReason | null {
  const counts = new Map<string, number>();
  const bump = (k: string) => {
    const n = (counts.get(k) ?? 0) + 1;
    if (counts.size < 200_000) counts.set(k, n);
    return n;
  };
  return (item, previous) => {
    const own = noiseOfItem(item);
    if (own) return own;
    const keys = groupKeysOf(item);
    if (!keys) return null;
    const repeated = bump(`r${keys.repeat}`);
    const duplicated = bump(`d${keys.duplicate}`);
    if (previous?.state === "held_back" && GROUP_REASONS.includes(previous.reason as NoiseReason)) return previous.reason as NoiseReason;
    if (keys.short && repeated >= GROUP_MIN && duplicated < repeated) return "boilerplate_description";
    if (duplicated >= GROUP_MIN) return "duplicate_listing";
    return null;
  };
}

/** What a group of a host's listings is, from its counts (the same rule for a run's end and the evaluation). */
export function groupVerdict(g: { short: boolean; repeatCount: number; repeatKinds: number; duplicateCount: number }): NoiseReason | null {
  if (g.short && g.repeatCount >= GROUP_MIN && g.repeatKinds > 1) return "boilerplate_description";
  if (g.duplicateCount >= GROUP_MIN) return "duplicate_listing";
  return null;
}
