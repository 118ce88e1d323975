// Exploration: new endpoints (a short record) get a bounded chance to be placed higher than their
// score, so they can earn a record. Deterministic per capability and 5-minute window, so every
// instance and every repeat within the window gives the same answer. Exploration changes an
// endpoint's place, never its score, and never puts it first while an endpoint with an established
// record meets the request's constraints.
import type { ObservedFigures } from "@/lib/outcomes/figures";
import { lastPaidCallFailed } from "./scoring";
import { discoverySettings } from "./settings";

export const EXPLORATION_WINDOW_MS = 300_000;
/** Below this many weighted reports in 7 days an endpoint counts as new; at or above, its record is established. */
export const EXPLORATION_MAX_WEIGHT = 20;
/**
 * The place (0-based) an explored endpoint is moved up to when an established endpoint meets the
 * constraints: second. With none, it may take first place (every candidate is new).
 */
export const EXPLORATION_SLOT = 1;
export { DEFAULT_EXPLORATION_RATE } from "./settings";

/** Share of windows in which a capability explores (DISCOVERY_EXPLORATION_RATE, lib/discovery/settings.ts). */
export function explorationRate(): number {
  return discoverySettings().explorationRate;
}

export function windowOf(nowMs: number): number {
  return Math.floor(nowMs / EXPLORATION_WINDOW_MS);
}

type Explorable = { id: string; checkState: string; figures: Pick<ObservedFigures, "weighted_total_7d">; delivery?: { last_verdict: string } | null };

/** An endpoint whose 7-day record is long enough that exploration never places a new one above it. */
export function isEstablished(c: Pick<Explorable, "figures">): boolean {
  return c.figures.weighted_total_7d >= EXPLORATION_MAX_WEIGHT;
}

/**
 * The one endpoint of the capability that explores in this window, or null. A capability explores in
 * `rate` of the windows; then its new, non-failing endpoints take turns, picked by hash (not one whose
 * last paid test call failed).
 */
export function pickExplorer(capabilityId: string, candidates: readonly Explorable[], window: number, rate: number): string | null {
  if (!(rate > 0) || hash01(`${capabilityId}|${window}`) >= rate) return null;
  let best: string | null = null;
  let bestHash = Infinity;
  for (const c of candidates) {
    // Nor one that took Capdex's money for nothing on its last paid call (lib/paid-checks).
    if (c.checkState === "failing" || isEstablished(c) || lastPaidCallFailed(c)) continue;
    const h = hash01(`${capabilityId}|${window}|${c.id}`);
    if (h < bestHash || (h === bestHash && best !== null && c.id < best)) {
      best = c.id;
      bestHash = h;
    }
  }
  return best;
}

/**
 * Moves the explorer up, in place, within `fit` (the endpoints that meet the constraints, best
 * score first): to EXPLORATION_SLOT when another endpoint of `fit` has an established record, else
 * to first place. Returns the explorer's new index, or -1 when exploration moved nothing (no
 * explorer, it does not fit, or its own score already places it there or higher).
 */
export function placeExplorer<T extends { c: Explorable }>(fit: T[], explorerId: string | null): number {
  if (explorerId === null) return -1;
  const from = fit.findIndex((s) => s.c.id === explorerId);
  if (from < 0) return -1;
  const slot = fit.some((s) => s.c.id !== explorerId && isEstablished(s.c)) ? EXPLORATION_SLOT : 0;
  if (from <= slot) return -1;
  const [explorer] = fit.splice(from, 1);
  fit.splice(slot, 0, explorer);
  return slot;
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
