// Trains the intent model (data/intent-model.json) from the training corpus (data/intents/train/*.jsonl)
// and the registry's own texts (titles, descriptions, tags, aliases, examples). Deterministic: the same
// inputs give the same model. Run it again whenever the starter catalogue changes:
//   npm run train:intents            (then npm run eval:intents)
// Capabilities added at run time need no retraining: a small model of their own is trained from their
// registry texts whenever the index is built (lib/discovery/intent/extension.ts, docs/intents.md).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { intentFeatures } from "../lib/discovery/intent/features";
import { MODEL_PATH, NONE_CLASS, REFUSE_CLASS, type IntentModelFile } from "../lib/discovery/intent/model";
import { registryTexts, TRAIN_DEFAULTS, sparsify, trainSoftmax } from "../lib/discovery/intent/train";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SETTINGS = {
  epochs: arg("epochs", TRAIN_DEFAULTS.epochs),
  learningRate: arg("lr", TRAIN_DEFAULTS.learningRate),
  l2: arg("l2", TRAIN_DEFAULTS.l2),
  minCount: arg("min-count", TRAIN_DEFAULTS.minCount),
  prune: arg("prune", TRAIN_DEFAULTS.prune),
  seed: arg("seed", TRAIN_DEFAULTS.seed),
};

type Sample = { text: string; label: string };
export type Registry = {
  categories: { id: string; title: string; description: string }[];
  capabilities: { id: string; title: string; description: string; tags: string[]; aliases?: string[]; examples?: string[] }[];
};

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/**
 * The corpus and the registry's texts, without the capabilities in `exclude` (they stay unknown to the
 * model), and without the corpus needs of those in `textsOnly` (they learn from their registry texts).
 */
export function loadSamples(registry: Registry, exclude: ReadonlySet<string>, textsOnly: ReadonlySet<string>): Sample[] {
  const known = new Set(registry.capabilities.map((c) => c.id).filter((id) => !exclude.has(id)));
  const dir = join(root, "data/intents/train");
  const samples: Sample[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl")).sort()) {
    for (const s of readJsonl<{ text: string; label: string }>(join(dir, f))) {
      if (s.label === NONE_CLASS || s.label === REFUSE_CLASS || (known.has(s.label) && !textsOnly.has(s.label))) samples.push({ text: s.text, label: s.label });
    }
  }
  const categories = new Map(registry.categories.map((c) => [c.id, c]));
  for (const c of registry.capabilities.filter((x) => known.has(x.id))) {
    for (const t of registryTexts({ ...c, categoryTitle: categories.get(c.id.split(".")[0])?.title })) samples.push({ text: t, label: c.id });
  }
  return samples;
}


export const readRegistry = () => JSON.parse(readFileSync(join(root, "lib/registry/capabilities.json"), "utf8")) as Registry;

/** The model's weights and classes for `registry`, leaving out the capabilities in `exclude`. */
export function trainWeights(registry: Registry, exclude: ReadonlySet<string> = new Set(), log?: (line: string) => void, textsOnly: ReadonlySet<string> = new Set()) {
  const samples = loadSamples(registry, exclude, textsOnly);
  const classes = [...registry.capabilities.map((c) => c.id).filter((id) => !exclude.has(id)), NONE_CLASS, REFUSE_CLASS];
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const encoded = samples.map((s) => ({ features: intentFeatures(s.text), y: classIndex.get(s.label)! }));
  log?.(`samples ${samples.length}, classes ${classes.length}`);
  return { trained: trainSoftmax(encoded, classes.length, SETTINGS, log), classes, samples: samples.length };
}

function train() {
  const { trained, classes, samples } = trainWeights(readRegistry(), new Set(), console.log);
  // Sparse and quantised: the weights kept (see sparsify) are stored as int8.
  const sparse = sparsify(trained, SETTINGS.prune);
  const maxAbs = sparse.weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0);
  const scale = maxAbs / 127;
  const features: string[] = [];
  const offsets: number[] = [0];
  const cls: number[] = [];
  const weights: number[] = [];
  sparse.features.forEach((f, r) => {
    const before = cls.length;
    for (let k = sparse.offsets[r]; k < sparse.offsets[r + 1]; k++) {
      const q = Math.round(sparse.weights[k] / scale);
      if (q === 0) continue;
      cls.push(sparse.cls[k]);
      weights.push(q);
    }
    if (cls.length === before) return;
    features.push(f);
    offsets.push(cls.length);
  });
  const file: IntentModelFile = {
    version: 1,
    about: {
      trained_on: { samples, corpus: "data/intents/train/*.jsonl + lib/registry/capabilities.json" },
      settings: SETTINGS,
      features: features.length,
      weights: weights.length,
    },
    classes,
    temperature: 1,
    lexical_weight: 0,
    bias: Array.from(trained.bias, (b) => Math.round(b * 1e4) / 1e4),
    scale,
    features,
    offsets: Buffer.from(Int32Array.from(offsets).buffer).toString("base64"),
    cls: Buffer.from(Uint16Array.from(cls).buffer).toString("base64"),
    weights: Buffer.from(Int8Array.from(weights).buffer).toString("base64"),
  };
  return file;
}

function main() {
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
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
