// The trained intent model (data/intent-model.json, made by `npm run train:intents`): a multinomial
// logistic regression over the features of ./features.ts, one class per capability it was trained on
// plus "none" (needs that no capability serves) and "refuse" (needs that ask for harm). Weights are sparse and stored as int8.
import { readFileSync } from "node:fs";
import path from "node:path";

export const NONE_CLASS = "none";
/** Needs that ask for harm (account takeover, stalking, malware, ...): refused, never served. */
export const REFUSE_CLASS = "refuse";

export type IntentModelFile = {
  version: 1;
  /** What the model was trained on (for humans): sizes, date, settings. */
  about: Record<string, unknown>;
  classes: string[];
  /** Softmax temperature and the weight of the lexical index's scores, fitted on the evaluation's development split. */
  temperature: number;
  lexical_weight: number;
  bias: number[];
  /** Weight = int8 value x scale. */
  scale: number;
  features: string[];
  /** base64 of little-endian arrays: Int32 row offsets (features + 1), Uint16 class of each weight, Int8 weights. */
  offsets: string;
  cls: string;
  weights: string;
};

export type IntentModel = {
  readonly classes: readonly string[];
  readonly classIndex: ReadonlyMap<string, number>;
  readonly temperature: number;
  readonly lexicalWeight: number;
  readonly bias: Float64Array;
  readonly rows: ReadonlyMap<string, number>;
  readonly offsets: Int32Array;
  readonly cls: Uint16Array;
  readonly weights: Float32Array;
};

function decode<T>(b64: string, make: (buf: ArrayBuffer) => T): T {
  const bytes = Buffer.from(b64, "base64");
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return make(copy);
}

export function modelFromFile(file: IntentModelFile): IntentModel {
  const q = decode(file.weights, (b) => new Int8Array(b));
  const weights = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) weights[i] = q[i] * file.scale;
  const rows = new Map<string, number>();
  file.features.forEach((f, i) => rows.set(f, i));
  return {
    classes: file.classes,
    classIndex: new Map(file.classes.map((c, i) => [c, i])),
    temperature: file.temperature,
    lexicalWeight: file.lexical_weight ?? 0,
    bias: Float64Array.from(file.bias),
    rows,
    offsets: decode(file.offsets, (b) => new Int32Array(b)),
    cls: decode(file.cls, (b) => new Uint16Array(b)),
    weights,
  };
}

export const MODEL_PATH = "data/intent-model.json";

// One copy per process, shared by every server bundle (globalThis), loaded on first use. It is read
// from the working directory (the project's root for `next start`, the CLI, the worker and tests).
const shared = globalThis as unknown as { __capdexIntentModel?: IntentModel | null };

export function loadIntentModel(): IntentModel | null {
  if (shared.__capdexIntentModel !== undefined) return shared.__capdexIntentModel;
  try {
    const file = JSON.parse(readFileSync(path.join(process.cwd(), MODEL_PATH), "utf8")) as IntentModelFile;
    shared.__capdexIntentModel = modelFromFile(file);
  } catch (err) {
    // Without the model the lexical index still resolves every capability, less well; say so once.
    console.warn(`[capdex] intent model not loaded (${MODEL_PATH}): ${err instanceof Error ? err.message : err}`);
    shared.__capdexIntentModel = null;
  }
  return shared.__capdexIntentModel;
}

/** Raw class scores (logits) of a feature set; features the model never saw add nothing. */
export function modelLogits(model: IntentModel, features: readonly string[], out = new Float64Array(model.classes.length)): Float64Array {
  out.set(model.bias);
  if (features.length === 0) return out;
  const norm = 1 / Math.sqrt(features.length);
  const { rows, offsets, cls, weights } = model;
  for (const f of features) {
    const row = rows.get(f);
    if (row === undefined) continue;
    for (let k = offsets[row], end = offsets[row + 1]; k < end; k++) out[cls[k]] += weights[k] * norm;
  }
  return out;
}
