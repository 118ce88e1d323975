// Resolves a natural-language intent ("will it rain in Oslo tomorrow", "¿va a nevar en Madrid el
// domingo?") to a registry capability id, with a calibrated confidence and the runners-up.
// Two parts, both in memory: the trained model (intent/model.ts: a multilingual classifier with a
// "none" class for needs nothing serves) reads the need; the lexical index (intent/build.ts) knows
// every capability of the registry, including those added since the model was trained. For a
// person's need (readNeed), a pretrained English sentence encoder (intent/encoder.ts) reads the
// English needs the model is unsure of a second time.
import { buildIndex, type IntentDoc, type IntentIndex as LexicalIndex } from "./intent/build";
import { contentSize, intentFeatures } from "./intent/features";
import { splitParts } from "./intent/hints";
import { lexicalGuesses, resolveLexical, type IntentCandidate, type IntentResolution } from "./intent/lexical";
import { extensionLogits, MAX_EXTENSION_CLASSES, trainExtension, trainExtensionInSlices, type IntentExtension } from "./intent/extension";
import { loadIntentModel, modelLogits, NONE_CLASS, REFUSE_CLASS, type IntentModel } from "./intent/model";
import { embedTexts, encoderHeadFor, headLogProbs, isEnglish } from "./intent/encoder";
import { checkRefusal, type RefusalCategory } from "./refusal";

export type { IntentDoc, IntentCandidate, IntentResolution };

/** What discover reads in a need: its job (or none), the other jobs it asks for, or a refusal. */
export type NeedResolution = IntentResolution & {
  refused?: { category: RefusalCategory | "harmful_request"; rule: string };
  also_needed?: IntentCandidate[];
};

/** Below this confidence the service answers 404 intent_unresolved. */
export const INTENT_CONFIDENCE_FLOOR = 0.35;

/**
 * A capability answered by a run-time class (learnt from its registry texts alone, ./intent/extension.ts)
 * is the answer only at this confidence: learnt from a few dozen short texts, such a class is surer
 * of itself than the shipped classes are at the same evidence, and below it took needs that nothing
 * serves (measured on the held-out capabilities' dev splits, docs/intents.md). It stays a candidate.
 */
export const RUNTIME_CLASS_FLOOR = 0.55;

export type IntentIndex = {
  readonly ids: readonly string[];
  readonly lexical: LexicalIndex;
  readonly model: IntentModel | null;
  /** Model class of each registry capability (-1: the model was not trained on it). */
  readonly classOf: Int32Array;
  /** Classes learned at run time for the capabilities the shipped model was not trained on (./intent/extension.ts). */
  readonly extension: IntentExtension | null;
  /** Registry position -> its class in `extension` (-1: none). */
  readonly extensionOf: Int32Array;
  /** Registry capabilities that neither the model nor the extension knows, resolved by the lexical index alone. */
  readonly unknown: ReadonlySet<string>;
  /** Registry capabilities answered by a run-time class (they need RUNTIME_CLASS_FLOOR to be the answer). */
  readonly runtime: ReadonlySet<string>;
};

/** `model`: the trained model to use; by default data/intent-model.json, `null` for the lexical index alone. */
export function buildIntentIndex(docs: IntentDoc[], model: IntentModel | null = loadIntentModel()): IntentIndex {
  const classOf = classesOf(docs, model);
  return assemble(docs, model, classOf, buildIndex(docs), model ? trainExtension(docs, freshOf(classOf), model) : null);
}

/**
 * The index without run-time classes: the capabilities the model was not trained on are answered
 * by the lexical index alone (as `unknown`) until completeIntentIndex has learnt them. Cheap (no training).
 */
export function interimIntentIndex(docs: IntentDoc[], model: IntentModel | null = loadIntentModel()): IntentIndex {
  return assemble(docs, model, classesOf(docs, model), buildIndex(docs), null);
}

/**
 * Whether completeIntentIndex would learn anything for this index: capabilities the model has no
 * class for, at most MAX_EXTENSION_CLASSES of them (beyond, the lexical index answers for them).
 */
export function needsRuntimeClasses(index: IntentIndex): boolean {
  if (index.model === null || index.extension !== null) return false;
  const fresh = freshOf(index.classOf).length;
  return fresh > 0 && fresh <= MAX_EXTENSION_CLASSES;
}

/**
 * The interim index with its run-time classes learnt, a slice at a time between requests
 * (trainExtensionInSlices): the same index buildIntentIndex makes, without stalling the event loop.
 */
export async function completeIntentIndex(interim: IntentIndex, docs: IntentDoc[]): Promise<IntentIndex> {
  if (!needsRuntimeClasses(interim)) return interim;
  const extension = await trainExtensionInSlices(docs, freshOf(interim.classOf), interim.model!);
  return assemble(docs, interim.model, interim.classOf, interim.lexical, extension);
}

function classesOf(docs: IntentDoc[], model: IntentModel | null): Int32Array {
  return Int32Array.from(docs, (d) => model?.classIndex.get(d.id) ?? -1);
}

function freshOf(classOf: Int32Array): number[] {
  return Array.from(classOf).flatMap((c, i) => (c < 0 ? [i] : []));
}

function assemble(docs: IntentDoc[], model: IntentModel | null, classOf: Int32Array, lexical: LexicalIndex, extension: IntentExtension | null): IntentIndex {
  const ids = docs.map((d) => d.id);
  const extensionOf = new Int32Array(ids.length).fill(-1);
  extension?.docs.forEach((doc, u) => (extensionOf[doc] = u));
  const unknown = new Set(ids.filter((_, i) => classOf[i] < 0 && extensionOf[i] < 0));
  const runtime = new Set(ids.filter((_, i) => extensionOf[i] >= 0));
  return { ids, lexical, model, classOf, extension, extensionOf, unknown, runtime };
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
  features: readonly string[] = intentFeatures(text),
): Float64Array {
  const logits = modelLogits(model, features);
  addLexical(logits, lexical, (doc) => index.classOf[doc], model.lexicalWeight);
  return logits;
}

/** Adds the lexical index's scores of its best few (relative to its best) to `out[slot(doc)]` (slot -1: none). */
function addLexical(out: Float64Array, lexical: readonly { doc: number; score: number }[], slot: (doc: number) => number, weight: number): void {
  const s1 = lexical[0]?.score;
  for (const r of lexical) {
    const k = slot(r.doc);
    if (k >= 0) out[k] += (weight * r.score) / s1;
  }
}

/**
 * Probabilities, at the fitted temperature, over "none", "refuse" (when the model has it) and the
 * classes that exist in this registry: the best few capabilities, and the probability of harm.
 */
function modelGuesses(
  index: IntentIndex,
  model: IntentModel,
  lexical: readonly { doc: number; score: number }[],
  features: readonly string[],
  encoder: Float64Array | null,
): { guesses: IntentCandidate[]; harm: number } {
  const logits = modelLogits(model, features);
  const outside = [model.classIndex.get(NONE_CLASS)!, model.classIndex.get(REFUSE_CLASS) ?? -1].filter((c) => c >= 0);
  // The encoder's reading (its head's log-probabilities, in the model's classes) weighs in on every
  // class; a run-time class, which it does not know, gets the best that any capability got from it.
  let encoderBest = 0;
  if (encoder) {
    encoderBest = -Infinity;
    for (let c = 0; c < logits.length; c++) {
      logits[c] += ENCODER_WEIGHT * encoder[c];
      if (!outside.includes(c)) encoderBest = Math.max(encoderBest, encoder[c]);
    }
  }
  const t = model.temperature;
  // Each registry capability's logit: the shipped model's class, or its run-time class, or none
  // (NaN: the lexical index answers for it); then the same lexical help for every one that has one.
  const score = new Float64Array(index.ids.length).fill(NaN);
  index.classOf.forEach((c, i) => {
    if (c >= 0) score[i] = logits[c];
  });
  if (index.extension) {
    const ext = extensionLogits(index.extension, features);
    index.extension.docs.forEach((doc, u) => (score[doc] = ext[u] + ENCODER_WEIGHT * encoderBest));
  }
  addLexical(score, lexical, (doc) => (Number.isNaN(score[doc]) ? -1 : doc), model.lexicalWeight);
  let max = -Infinity;
  for (const c of outside) max = Math.max(max, logits[c] / t);
  for (const x of score) if (!Number.isNaN(x)) max = Math.max(max, x / t);
  let sum = 0;
  for (const c of outside) sum += Math.exp(logits[c] / t - max);
  const exp = new Float64Array(index.ids.length);
  score.forEach((x, i) => {
    if (!Number.isNaN(x)) sum += exp[i] = Math.exp(x / t - max);
  });
  // The best few, kept in order as they are found (ties: the registry's order).
  const top: number[] = [];
  for (let i = 0; i < exp.length; i++) {
    if (Number.isNaN(score[i]) || (top.length === KEEP && exp[i] <= exp[top[KEEP - 1]])) continue;
    let at = top.length;
    while (at > 0 && exp[top[at - 1]] < exp[i]) at--;
    top.splice(at, 0, i);
    if (top.length > KEEP) top.pop();
  }
  const refuse = model.classIndex.get(REFUSE_CLASS);
  return {
    guesses: top.map((i) => ({ capability_id: index.ids[i], confidence: exp[i] / sum })),
    harm: refuse === undefined ? 0 : Math.exp(logits[refuse] / t - max) / sum,
  };
}

/** A short need (contentSize <= 2) answered below this confidence gets at most SHORT_CAP. */
const SHORT_SURE = 0.9;
const SHORT_CAP = 0.5;

/** The model's probability of harm at or above which a need is refused. */
export const HARM_FLOOR = 0.5;

function readText(index: IntentIndex, text: string, capShort = false, encoder: Float64Array | null = null): IntentResolution & { harm: number } {
  if (!index.model) return { ...resolveLexical(index.lexical, text), harm: 0 };
  let guesses: IntentCandidate[];
  let harm: number;
  try {
    const lexical = lexicalGuesses(index.lexical, text, LEXICAL_KEEP);
    ({ guesses, harm } = modelGuesses(index, index.model, lexical.top, intentFeatures(text), encoder));
    // Capabilities the model has never seen compete with the lexical index's own confidence.
    const r = lexical.resolution;
    const fresh = [...(r.best ? [r.best] : []), ...r.candidates].filter((c) => index.unknown.has(c.capability_id));
    if (fresh.length) guesses = [...guesses, ...fresh].sort((a, b) => b.confidence - a.confidence);
  } catch {
    // Input is untrusted text: failing to read it means "not understood", never an exception for the caller.
    return { best: null, candidates: [], harm: 0 };
  }
  let top = guesses.slice(0, KEEP).map((c) => ({ capability_id: c.capability_id, confidence: round3(c.confidence) }));
  // A person's need of one or two words that the model is not sure of ("run it", "I need the
  // numbers") says too little to be answered with confidence: its confidence is capped, so it is
  // never presented as certain (it still resolves when the cap is above the floor, with its real
  // runners-up beside it). Not for a listing's parts (imports read a path's one word on purpose).
  if (capShort && top.length && top[0].confidence < SHORT_SURE && top[0].confidence > SHORT_CAP && contentSize(text) <= 2) {
    top = [{ ...top[0], confidence: SHORT_CAP }, ...top.slice(1)];
  }
  const floor = top.length && index.runtime.has(top[0].capability_id) ? RUNTIME_CLASS_FLOOR : INTENT_CONFIDENCE_FLOOR;
  const best = top.length && top[0].confidence >= floor && harm < HARM_FLOOR ? top[0] : null;
  return best ? { best, candidates: top.slice(1, 4), harm } : { best: null, candidates: top.slice(0, 3), harm };
}

/** The capability that serves a text (a need, or a listing's description), or none. */
export function resolveIntent(index: IntentIndex, intent: string): IntentResolution {
  const { best, candidates } = readText(index, typeof intent === "string" ? intent : String(intent));
  return { best, candidates };
}

/** A part of a multi-part need counts as a job of its own only at this confidence. */
const PART_FLOOR = 0.8;

/**
 * A person's need as discover reads it: refused when it asks for harm (the rule list, or the model's
 * "refuse" class); else its job, and the other jobs it asks for when it joins several. `best` stays
 * the whole need's answer (a need with one job and some context, "the user runs a hotel and wants
 * to know how guests feel", must not be answered by its context); the jobs of its other parts come
 * in `also_needed`, in order, when the parts agree with the whole (its answer is one of theirs).
 */
export function resolveNeed(index: IntentIndex, intent: string, encoder: Float64Array | null = null): NeedResolution {
  const text = typeof intent === "string" ? intent : String(intent);
  const rule = checkRefusal(text);
  if (rule) return { best: null, candidates: [], refused: rule };
  const whole = readText(index, text, true, encoder);
  if (whole.harm >= HARM_FLOOR) return { best: null, candidates: [], refused: { category: "harmful_request", rule: "model" } };
  const answer = { best: whole.best, candidates: whole.candidates };
  if (!whole.best) return answer;
  const parts = splitParts(text);
  if (parts.length < 2) return answer;
  const jobs: IntentCandidate[] = [];
  for (const part of parts) {
    const r = readText(index, part);
    if (r.harm >= HARM_FLOOR) return { best: null, candidates: [], refused: checkRefusal(part) ?? { category: "harmful_request", rule: "model" } };
    if (r.best && r.best.confidence >= PART_FLOOR && !jobs.some((j) => j.capability_id === r.best!.capability_id)) jobs.push(r.best);
  }
  const main = whole.best.capability_id;
  if (jobs.length < 2 || !jobs.some((j) => j.capability_id === main)) return answer;
  const also = jobs.filter((j) => j.capability_id !== main);
  return { ...answer, candidates: whole.candidates.filter((c) => !also.some((j) => j.capability_id === c.capability_id)), also_needed: also };
}

/** How much the encoder's reading weighs beside the model's (its log-probabilities are added at this weight; fitted on the development splits, docs/intents.md). */
export const ENCODER_WEIGHT = 0.2;
/** The model's answer at or above this confidence is kept as it is: the encoder reads only needs the model is less sure of. */
export const ENCODER_SURE = 0.9;
/** An answer that only the second reading gives (not the model's own) is kept from this confidence, not 0.35: below it such answers took needs nothing serves (blind dev split, docs/intents.md). */
export const ENCODER_FLOOR = 0.55;

/**
 * A person's need as discover reads it, with the sentence encoder's help (./intent/encoder.ts):
 * the model's reading first; when it is unsure (no answer, or one below ENCODER_SURE), the need is
 * in English and the encoder's head matches the model, the need is read again with the encoder's
 * reading added (ENCODER_WEIGHT). A refusal by rule stands; one by the model alone is read again
 * the same way and stands if the joined reading refuses too. Deterministic: the same
 * text and index give the same answer; without the encoder (not installed, failed), the model's.
 */
export async function readNeed(index: IntentIndex, intent: string, onEncoder?: (seconds: number) => void): Promise<NeedResolution> {
  const text = typeof intent === "string" ? intent : String(intent);
  const first = resolveNeed(index, text);
  if (!needsEncoder(index, text, first)) return first;
  const head = encoderHeadFor(index.model!.classes);
  if (!head) return first;
  const t0 = performance.now();
  let embedding: Float32Array;
  try {
    [embedding] = await embedTexts([text]);
  } catch (err) {
    encoderFailed(err);
    return first;
  }
  const second = resolveNeed(index, text, headLogProbs(head, embedding));
  onEncoder?.((performance.now() - t0) / 1000);
  // An answer the model alone did not give must be surer than the floor: ENCODER_FLOOR.
  if (second.best && second.best.capability_id !== first.best?.capability_id && second.best.confidence < ENCODER_FLOOR) {
    return { best: null, candidates: [second.best, ...second.candidates].slice(0, 3) };
  }
  return second;
}

/** Whether readNeed asks the encoder about a need the model alone read as `first`. */
export function needsEncoder(index: IntentIndex, text: string, first: NeedResolution): boolean {
  if (process.env.CAPDEX_INTENT_ENCODER === "off") return false;
  // A refusal by rule stands; one by the model alone is read again (the model refused "a photo of
  // a school building"): the joined reading refuses it again when harm is what it reads.
  if (first.refused) return first.refused.rule === "model" && index.model !== null && isEnglish(text);
  if (index.model === null || (first.best && first.best.confidence >= ENCODER_SURE) || !isEnglish(text)) return false;
  // The head knows the shipped model's classes only: where a capability added since is in the
  // running, its support for the others would bury the new one, so the first reading stands.
  const named = first.best ? [first.best, ...first.candidates] : first.candidates;
  return !named.some((c) => index.unknown.has(c.capability_id) || index.runtime.has(c.capability_id));
}

let warned = false;
function encoderFailed(err: unknown): void {
  if (warned) return;
  warned = true;
  console.warn(`[capdex] sentence encoder unavailable, the intent model reads alone: ${err instanceof Error ? err.message : err}`);
}
