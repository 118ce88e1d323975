// Training the intent model's multinomial logistic regression: used by `npm run train:intents` for
// the shipped model (data/intent-model.json) and, at run time, for the small model of the
// capabilities added since (./extension.ts). Deterministic: the same samples and settings always give
// the same weights.
import { createRandom } from "@/lib/seed/random";
import type { IntentDoc } from "./build";
import type { IntentModel } from "./model";

export type TrainSettings = { epochs: number; learningRate: number; l2: number; minCount: number; prune: number; seed: number };
export const TRAIN_DEFAULTS: TrainSettings = { epochs: 12, learningRate: 0.4, l2: 1e-3, minCount: 2, prune: 0.3, seed: 7 };

/** One training text as features, and its class. */
export type TrainSample = { features: readonly string[]; y: number };

/** Dense weights: `W[row * classes + class]` for the feature `vocab[row]`. */
export type TrainedWeights = { vocab: string[]; classes: number; W: Float32Array; bias: Float64Array; meanLoss: number };

/**
 * AdaGrad over every sample, `epochs` times in seeded shuffled orders, L2 on the rows a sample
 * touches. Features seen in fewer than `minCount` samples are dropped (word stems are always kept).
 */
export function trainSoftmax(samples: readonly TrainSample[], classes: number, settings: TrainSettings, log?: (line: string) => void): TrainedWeights {
  const C = classes;
  const counts = new Map<string, number>();
  for (const s of samples) for (const f of s.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocab = [...counts].filter(([f, n]) => n >= settings.minCount || f.startsWith("w:")).map(([f]) => f).sort();
  const featureIndex = new Map(vocab.map((f, i) => [f, i]));
  const data = samples.map((s) => ({
    rows: Int32Array.from(s.features.map((f) => featureIndex.get(f) ?? -1).filter((r) => r >= 0)),
    norm: s.features.length ? 1 / Math.sqrt(s.features.length) : 0,
    y: s.y,
  }));
  const F = vocab.length;
  const W = new Float32Array(F * C);
  const G = new Float32Array(F * C).fill(1e-8);
  const bias = new Float64Array(C);
  const gBias = new Float64Array(C).fill(1e-8);
  const rnd = createRandom(settings.seed).next;
  const order = data.map((_, i) => i);
  const logits = new Float64Array(C);
  const activeClass = new Int32Array(C);
  const activeGrad = new Float64Array(C);
  let meanLoss = 0;
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (const idx of order) {
      const { rows, norm, y } = data[idx];
      logits.set(bias);
      for (const r of rows) {
        const base = r * C;
        for (let c = 0; c < C; c++) logits[c] += W[base + c] * norm;
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) max = Math.max(max, logits[c]);
      let sum = 0;
      for (let c = 0; c < C; c++) sum += logits[c] = Math.exp(logits[c] - max);
      loss -= Math.log(logits[y] / sum);
      // The classes whose gradient matters, then each row's weights of those classes (a row's weights
      // lie side by side in memory): the same updates as class by class, several times faster.
      let active = 0;
      for (let c = 0; c < C; c++) {
        const g = logits[c] / sum - (c === y ? 1 : 0);
        gBias[c] += g * g;
        bias[c] -= (settings.learningRate * g) / Math.sqrt(gBias[c]);
        if (Math.abs(g) < 1e-4) continue;
        activeClass[active] = c;
        activeGrad[active++] = g * norm;
      }
      for (const r of rows) {
        const base = r * C;
        for (let a = 0; a < active; a++) {
          const k = base + activeClass[a];
          const gw = activeGrad[a] + settings.l2 * W[k];
          G[k] += gw * gw;
          W[k] -= (settings.learningRate * gw) / Math.sqrt(G[k]);
        }
      }
    }
    meanLoss = loss / Math.max(1, order.length);
    log?.(`epoch ${epoch + 1}: mean loss ${meanLoss.toFixed(4)}`);
  }
  return { vocab, classes: C, W, bias, meanLoss };
}

/**
 * Sparse weights. A feature adds its weights to every class's score, so shifting all of a row's
 * weights by one constant changes no probability: each row is centred on its median first, which
 * brings the many small weights of the classes the feature says nothing about to ~0; weights under
 * `prune` are then dropped. Rows: `offsets[r]..offsets[r+1]` index `cls` and `weights`.
 */
export function sparsify(t: TrainedWeights, prune: number): { features: string[]; offsets: number[]; cls: number[]; weights: number[] } {
  const { W, classes: C, vocab } = t;
  const row = new Float32Array(C);
  for (let r = 0; r < vocab.length; r++) {
    row.set(W.subarray(r * C, (r + 1) * C));
    row.sort();
    const median = row[C >> 1];
    for (let c = 0; c < C; c++) W[r * C + c] -= median;
  }
  const features: string[] = [];
  const offsets: number[] = [0];
  const cls: number[] = [];
  const weights: number[] = [];
  for (let r = 0; r < vocab.length; r++) {
    const before = cls.length;
    for (let c = 0; c < C; c++) {
      const w = W[r * C + c];
      if (Math.abs(w) < prune) continue;
      cls.push(c);
      weights.push(w);
    }
    if (cls.length === before) continue;
    features.push(vocab[r]);
    offsets.push(cls.length);
  }
  return { features, offsets, cls, weights };
}

/** A sparse model in memory (float weights), ready for modelLogits. */
export function modelFromTrained(t: TrainedWeights, classes: string[], prune: number, temperature = 1, lexicalWeight = 0): IntentModel {
  const sparse = sparsify(t, prune);
  return {
    classes,
    classIndex: new Map(classes.map((c, i) => [c, i])),
    temperature,
    lexicalWeight,
    bias: Float64Array.from(t.bias),
    rows: new Map(sparse.features.map((f, i) => [f, i])),
    offsets: Int32Array.from(sparse.offsets),
    cls: Uint16Array.from(sparse.cls),
    weights: Float32Array.from(sparse.weights),
  };
}

/** The texts a capability's registry entry teaches the model: its title, description, tags, aliases and examples. */
export function registryTexts(d: Pick<IntentDoc, "title" | "description" | "tags" | "aliases" | "examples" | "categoryTitle">): string[] {
  return [
    d.title,
    d.description,
    `${d.title}: ${d.description}`,
    d.tags.join(" "),
    `${d.categoryTitle ?? ""} ${d.title}`,
    ...(d.aliases ?? []),
    ...(d.examples ?? []),
  ];
}
