// Mapping catalogue items to capabilities with the intent resolver's public API (the index Capdex
// builds with buildIntentIndex for the registry, read with resolveIntent): at or above its
// confidence floor an item is listed under the best capability; below, it waits in the unmapped
// queue with the resolver's candidates. An operator's mapping is never second-guessed.
import { resolveIntent } from "@/lib/discovery/intent";
import { intentIndexOf } from "@/lib/discovery/resolve";
import type { Registry } from "@/lib/registry";

export type Mapping = { capabilityId: string | null; confidence: number | null; candidates: Array<{ capability_id: string; confidence: number }> };

/** A resolver per registry version; answers kept per text (catalogues repeat descriptions). */
export function createMapper(registry: Registry): (text: string) => Mapping {
  const index = intentIndexOf(registry);
  const seen = new Map<string, Mapping>();
  return (text) => {
    let m = seen.get(text);
    if (!m) {
      const r = text ? resolveIntent(index, text) : { best: null, candidates: [] };
      m = {
        capabilityId: r.best && registry.byId.has(r.best.capability_id) ? r.best.capability_id : null,
        confidence: r.best?.confidence ?? r.candidates[0]?.confidence ?? null,
        candidates: (r.best ? [r.best, ...r.candidates] : r.candidates).slice(0, 4),
      };
      if (seen.size >= 5_000) seen.clear();
      seen.set(text, m);
    }
    return m;
  };
}
