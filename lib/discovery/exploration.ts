// Exploration: new endpoints (a short record) get a bounded chance to be ranked optimistically, so
// they can earn a record. Deterministic per capability and 5-minute window, so every instance and
// every repeat within the window gives the same answer.
import type { ObservedFigures } from "@/lib/outcomes/figures";
import { discoverySettings } from "./settings";

export const EXPLORATION_WINDOW_MS = 300_000;
/** Below this many weighted reports in 7 days an endpoint counts as new. */
export const EXPLORATION_MAX_WEIGHT = 20;
export { DEFAULT_EXPLORATION_RATE } from "./settings";

/** Share of windows in which a capability explores (DISCOVERY_EXPLORATION_RATE, lib/discovery/settings.ts). */
export function explorationRate(): number {
  return discoverySettings().explorationRate;
}

export function windowOf(nowMs: number): number {
  return Math.floor(nowMs / EXPLORATION_WINDOW_MS);
}

type Explorable = { id: string; checkState: string; figures: Pick<ObservedFigures, "weighted_total_7d"> };

/**
 * The one endpoint of the capability that explores in this window, or null. A capability explores in
 * `rate` of the windows; then its new, non-failing endpoints take turns, picked by hash.
 */
export function pickExplorer(capabilityId: string, candidates: readonly Explorable[], window: number, rate: number): string | null {
  if (!(rate > 0) || hash01(`${capabilityId}|${window}`) >= rate) return null;
  let best: string | null = null;
  let bestHash = Infinity;
  for (const c of candidates) {
    if (c.checkState === "failing" || c.figures.weighted_total_7d >= EXPLORATION_MAX_WEIGHT) continue;
    const h = hash01(`${capabilityId}|${window}|${c.id}`);
    if (h < bestHash || (h === bestHash && best !== null && c.id < best)) {
      best = c.id;
      bestHash = h;
    }
  }
  return best;
}

/** A uniform number in [0,1) from a string: FNV-1a, then murmur3's finaliser to mix the high bits. */
export function hash01(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}
