// Trains the intent model (data/intent-model.json) from the training corpus (data/intents/train/*.jsonl)
// and the registry's own texts (titles, descriptions, tags, aliases, examples). Deterministic: the same
// inputs give the same model. Run it again whenever the starter catalogue changes:
//   npm run train:intents            (then npm run eval:intents)
// Capabilities added at run time need no retraining: the lexical index resolves them (docs/intents.md).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { intentFeatures } from "../lib/discovery/intent/features";
import { MODEL_PATH, NONE_CLASS, type IntentModelFile } from "../lib/discovery/intent/model";
import { mulberry32 } from "./eval-registry";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SETTINGS = {
  epochs: arg("epochs", 12),
  learningRate: arg("lr", 0.4),
  l2: arg("l2", 1e-3),
  minCount: arg("min-count", 2),
  prune: arg("prune", 0.3),
  seed: arg("seed", 7),
};

type Sample = { text: string; label: string };
type Registry = {
  categories: { id: string; title: string; description: string }[];
  capabilities: { id: string; title: string; description: string; tags: string[]; aliases?: string[]; examples?: string[] }[];
};

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function loadSamples(registry: Registry): Sample[] {
  const known = new Set(registry.capabilities.map((c) => c.id));
  const dir = join(root, "data/intents/train");
  const samples: Sample[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl")).sort()) {
    for (const s of readJsonl<{ text: string; label: string }>(join(dir, f))) {
      if (s.label === NONE_CLASS || known.has(s.label)) samples.push({ text: s.text, label: s.label });
    }
  }
  const categories = new Map(registry.categories.map((c) => [c.id, c]));
  for (const c of registry.capabilities) {
    const cat = categories.get(c.id.split(".")[0]);
    const texts = [c.title, c.description, `${c.title}: ${c.description}`, c.tags.join(" "), `${cat?.title ?? ""} ${c.title}`];
    for (const t of [...texts, ...(c.aliases ?? []), ...(c.examples ?? [])]) samples.push({ text: t, label: c.id });
  }
  return samples;
}


type Encoded = { rows: Int32Array; norm: number; y: number };

function train() {
  const registry = JSON.parse(readFileSync(join(root, "lib/registry/capabilities.json"), "utf8")) as Registry;
  const samples = loadSamples(registry);
  const classes = [...registry.capabilities.map((c) => c.id), NONE_CLASS];
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const C = classes.length;

  // Vocabulary: features seen in at least minCount samples (a word stem once is enough).
  const featureSets = samples.map((s) => intentFeatures(s.text));
  const counts = new Map<string, number>();
  for (const fs of featureSets) for (const f of fs) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocab = [...counts].filter(([f, n]) => n >= SETTINGS.minCount || f.startsWith("w:")).map(([f]) => f).sort();
  const featureIndex = new Map(vocab.map((f, i) => [f, i]));
  const F = vocab.length;
  const data: Encoded[] = samples.map((s, i) => {
    const fs = featureSets[i];
    const rows = Int32Array.from(fs.map((f) => featureIndex.get(f) ?? -1).filter((r) => r >= 0));
    return { rows, norm: fs.length ? 1 / Math.sqrt(fs.length) : 0, y: classIndex.get(s.label)! };
  });
  console.log(`samples ${samples.length}, classes ${C}, features ${F}`);

  // Multinomial logistic regression, AdaGrad, L2 on the rows a sample touches.
  const W = new Float32Array(F * C);
  const G = new Float32Array(F * C).fill(1e-8);
  const bias = new Float64Array(C);
  const gBias = new Float64Array(C).fill(1e-8);
  const rnd = mulberry32(SETTINGS.seed);
  const order = data.map((_, i) => i);
  const logits = new Float64Array(C);
  for (let epoch = 0; epoch < SETTINGS.epochs; epoch++) {
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
      for (let c = 0; c < C; c++) {
        const g = logits[c] / sum - (c === y ? 1 : 0);
        gBias[c] += g * g;
        bias[c] -= (SETTINGS.learningRate * g) / Math.sqrt(gBias[c]);
        if (Math.abs(g) < 1e-4) continue;
        for (const r of rows) {
          const k = r * C + c;
          const gw = g * norm + SETTINGS.l2 * W[k];
          G[k] += gw * gw;
          W[k] -= (SETTINGS.learningRate * gw) / Math.sqrt(G[k]);
        }
      }
    }
    console.log(`epoch ${epoch + 1}: mean loss ${(loss / order.length).toFixed(4)}`);
  }

  // Sparse, quantised. A feature adds its weights to every class's score, so shifting all of a row's
  // weights by one constant changes no probability: each row is centred on its median first, which
  // brings the many small weights of the classes the feature says nothing about to ~0. Weights under
  // the prune threshold are then dropped, the rest stored as int8.
  const row = new Float32Array(C);
  for (let r = 0; r < F; r++) {
    row.set(W.subarray(r * C, (r + 1) * C));
    row.sort();
    const median = row[C >> 1];
    for (let c = 0; c < C; c++) W[r * C + c] -= median;
  }

  let maxAbs = 0;
  for (let k = 0; k < W.length; k++) if (Math.abs(W[k]) >= SETTINGS.prune) maxAbs = Math.max(maxAbs, Math.abs(W[k]));
  const scale = maxAbs / 127;
  const features: string[] = [];
  const offsets: number[] = [0];
  const cls: number[] = [];
  const weights: number[] = [];
  for (let r = 0; r < F; r++) {
    const before = cls.length;
    for (let c = 0; c < C; c++) {
      const w = W[r * C + c];
      const q = Math.round(w / scale);
      if (Math.abs(w) < SETTINGS.prune || q === 0) continue;
      cls.push(c);
      weights.push(q);
    }
    if (cls.length === before) continue;
    features.push(vocab[r]);
    offsets.push(cls.length);
  }
  const file: IntentModelFile = {
    version: 1,
    about: {
      trained_on: { samples: samples.length, corpus: "data/intents/train/*.jsonl + lib/registry/capabilities.json" },
      settings: SETTINGS,
      features: features.length,
      weights: weights.length,
    },
    classes,
    temperature: 1,
    lexical_weight: 0,
    bias: Array.from(bias, (b) => Math.round(b * 1e4) / 1e4),
    scale,
    features,
    offsets: Buffer.from(Int32Array.from(offsets).buffer).toString("base64"),
    cls: Buffer.from(Uint16Array.from(cls).buffer).toString("base64"),
    weights: Buffer.from(Int8Array.from(weights).buffer).toString("base64"),
  };
  return file;
}

const file = train();
const previous = (() => {
  try {
    return JSON.parse(readFileSync(join(root, MODEL_PATH), "utf8")) as IntentModelFile;
  } catch {
    return null;
  }
})();
// The temperature and the lexical weight are fitted by `npm run eval:intents -- --calibrate` on the development split; a retrain
// keeps the last fitted one until then.
file.temperature = previous?.temperature ?? 1;
file.lexical_weight = previous?.lexical_weight ?? 0;
writeFileSync(join(root, MODEL_PATH), JSON.stringify(file) + "\n");
console.log(`wrote ${MODEL_PATH}: ${file.features.length} features, ${(file.weights.length / 1e6).toFixed(2)}M weights`);
