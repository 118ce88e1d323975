// Typo tolerance: maps an unknown word to the closest vocabulary word (edit distance 1, or 2 for long words).
// Uses a precomputed "symmetric delete" table so a lookup costs a few map probes, not a scan of the vocabulary.

export type TypoIndex = {
  words: string[];
  weight: number[]; // how much evidence a word carries (registry frequency), to break distance ties
  ids: ReadonlyMap<string, number>;
  // Sorted keys hash * 2^22 + word id, where hash is that of the word minus one letter. Collisions are caught by
  // editDistance. A sorted typed array builds much faster than a Map of arrays and is searched by bisection.
  deletes: Float64Array;
};

const ID_BITS = 2 ** 22;

// 32-bit polynomial hash, so the hash of a word with one letter removed is O(1) from prefix hashes (no string built).
const P = 131;
const MASK = 0x3fffffff; // keeps keys small integers, which Maps handle fastest

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, P) + s.charCodeAt(i)) >>> 0;
  return h & MASK;
}

const POW: number[] = [1];
function pow(k: number): number {
  while (POW.length <= k) POW.push(Math.imul(POW[POW.length - 1], P) >>> 0);
  return POW[k];
}

function deleteHashes(w: string, out: number[]): void {
  const n = w.length;
  const pre = new Array<number>(n + 1);
  pre[0] = 0;
  for (let i = 0; i < n; i++) pre[i + 1] = (Math.imul(pre[i], P) + w.charCodeAt(i)) >>> 0;
  for (let i = 0; i < n; i++) {
    const tail = n - 1 - i;
    const suffix = (pre[n] - Math.imul(pre[i + 1], pow(tail))) >>> 0;
    out.push(((Math.imul(pre[i], pow(tail)) + suffix) >>> 0) & MASK);
  }
}

function deletes1(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

export function buildTypoIndex(wordWeights: Iterable<readonly [string, number]>): TypoIndex {
  const words: string[] = [];
  const weight: number[] = [];
  const keys: number[] = [];
  const ids = new Map<string, number>();
  for (const [w, n] of wordWeights) {
    if (w.length < 4 || w.length > 24 || !/^[a-z]+$/.test(w)) continue;
    const id = words.length;
    if (id >= ID_BITS) break;
    words.push(w);
    weight.push(n);
    ids.set(w, id);
    const from = keys.length;
    deleteHashes(w, keys);
    for (let k = from; k < keys.length; k++) keys[k] = keys[k] * ID_BITS + id;
  }
  const deletes = Float64Array.from(keys).sort();
  return { words, weight, ids, deletes };
}

/** Word ids whose one-letter deletes hash to h. */
function* withDeleteHash(index: TypoIndex, h: number): Generator<number> {
  const lo = h * ID_BITS;
  const keys = index.deletes;
  let a = 0;
  let b = keys.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (keys[m] < lo) a = m + 1;
    else b = m;
  }
  for (let k = a; k < keys.length && keys[k] < lo + ID_BITS; k++) yield keys[k] - lo;
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), stopping early past max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n];
}

function isTransposition(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

export type Correction = { word: string; distance: number };

/** Closest known word, or null. Short words only get distance 1 ("stok" -> "stock"); 8+ letters get 2. */
export function correct(index: TypoIndex, word: string): Correction | null {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return null;
  const max = word.length >= 8 ? 2 : 1;
  const probes = new Set<string>([word]);
  const d1 = deletes1(word);
  for (const d of d1) probes.add(d);
  if (max >= 2) for (const d of d1) for (const dd of deletes1(d)) probes.add(dd);

  const seen = new Set<number>();
  let bestId = -1;
  let bestDist = max + 1;
  const consider = (id: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    const cand = index.words[id];
    // People rarely get the first letter wrong; allowing it turns real words into others ("wearing" -> "swearing").
    if (cand.charCodeAt(0) !== word.charCodeAt(0)) return;
    const dist = editDistance(word, cand, max);
    if (dist > max) return;
    // In short words one swapped letter usually makes another real word ("rash"/"cash", "walk"/"talk"), not a typo.
    if (word.length <= 5 && dist === 1 && cand.length === word.length && !isTransposition(word, cand)) return;
    const better =
      bestId < 0 ||
      dist < bestDist ||
      (dist === bestDist &&
        (index.weight[id] > index.weight[bestId] || (index.weight[id] === index.weight[bestId] && index.words[id] < index.words[bestId])));
    if (better) {
      bestId = id;
      bestDist = dist;
    }
  };
  for (const p of probes) {
    // A probe that is a vocabulary word: the typo added letters. A probe found among the vocabulary's deletes:
    // the typo dropped, swapped or replaced letters.
    const own = index.ids.get(p);
    if (own !== undefined) consider(own);
    for (const id of withDeleteHash(index, hash(p))) consider(id);
  }
  return bestId < 0 ? null : { word: index.words[bestId], distance: bestDist };
}
