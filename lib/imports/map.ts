// Mapping catalogue items to capabilities with the intent resolver's public API (the index Capdex
// builds for the registry, read with resolveIntent). Capdex would rather not list than list under
// the wrong capability: the item's words are resolved all together and part by part (description,
// name and tags, URL path, declared field names), and it is listed only when the whole is confident
// (MAP_THRESHOLD, above discover's floor), no part confidently names another capability
// (decideMapping) and its own name and path do not say it does another kind of job (contradiction:
// a persona, a write under a lookup). Otherwise it waits in the unmapped queue with the candidates.
// An operator's mapping is never second-guessed (lib/imports/store.ts). A part of fewer than two
// meaningful words is not read alone.
import { resolveIntent, type IntentResolution } from "@/lib/discovery/intent";
import { settledIntentIndexOf } from "@/lib/discovery/resolve";
import type { Registry } from "@/lib/registry";
import type { MappingParts, ParsedItem } from "./item";
import { meaningfulWords } from "./noise";

export type Candidate = { capability_id: string; confidence: number };
export type Mapping = {
  capabilityId: string | null;
  confidence: number | null;
  candidates: Candidate[];
  /**
   * Why a resolver mapping was refused: `low_confidence`, `weak_support` (the parts alone do not back it),
   * `conflict:<part>` (a part names another capability), `persona` or `action` (the listing's own
   * name or path says it does another kind of job: contradiction).
   */
  refused?: string;
};

/** The combined answer must be at least this confident to list (discover's own floor). Chosen on the dev split: docs/imports.md. */
export const MAP_THRESHOLD = 0.4;
/**
 * The readings must together back the combined answer's best: its confidence plus the parts' (read
 * alone; as their answer or a runner-up) at least this. A confident whole and one confident part are
 * enough, a fair whole needs two parts; a best that only the whole text finds is not listed. The whole
 * counts only when its text is not one part's text (a listing of a URL path alone is read once).
 */
export const SUPPORT_THRESHOLD = 1.9;
/** A part this confident in another capability than the combined answer vetoes the listing. */
export const CONFLICT_THRESHOLD = 0.99;
/**
 * The description vetoes from this confidence already: it is the seller's own account of the job,
 * where the name, path and fields are labels ("token details" pulling "token price, market cap,
 * volume and supply" to token metadata). Never above `conflict`.
 */
export const DESCRIPTION_CONFLICT_THRESHOLD = 0.95;
/** A part with fewer meaningful words is not read alone ("Provider 5", "prompt"): the resolver is sure of too little. */
export const PART_MIN_WORDS = 2;

export type PartName = keyof MappingParts;
/** `combinedIs`: the part whose text is the whole text (the whole is then not a reading of its own). */
export type PartAnswers = { combined: Candidate[]; parts: Partial<Record<PartName, Candidate[]>>; combinedIs?: PartName };
export type MappingOptions = { threshold?: number; support?: number; conflict?: number };

/**
 * The decision, pure: list under the combined answer's best when it reaches `threshold`, its
 * confidence plus the parts' confidences in it reach `support`, and no part names another capability
 * at `conflict` or more (the description at DESCRIPTION_CONFLICT_THRESHOLD); else no capability (the
 * candidates are kept).
 */
export function decideMapping(a: PartAnswers, opts: MappingOptions = {}): Mapping {
  const threshold = opts.threshold ?? MAP_THRESHOLD;
  const support = opts.support ?? SUPPORT_THRESHOLD;
  const conflict = opts.conflict ?? CONFLICT_THRESHOLD;
  const best = a.combined[0] ?? null;
  const candidates = a.combined.slice(0, 4);
  if (!best || best.confidence < threshold) return { capabilityId: null, confidence: best?.confidence ?? null, candidates, refused: "low_confidence" };
  let backing = a.combinedIs ? 0 : best.confidence;
  for (const [part, answer] of Object.entries(a.parts) as Array<[PartName, Candidate[] | undefined]>) {
    const top = answer?.[0];
    const veto = part === "description" ? Math.min(conflict, DESCRIPTION_CONFLICT_THRESHOLD) : conflict;
    if (top && top.capability_id !== best.capability_id && top.confidence >= veto) {
      return { capabilityId: null, confidence: best.confidence, candidates, refused: `conflict:${part}` };
    }
    backing += answer?.find((c) => c.capability_id === best.capability_id)?.confidence ?? 0;
  }
  if (backing < support - 1e-9) return { capabilityId: null, confidence: best.confidence, candidates, refused: "weak_support" };
  return { capabilityId: best.capability_id, confidence: best.confidence, candidates };
}

// A listing named after a person's role ("/financial_analyst", "/social_media_manager", "Airdrop
// Economics Planner") is a persona sold as a specialist: what it sells is that person's advice or
// work (a chat), never the data its skills are about ("financial analyst" is not company
// financials, "airdrop planner" not an airdrop tracker). Its role is the last word of the URL path
// or of the service name.
const ROLE = /\b(?:analyst|strategist|consultant|specialist|advisor|adviser|planner|manager|coordinator|architect|designer|engineer|expert|coach|accountant|bookkeeper|lawyer|attorney|researcher|writer|copywriter|tutor|mentor)s?\s*$/i;
/** Where a persona can be listed: advice, and the professions the registry has as categories of work (marketing plans and copy, legal drafting and guidance). */
const PERSONA_WORK = /^(?:agents\.expert_advice$|marketing\.|legal\.)/;
// A path that creates or changes something ("/create-profile", "/submit", "/update") is not a
// capability that only reads: one whose title says it is a lookup or a search.
const WRITE_PATH = /\b(?:create|register|signup|submit|update|delete|remove|upload|publish|add|edit)\b/i;
const LOOKUP_TITLE = /\b(?:lookup|search)\b/i;

/** The listing's own name or path contradicting the capability it was mapped to, as a refusal reason; or null. */
export function contradiction(item: Pick<ParsedItem, "serviceName" | "parts">, capability: { id: string; title: string }): "persona" | "action" | null {
  if ((ROLE.test(item.parts.path) || ROLE.test(item.serviceName ?? "")) && !PERSONA_WORK.test(capability.id)) return "persona";
  if (WRITE_PATH.test(item.parts.path) && LOOKUP_TITLE.test(capability.title)) return "action";
  return null;
}

const ranked = (r: IntentResolution): Candidate[] => (r.best ? [r.best, ...r.candidates] : r.candidates);

/** All of the item's words together: what it says, its name, its path and its fields. */
export function combinedText(item: Pick<ParsedItem, "mappingText" | "parts">): string {
  return [item.mappingText, item.parts.fields].join(" ").replace(/\s+/g, " ").trim().slice(0, 600);
}

/**
 * A mapper per registry version; answers kept per text (catalogues repeat descriptions and paths).
 * It reads with the complete intent index (run-time classes learnt), so a mapping never depends on
 * how far an instance's training has got.
 */
export async function createMapper(registry: Registry, opts: MappingOptions = {}): Promise<(item: ParsedItem) => Mapping> {
  const index = await settledIntentIndexOf(registry);
  const seen = new Map<string, Candidate[]>();
  const read = (text: string): Candidate[] => {
    if (!text) return [];
    let r = seen.get(text);
    if (!r) {
      r = ranked(resolveIntent(index, text)).filter((c) => registry.byId.has(c.capability_id));
      if (seen.size >= 5_000) seen.clear();
      seen.set(text, r);
    }
    return r;
  };
  return (item) => {
    const parts: PartAnswers["parts"] = {};
    const whole = combinedText(item);
    let combinedIs: PartName | undefined;
    for (const p of ["description", "name", "path", "fields"] as const) {
      if (meaningfulWords(item.parts[p]).length < PART_MIN_WORDS) continue;
      parts[p] = read(item.parts[p]);
      if (item.parts[p].replace(/\s+/g, " ").trim() === whole) combinedIs = p;
    }
    const m = decideMapping({ combined: read(whole), parts, ...(combinedIs ? { combinedIs } : {}) }, opts);
    const refused = m.capabilityId ? contradiction(item, registry.byId.get(m.capabilityId)!) : null;
    return refused ? { ...m, capabilityId: null, refused } : m;
  };
}
