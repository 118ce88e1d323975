// Resolves a natural-language intent ("will it rain in Oslo tomorrow", "¿va a nevar en Madrid el
// domingo?") to a registry capability id, with a calibrated confidence and the runners-up.
// Two parts, both in memory: the trained model (intent/model.ts: a multilingual classifier with a
// "none" class for needs nothing serves) reads the need; the lexical index (intent/build.ts) knows
// every capability of the registry, including those added since the model was trained.
import { buildIndex, type IntentDoc, type IntentIndex as LexicalIndex } from "./intent/build";
import { intentFeatures } from "./intent/features";
import { lexicalGuesses, resolveLexical, type IntentCandidate, type IntentResolution } from "./intent/lexical";
import { loadIntentModel, modelLogits, NONE_CLASS, type IntentModel } from "./intent/model";

export type { IntentDoc, IntentCandidate, IntentResolution };

/** Below this confidence the service answers 404 intent_unresolved. */
export const INTENT_CONFIDENCE_FLOOR = 0.4;

export type IntentIndex = {
  readonly ids: readonly string[];
  readonly lexical: LexicalIndex;
  readonly model: IntentModel | null;
  /** Model class of each registry capability (-1: the model was not trained on it). */
  readonly classOf: Int32Array;
  /** Registry capabilities the model does not know, resolved by the lexical index alone. */
  readonly unknown: ReadonlySet<string>;
};

/** `model`: the trained model to use; by default data/intent-model.json, `null` for the lexical index alone. */
export function buildIntentIndex(docs: IntentDoc[], model: IntentModel | null = loadIntentModel()): IntentIndex {
  const ids = docs.map((d) => d.id);
  const classOf = Int32Array.from(ids, (id) => model?.classIndex.get(id) ?? -1);
  const unknown = new Set(ids.filter((_, i) => classOf[i] < 0));
  return { ids, lexical: buildIndex(docs), model, classOf, unknown };
}

const round3 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** The answer and its runners-up. */
const KEEP = 4;

/** How many of the lexical index's best capabilities lend their score to the model's. */
const LEXICAL_KEEP = 6;

/** The model's class scores plus the lexical index's score of its best few (relative to its best). */
export function intentLogits(
  index: IntentIndex,
  model: IntentModel,
  text: string,
  lexical: readonly { doc: number; score: number }[] = lexicalGuesses(index.lexical, text, LEXICAL_KEEP).top,
): Float64Array {
  const logits = modelLogits(model, intentFeatures(text));
  if (lexical.length) {
    const s1 = lexical[0].score;
    for (const r of lexical) {
      const c = index.classOf[r.doc];
      if (c >= 0) logits[c] += (model.lexicalWeight * r.score) / s1;
    }
  }
  return logits;
}

/** Probabilities, at the fitted temperature, over "none" and the classes that exist in this registry. */
function modelGuesses(index: IntentIndex, model: IntentModel, text: string, lexical: readonly { doc: number; score: number }[]): IntentCandidate[] {
  const logits = intentLogits(index, model, text, lexical);
  const noneClass = model.classIndex.get(NONE_CLASS)!;
  const t = model.temperature;
  let max = logits[noneClass] / t;
  for (const c of index.classOf) if (c >= 0) max = Math.max(max, logits[c] / t);
  let sum = Math.exp(logits[noneClass] / t - max);
  const exp = new Float64Array(index.ids.length);
  index.classOf.forEach((c, i) => {
    if (c >= 0) sum += exp[i] = Math.exp(logits[c] / t - max);
  });
  // The best few, kept in order as they are found (ties: the registry's order).
  const top: number[] = [];
  for (let i = 0; i < exp.length; i++) {
    if (index.classOf[i] < 0 || (top.length === KEEP && exp[i] <= exp[top[KEEP - 1]])) continue;
    let at = top.length;
    while (at > 0 && exp[top[at - 1]] < exp[i]) at--;
    top.splice(at, 0, i);
    if (top.length > KEEP) top.pop();
  }
  return top.map((i) => ({ capability_id: index.ids[i], confidence: exp[i] / sum }));
}

export function resolveIntent(index: IntentIndex, intent: string): IntentResolution {
  const text = typeof intent === "string" ? intent : String(intent);
  if (!index.model) return resolveLexical(index.lexical, text);
  let guesses: IntentCandidate[];
  try {
    const lexical = lexicalGuesses(index.lexical, text, LEXICAL_KEEP);
    guesses = modelGuesses(index, index.model, text, lexical.top);
    // Capabilities the model has never seen compete with the lexical index's own confidence.
    const r = lexical.resolution;
    const fresh = [...(r.best ? [r.best] : []), ...r.candidates].filter((c) => index.unknown.has(c.capability_id));
    if (fresh.length) guesses = [...guesses, ...fresh].sort((a, b) => b.confidence - a.confidence);
  } catch {
    // Input is untrusted text: failing to read it means "not understood", never an exception for the caller.
    return { best: null, candidates: [] };
  }
  const top = guesses.slice(0, KEEP).map((c) => ({ capability_id: c.capability_id, confidence: round3(c.confidence) }));
  if (top.length && top[0].confidence >= INTENT_CONFIDENCE_FLOOR) return { best: top[0], candidates: top.slice(1, 4) };
  return { best: null, candidates: top.slice(0, 3) };
}
