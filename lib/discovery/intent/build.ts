// Builds the in-memory intent index: interned terms, field-weighted BM25 postings and the typo table.
// Everything a query needs is precomputed here so resolving stays a handful of array scans.

import { stem } from "./stem";
import { extractValues, STOPWORDS } from "./text";
import { SYNONYMS, PLACES, MAX_PLACE_WORDS, PHRASE_STARTS } from "./synonyms";
import { buildTypoIndex, type TypoIndex } from "./typo";
import { createRequire } from "node:module";
import path from "node:path";

export type IntentDoc = {
  id: string;
  title: string;
  description: string;
  category: string;
  categoryTitle?: string;
  tags: string[];
  aliases?: string[];
  examples?: string[];
};

export type IntentIndex = {
  readonly size: number;
  readonly ids: readonly string[];
  readonly termIds: ReadonlyMap<string, number>; // stems and value tokens ("@ip")
  readonly pairs: PairTable; // bigram (first term id, second term id) -> term id
  readonly idf: Float64Array; // by term id
  // idf x the best field credit the term has anywhere: words seen only in examples are payload, so they weigh less.
  readonly importance: Float64Array;
  // Postings of term t are entries start[t] .. start[t+1]-1: document, BM25 score, field credit relative to
  // the term's best credit.
  readonly start: Int32Array;
  readonly pDoc: Int32Array;
  readonly pScore: Float64Array;
  readonly pCredit: Float64Array;
  readonly known: ReadonlyMap<string, number>; // registry surface words (need no typo correction) -> word id
  readonly typo: TypoIndex;
  readonly unknownImportance: number;
  // Capabilities about another time than now (history, forecast) and the terms that ask for such a time.
  readonly timeAspect: Uint8Array;
  readonly timeTerms: ReadonlySet<number>;
};

// Specificity: "stock price of Google" is a quote, not a price history; "weather in Oslo" is the current weather.
// A capability whose name is about another time than now is only preferred when the intent mentions time.
const TIME_ASPECT_WORDS = ["history", "historical", "past", "archive", "forecast", "upcoming"];
const TIME_QUERY_WORDS = [...TIME_ASPECT_WORDS, "tomorrow", "date", "yesterday", "previous", "ago", "next", "week", "future", "schedule"];

// Field weight: how strongly a word in that field says "this is the capability".
// Credit: how much of a query word the field explains; examples hold payload words ("Lisbon", "dog"), so they explain little.
export const FIELD = {
  name: { weight: 3, credit: 1 },
  title: { weight: 3, credit: 1 },
  alias: { weight: 2.2, credit: 1 },
  tag: { weight: 2, credit: 1 },
  category: { weight: 1, credit: 0.8 },
  description: { weight: 1, credit: 0.8 },
  example: { weight: 0.7, credit: 0.5 },
} as const;
type FieldSpec = (typeof FIELD)[keyof typeof FIELD];

const K1 = 1.2;
const B = 0.35;
export function isContent(w: string): boolean {
  return !STOPWORDS.has(w) && !/^\d+$/.test(w);
}

export const PLACE_PARTS: ReadonlySet<string> = new Set([...PLACES].flatMap((p) => p.split(" ")));
const SYNONYM_WORDS: ReadonlySet<string> = new Set([...SYNONYMS.keys()].flatMap((k) => k.split(" ")));

/** Words known regardless of the registry: the synonym table's, stop words and places. */
export const STATIC_KNOWN: ReadonlySet<string> = new Set([...SYNONYM_WORDS, ...STOPWORDS, ...PLACE_PARTS]);

// A real English word that the registry does not know ("massage", "walk", "rash") is not a typo of one it does
// know ("message", "talk", "cash"): it is payload, or a need the registry does not serve. Only non-words get
// corrected. The package's list (~275k words) is sorted, so membership is a binary search: no extra Set in memory.
//
// It is loaded with Node's own require and shared by every bundle (globalThis), not imported: the bundler's
// ES-module interop wraps an imported CommonJS array in a namespace object with one getter per element, so each
// server bundle that imported it held ~275,000 closures, contexts and accessors (~36 MB a bundle, two bundles:
// 72 MB of the server's 236 MB live heap), and every full GC of the server had to walk them.
function englishWords(): readonly string[] {
  const g = globalThis as unknown as { __capdexEnglishWords?: readonly string[] };
  return (g.__capdexEnglishWords ??= createRequire(path.join(process.cwd(), "package.json"))("an-array-of-english-words") as string[]);
}
export function isEnglishWord(w: string): boolean {
  const ENGLISH = englishWords();
  let lo = 0;
  let hi = ENGLISH.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ENGLISH[mid] < w) lo = mid + 1;
    else hi = mid;
  }
  return lo < ENGLISH.length && ENGLISH[lo] === w;
}

// The synonym vocabulary is the same for every registry, so its typo table is built once per process, not per index.
let sharedTypo: TypoIndex | null = null;
export function synonymTypoIndex(): TypoIndex {
  if (sharedTypo === null) sharedTypo = buildTypoIndex(new Map([...SYNONYM_WORDS].map((w) => [w, 1])));
  return sharedTypo;
}

/** Length of the place name starting at ws[i] (longest first, so "new york" is one place), or 0. */
export function placeAt(ws: readonly string[], i: number): number {
  if (!PLACE_PARTS.has(ws[i])) return 0;
  const longest = PHRASE_STARTS.has(ws[i]) ? Math.min(MAX_PLACE_WORDS, ws.length - i) : 1;
  for (let len = longest; len >= 1; len--) {
    if (PLACES.has(len === 1 ? ws[i] : ws.slice(i, i + len).join(" "))) return len;
  }
  return 0;
}

const SEPARATOR = " | ";
/** Prefix of "target" terms: the words right after "to"/"into" name what the need wants out ("speech to TEXT"). */
export const TARGET = ">";
export const TARGET_SPAN = 2;
const TOKEN = /[a-z0-9]+|\|/g;

/** Open-addressing hash table from a pair of term ids to a term id: far cheaper to fill than nested Maps. */
export class PairTable {
  private keysA = new Int32Array(1 << 12).fill(-1);
  private keysB = new Int32Array(1 << 12);
  private values = new Int32Array(1 << 12);
  private count = 0;

  private slot(a: number, b: number): number {
    const mask = this.keysA.length - 1;
    let i = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (this.keysA[i] !== -1 && (this.keysA[i] !== a || this.keysB[i] !== b)) i = (i + 1) & mask;
    return i;
  }

  get(a: number, b: number): number {
    const i = this.slot(a, b);
    return this.keysA[i] === -1 ? -1 : this.values[i];
  }

  /** The value for (a, b), created with make() when missing. */
  getOrAdd(a: number, b: number, make: () => number): number {
    let i = this.slot(a, b);
    if (this.keysA[i] !== -1) return this.values[i];
    if ((this.count + 1) * 2 > this.keysA.length) {
      this.grow();
      i = this.slot(a, b);
    }
    const v = make();
    this.keysA[i] = a;
    this.keysB[i] = b;
    this.values[i] = v;
    this.count++;
    return v;
  }

  private grow(): void {
    const [a, b, v] = [this.keysA, this.keysB, this.values];
    this.keysA = new Int32Array(a.length * 2).fill(-1);
    this.keysB = new Int32Array(a.length * 2);
    this.values = new Int32Array(a.length * 2);
    for (let i = 0; i < a.length; i++) {
      if (a[i] === -1) continue;
      const j = this.slot(a[i], b[i]);
      this.keysA[j] = a[i];
      this.keysB[j] = b[i];
      this.values[j] = v[i];
    }
  }
}

// Accumulates (term, weighted tf, best credit) rows per document, without a Map per document.
// Registry words repeat a lot, so each distinct surface word is analysed once and then looked up by one Map probe.
class Accumulator {
  readonly termIds = new Map<string, number>();
  readonly pairs = new PairTable();
  private readonly makeTerm = (): number => this.newTerm();
  readonly wordIds = new Map<string, number>();
  readonly words: string[] = [];
  private readonly wordTerm: number[] = []; // stem term id, -1 for stop words and numbers
  private readonly wordTarget: number[] = []; // term id of ">stem": the word as the target of "to"/"into"
  private readonly wordPlace: boolean[] = [];
  readonly wordCount: number[] = [];
  private lastDoc: number[] = [];
  private row: number[] = [];
  readonly term: number[] = [];
  readonly tf: number[] = [];
  readonly credit: number[] = [];
  doc = 0;

  private newTerm(): number {
    this.lastDoc.push(-1);
    this.row.push(0);
    return this.lastDoc.length - 1;
  }

  termId(t: string): number {
    let id = this.termIds.get(t);
    if (id === undefined) {
      id = this.newTerm();
      this.termIds.set(t, id);
    }
    return id;
  }

  private pairId(a: number, b: number): number {
    return this.pairs.getOrAdd(a, b, this.makeTerm);
  }

  private wordId(w: string): number {
    let id = this.wordIds.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.wordIds.set(w, id);
      this.words.push(w);
      const content = w !== "|" && isContent(w);
      this.wordTerm.push(content ? this.termId(stem(w)) : -1);
      this.wordTarget.push(content ? this.termId(TARGET + stem(w)) : -1);
      this.wordPlace.push(PLACE_PARTS.has(w));
      this.wordCount.push(0);
    }
    return id;
  }

  private add(id: number, spec: FieldSpec): void {
    if (this.lastDoc[id] === this.doc) {
      const r = this.row[id];
      this.tf[r] += spec.weight;
      if (spec.credit > this.credit[r]) this.credit[r] = spec.credit;
    } else {
      this.lastDoc[id] = this.doc;
      this.row[id] = this.term.length;
      this.term.push(id);
      this.tf.push(spec.weight);
      this.credit.push(spec.credit);
    }
  }

  get size(): number {
    return this.lastDoc.length;
  }

  /** Adds a group of phrases of one field kind; bigrams never span two phrases. Returns the weighted length. */
  addField(texts: readonly string[], spec: FieldSpec): number {
    if (texts.length === 0) return 0;
    const { text, values } = extractValues(texts.length === 1 ? texts[0] : texts.join(SEPARATOR));
    const ws = text.match(TOKEN) ?? [];
    let len = 0;
    let prev = -1;
    let target = 0;
    for (let i = 0; i < ws.length; i++) {
      if (ws[i] === "to" || ws[i] === "into") {
        target = TARGET_SPAN;
        continue;
      }
      const wid = this.wordId(ws[i]);
      if (this.wordPlace[wid]) {
        const place = placeAt(ws, i);
        if (place > 0) {
          // Places are payload ("weather in Vienna"), so they are not indexed.
          i += place - 1;
          prev = -1;
          continue;
        }
      }
      const t = this.wordTerm[wid];
      if (t < 0) {
        if (ws[i] === "|") {
          prev = -1;
          target = 0;
        }
        continue;
      }
      if (target > 0) {
        target--;
        this.add(this.wordTarget[wid], spec);
      }
      // Typo targets come from the fields that describe the capability, not from payload words in examples.
      if (spec !== FIELD.example) this.wordCount[wid]++;
      this.add(t, spec);
      len += spec.weight;
      if (prev >= 0 && prev !== t) this.add(this.pairId(prev, t), spec);
      prev = t;
    }
    for (const v of values) {
      if (v === "@quoted") continue;
      this.add(this.termId(v), spec);
      len += spec.weight;
    }
    return len;
  }
}

export function buildIndex(docs: readonly IntentDoc[]): IntentIndex {
  const acc = new Accumulator();
  const docStart: number[] = [0];
  const lengths: number[] = [];
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    acc.doc = d;
    const dot = doc.id.indexOf(".");
    let len = acc.addField([(dot >= 0 ? doc.id.slice(dot + 1) : doc.id).replace(/[_-]+/g, " ")], FIELD.name);
    len += acc.addField([`${doc.category.replace(/[_-]+/g, " ")} ${doc.categoryTitle ?? ""}`], FIELD.category);
    len += acc.addField([doc.title], FIELD.title);
    len += acc.addField([doc.description], FIELD.description);
    len += acc.addField(doc.tags, FIELD.tag);
    len += acc.addField(doc.aliases ?? [], FIELD.alias);
    len += acc.addField(doc.examples ?? [], FIELD.example);
    docStart.push(acc.term.length);
    lengths.push(len);
  }

  const n = docs.length;
  const nTerms = acc.size;
  const avgLen = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n) || 1;
  const df = new Int32Array(nTerms);
  for (const t of acc.term) df[t]++;
  const idf = new Float64Array(nTerms);
  const start = new Int32Array(nTerms + 1);
  for (let t = 0; t < nTerms; t++) {
    idf[t] = Math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5));
    start[t + 1] = start[t] + df[t];
  }
  const fill = start.slice(0, nTerms);
  const pDoc = new Int32Array(acc.term.length);
  const pScore = new Float64Array(acc.term.length);
  const pCredit = new Float64Array(acc.term.length);
  for (let d = 0; d < n; d++) {
    const norm = K1 * (1 - B + (B * lengths[d]) / avgLen);
    for (let r = docStart[d]; r < docStart[d + 1]; r++) {
      const t = acc.term[r];
      const tf = acc.tf[r];
      const at = fill[t]++;
      pDoc[at] = d;
      pScore[at] = (idf[t] * tf * (K1 + 1)) / (tf + norm);
      pCredit[at] = acc.credit[r];
    }
  }
  const importance = new Float64Array(nTerms);
  for (let t = 0; t < nTerms; t++) {
    let best = 0;
    for (let k = start[t]; k < start[t + 1]; k++) best = Math.max(best, pCredit[k]);
    for (let k = start[t]; k < start[t + 1]; k++) pCredit[k] /= best || 1;
    importance[t] = idf[t] * best;
  }

  const aspectStems = new Set(TIME_ASPECT_WORDS.map(stem));
  const timeAspect = new Uint8Array(n);
  docs.forEach((doc, d) => {
    const name = `${doc.id.slice(doc.id.indexOf(".") + 1)} ${doc.title}`.toLowerCase();
    if ((name.match(/[a-z]+/g) ?? []).some((w) => aspectStems.has(stem(w)))) timeAspect[d] = 1;
  });
  const timeTerms = new Set<number>();
  for (const w of TIME_QUERY_WORDS) {
    const id = acc.termIds.get(stem(w));
    if (id !== undefined) timeTerms.add(id);
  }

  synonymTypoIndex();
  // Typo targets: words of the fields that describe capabilities, weighted by how often they occur.
  function* typoWords(): Generator<readonly [string, number]> {
    for (let i = 0; i < acc.words.length; i++) if (acc.wordCount[i] > 0) yield [acc.words[i], acc.wordCount[i]];
  }

  return {
    size: n,
    ids: docs.map((d) => d.id),
    termIds: acc.termIds,
    pairs: acc.pairs,
    idf,
    importance,
    start,
    pDoc,
    pScore,
    pCredit,
    // Every word the registry uses; the rest a query may use without correction is in STATIC_KNOWN.
    known: acc.wordIds,
    typo: buildTypoIndex(typoWords()),
    // An unknown word weighs like a fairly rare registry word: evidence that the registry may not serve the need.
    unknownImportance: Math.max(0.5, Math.log(1 + (n - 2.5) / 3.5)),
    timeAspect,
    timeTerms,
  };
}
