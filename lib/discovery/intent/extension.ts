// Capabilities added to the registry after the model was trained (a provider's accepted proposal, an
// operator's new entry) get model classes of their own at run time, with no retrain step: new rows
// of the same softmax, learned from their registry texts (title, description, tags, aliases,
// examples) while the shipped model's weights stay frozen. Because the new classes live in the
// shipped model's logit space, they compete with its classes, "none" and "refuse" on equal terms and
// share its fitted temperature: a need for a new capability gets a calibrated confidence like any
// other, and a need the shipped model is sure of keeps its answer.
//
// Training is small and deterministic: the positives are the new capabilities' registry texts; the
// negatives are the registry texts of the capabilities the model knows and the shipped corpus of
// needs nothing serves (data/intents/train/none-*.jsonl), whose frozen scores teach the new rows
// where not to fire. Only the normaliser of the frozen scores is needed per sample, so an epoch
// costs (samples x features x new classes): 1.4-3.0 s for 40 new capabilities, 11-13 s for 100, on one core.
// A server learns them a slice of about 8 ms at a time between requests (trainExtensionInSlices;
// lib/discovery/resolve.ts serves the index without them meanwhile), so the event loop keeps turning.
//
// Registry texts are short ("elevation", "height above sea level"); people's needs are sentences
// whose other words dilute the job's features (a text's weights are scaled by 1/sqrt(features)).
// So each registry text is also learnt *inside a sentence*: paired with a need from the corpus of
// needs nothing serves, it keeps its own features but takes the pair's length and the frozen
// model's scores of the pair, and that sentence alone is one more negative, so the new class learns
// to fire on the job's words amid context, not on the context. Measured on the blind needs of 40
// capabilities held out of training (docs/intents.md): top-1 75.8% -> 82.8% on the dev splits at
// the run-time floor below, with fewer needs that nothing serves taken by a new class.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRandom } from "@/lib/seed/random";
import type { IntentDoc } from "./build";
import { intentFeatures } from "./features";
import { modelLogits, type IntentModel } from "./model";
import { registryTexts } from "./train";

/** Above this many new capabilities the lexical index alone answers for them (training would take too long at every registry change). */
export const MAX_EXTENSION_CLASSES = 300;

export type IntentExtension = {
  /** Registry position (doc index) of each new class. */
  readonly docs: Int32Array;
  /** Feature -> its weights for the new classes (length docs.length). */
  readonly rows: ReadonlyMap<string, Float32Array>;
  readonly bias: Float64Array;
};

const SETTINGS = { epochs: 6, learningRate: 0.3, l2: 1e-3, seed: 11, negatives: 3000 };

function noneCorpus(): string[] {
  const dir = path.join(process.cwd(), "data/intents/train");
  try {
    return readdirSync(dir)
      .filter((f) => /^none-.*\.jsonl$/.test(f))
      .sort()
      .flatMap((f) =>
        readFileSync(path.join(dir, f), "utf8")
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => (JSON.parse(l) as { text: string }).text),
      );
  } catch {
    return [];
  }
}

let corpusCache: string[] | null = null;
type Reading = { features: readonly string[]; frozen: number };
const readCache = new WeakMap<IntentModel, Map<string, Reading>>();

/** log of the sum of exp(frozen logits): all a negative or positive sample needs of the shipped model. */
function logSumExp(logits: Float64Array): number {
  let max = -Infinity;
  for (const x of logits) max = Math.max(max, x);
  let sum = 0;
  for (const x of logits) sum += Math.exp(x - max);
  return max + Math.log(sum);
}

/** Texts read between two chances to yield (a text's features and frozen scores: tens of microseconds each). */
const STEP = 128;
/** Samples learnt between two chances to yield (each updates its features' weights for every new class: about 5 ms for 16 early in training at 100 classes). */
const LEARN_STEP = 16;

/**
 * The training, as steps: it yields every few texts or samples, so a caller can run it whole
 * (trainExtension) or a slice at a time between requests (trainExtensionInSlices). The same
 * computation either way, in the same order: the same weights.
 */
function* trainingSteps(docs: readonly IntentDoc[], fresh: readonly number[], model: IntentModel): Generator<void, IntentExtension | null> {
  const U = fresh.length;
  if (U === 0 || U > MAX_EXTENSION_CLASSES) return null;
  const rnd = createRandom(SETTINGS.seed).next;
  const freshSet = new Set(fresh);

  // A text's features and frozen normaliser are the same at every rebuild: kept per model.
  let cache = readCache.get(model);
  if (!cache) readCache.set(model, (cache = new Map()));
  const read = (t: string): Reading => {
    let r = cache.get(t);
    if (!r) {
      const features = intentFeatures(t);
      r = { features, frozen: features.length ? logSumExp(modelLogits(model, features)) : 0 };
      if (cache.size < 50_000) cache.set(t, r);
    }
    return r;
  };

  /** length: the number of features the sample is normalised by, when it stands for a longer text. */
  type Sample = { features: readonly string[]; y: number; frozen: number; length?: number };
  const samples: Sample[] = [];
  corpusCache ??= noneCorpus();
  const corpus = corpusCache;
  const contexts: string[] = [];
  const vocab = new Map<string, number>();
  for (const [u, docIndex] of fresh.entries()) {
    for (const t of registryTexts(docs[docIndex])) {
      yield;
      const { features, frozen } = read(t);
      if (!features.length) continue;
      for (const f of features) if (!vocab.has(f)) vocab.set(f, vocab.size);
      samples.push({ features, y: u, frozen });
      if (corpus.length) {
        const context = corpus[Math.floor(rnd() * corpus.length)];
        const sentence = read(`${context} ${t}`);
        samples.push({ features, y: u, frozen: sentence.frozen, length: sentence.features.length });
        contexts.push(context);
      }
    }
  }
  if (!samples.length) return null;

  // Negatives: a deterministic sample of the known capabilities' texts and the corpus of needs nothing
  // serves, and the context sentences of the positives above.
  const pool: string[] = [...corpus];
  docs.forEach((d, i) => {
    if (!freshSet.has(i)) pool.push(...registryTexts(d));
  });
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  for (const [n, t] of [...pool.slice(0, SETTINGS.negatives), ...contexts].entries()) {
    if (n % STEP === 0) yield;
    const { features, frozen } = read(t);
    if (features.length) samples.push({ features, y: -1, frozen });
  }

  const F = vocab.size;
  const W = new Float32Array(F * U);
  const G = new Float32Array(F * U).fill(1e-8);
  const bias = new Float64Array(U).fill(-4);
  const gBias = new Float64Array(U).fill(1e-8);
  const z = new Float64Array(U);
  const order = samples.map((_, i) => i);
  const encoded: Int32Array[] = [];
  for (const [n, s] of samples.entries()) {
    if (n % STEP === 0) yield;
    encoded.push(Int32Array.from(s.features.map((f) => vocab.get(f) ?? -1).filter((r) => r >= 0)));
  }
  const norms = samples.map((s) => 1 / Math.sqrt(s.length ?? s.features.length));
  const { learningRate: lr, l2 } = SETTINGS;
  for (let epoch = 0; epoch < SETTINGS.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const [n, idx] of order.entries()) {
      if (n % LEARN_STEP === 0) yield;
      const rows = encoded[idx];
      const norm = norms[idx];
      const { y, frozen } = samples[idx];
      z.set(bias);
      for (const r of rows) {
        const base = r * U;
        for (let u = 0; u < U; u++) z[u] += W[base + u] * norm;
      }
      // Softmax over the frozen classes (their log-normaliser) and the new ones.
      let max = frozen;
      for (let u = 0; u < U; u++) max = Math.max(max, z[u]);
      let sum = Math.exp(frozen - max);
      for (let u = 0; u < U; u++) sum += z[u] = Math.exp(z[u] - max);
      for (let u = 0; u < U; u++) {
        const g = z[u] / sum - (u === y ? 1 : 0);
        gBias[u] += g * g;
        bias[u] -= (lr * g) / Math.sqrt(gBias[u]);
        if (Math.abs(g) < 1e-4) continue;
        const gn = g * norm;
        for (const r of rows) {
          const k = r * U + u;
          const gw = gn + l2 * W[k];
          G[k] += gw * gw;
          W[k] -= (lr * gw) / Math.sqrt(G[k]);
        }
      }
    }
  }
  const rows = new Map<string, Float32Array>();
  for (const [f, r] of vocab) {
    if (r % 256 === 0) yield;
    rows.set(f, W.slice(r * U, (r + 1) * U));
  }
  return { docs: Int32Array.from(fresh), rows, bias };
}

/**
 * New classes for the docs at `fresh` (registry positions the model has no class for), or null when
 * there are none or too many. Deterministic: the same registry and model give the same weights.
 * Runs whole, on the caller's thread (scripts, tests); a server uses trainExtensionInSlices.
 */
export function trainExtension(docs: readonly IntentDoc[], fresh: readonly number[], model: IntentModel): IntentExtension | null {
  const steps = trainingSteps(docs, fresh, model);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * The same training a slice of at most about `sliceMs` at a time, giving the event loop a turn
 * between slices (setImmediate: queued I/O and timers run first), so an instance keeps answering
 * while it learns new capabilities (seconds of CPU at 100 of them). The same weights as trainExtension.
 */
export async function trainExtensionInSlices(docs: readonly IntentDoc[], fresh: readonly number[], model: IntentModel, sliceMs = 8): Promise<IntentExtension | null> {
  const steps = trainingSteps(docs, fresh, model);
  for (;;) {
    const end = performance.now() + sliceMs;
    let step = steps.next();
    while (!step.done && performance.now() < end) step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The new classes' logits for a feature set (the same normalisation as the shipped model's). */
export function extensionLogits(ext: IntentExtension, features: readonly string[]): Float64Array {
  const out = Float64Array.from(ext.bias);
  if (!features.length) return out;
  const norm = 1 / Math.sqrt(features.length);
  for (const f of features) {
    const row = ext.rows.get(f);
    if (!row) continue;
    for (let u = 0; u < row.length; u++) out[u] += row[u] * norm;
  }
  return out;
}
