// Who calls: honest agents (API-key holders and anonymous addresses, each with a ranking preset),
// the providers' own accounts, and the order an agent tries endpoints in under each policy.
import type { Principal } from "@/lib/auth/principal";
import type { Candidate } from "@/lib/discovery/candidates";
import { windowOf } from "@/lib/discovery/exploration";
import { rankCandidates } from "@/lib/discovery/rank";
import { DEFAULT_EXPLORATION_RATE } from "@/lib/discovery/settings";
import { RANKING_PRESETS, type RankingPreset } from "@/lib/schemas/discover";
import { uniform, uuidOf } from "./random";

export const HONEST_ACCOUNTS = 300;
export const HONEST_ADDRESSES = 2_000;
/** Share of honest calls made with an API key. */
export const AUTHENTICATED_SHARE = 0.6;
/**
 * Share of honest callers (accounts and addresses alike) that send the settlement of their paid
 * calls with their reports. Paying is how every call to a paid endpoint is made; sending the proof
 * is an option of the report (the TypeScript client does it by default), so a fair share of
 * callers, not all, will. One wallet per caller. EVAL_PAYING_SHARE sets another (docs/ranking.md
 * compares 0 and 0.3); worker threads inherit it.
 */
export const PAYING_SHARE = Number(process.env.EVAL_PAYING_SHARE ?? 0.3);
/** How agents choose their preset (the default most, as callers that send none get it). */
export const PRESET_MIX: Array<[RankingPreset, number]> = [
  ["default", 0.4],
  ["reliability", 0.2],
  ["speed", 0.15],
  ["budget", 0.15],
  ["balanced", 0.1],
];
/** Attempts per call: the first endpoint, then up to two fallbacks. */
export const MAX_ATTEMPTS = 3;
/** What discover answers by default (DEFAULT_LIMIT) and the fallbacks it adds. */
const LIMIT = 5;

export type Account = Extract<Principal, { kind: "authenticated" }>;

export function account(kind: number, n: number): Account {
  const apiKeyId = uuidOf(0xacc00000 + kind, n, 1);
  const userId = uuidOf(0xacc00000 + kind, n, 2);
  return { kind: "authenticated", key: `key:${apiKeyId}`, ip: `198.18.${kind & 0xff}.${n & 0xff}`, apiKeyId, userId };
}

export function address(kind: number, n: number): Principal {
  const ip = `10.${kind & 0xff}.${(n >> 8) & 0xff}.${n & 0xff}`;
  return { kind: "anonymous", key: `ip:${ip}`, ip };
}

export const honestAccounts: Account[] = Array.from({ length: HONEST_ACCOUNTS }, (_, i) => account(1, i));
const honestAddresses: Principal[] = Array.from({ length: HONEST_ADDRESSES }, (_, i) => address(1, i));

/** The honest agent behind a capability's call-th call: who it is and which preset it ranks with. */
export function honestAgent(seed: number, capability: number, call: number): { principal: Principal; preset: RankingPreset } {
  const u = uniform(seed, 20, capability, call);
  const principal =
    u < AUTHENTICATED_SHARE
      ? honestAccounts[Math.floor(uniform(seed, 21, capability, call) * HONEST_ACCOUNTS)]
      : honestAddresses[Math.floor(uniform(seed, 22, capability, call) * HONEST_ADDRESSES)];
  let v = uniform(seed, 23, capability, call);
  for (const [preset, share] of PRESET_MIX) {
    if ((v -= share) < 0) return { principal, preset };
  }
  return { principal, preset: "default" };
}

/** The wallet an honest caller pays with and proves its payments from, or null when it sends no proof. */
export function honestWallet(principal: Principal): string | null {
  let h = 0;
  for (let i = 0; i < principal.key.length; i++) h = (h * 31 + principal.key.charCodeAt(i)) >>> 0;
  return (h % 1000) / 1000 < PAYING_SHARE ? `honest:${principal.key}` : null;
}

export type Policy = "capdex" | "raw_success" | "random";

/**
 * The endpoints in the order an agent tries them. capdex: discover's answer with the preset
 * (ranked, then fallbacks) from the real rankCandidates, exploration included. raw_success: by raw
 * 7-day success rate (none yet: last), ties by id. random: a fresh random order per call.
 */
export function orderFor(
  policy: Policy,
  capabilityId: string,
  candidates: readonly Candidate[],
  preset: RankingPreset,
  now: number,
  draw: () => number,
): Candidate[] {
  if (policy === "capdex") {
    const r = rankCandidates(candidates, {
      capabilityId,
      weights: RANKING_PRESETS[preset],
      limit: LIMIT,
      includeFallbacks: true,
      window: windowOf(now),
      explorationRate: DEFAULT_EXPLORATION_RATE,
    });
    const byId = new Map(candidates.map((c) => [c.id, c]));
    return [...r.ranked, ...r.fallbacks].map((e) => byId.get(e.endpoint_id)!);
  }
  if (policy === "raw_success") {
    const rate = (c: Candidate) => c.figures.success_rate_7d ?? -1;
    return [...candidates].sort((a, b) => rate(b) - rate(a) || (a.id < b.id ? -1 : 1));
  }
  const keyed = candidates.map((c) => ({ c, k: draw() }));
  return keyed.sort((a, b) => a.k - b.k).map((x) => x.c);
}
