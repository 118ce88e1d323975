// The lexical resolver: field-weighted BM25 over the registry's own texts (stemming, synonyms, typo
// tolerance) with a confidence of its own. It knows every capability the moment it is in the registry,
// so it resolves the ones the trained model has never seen (see ../intent.ts).

import type { IntentIndex as LexicalIndex } from "./build";
import { analyzeIntent, rank, type Query, type Ranked } from "./query";

export type IntentCandidate = { capability_id: string; confidence: number };
export type IntentResolution = { best: IntentCandidate | null; candidates: IntentCandidate[] };

/** Below this lexical confidence a guess is not an answer. */
export const LEXICAL_CONFIDENCE_FLOOR = 0.5;

// Confidence is a logistic score of three registry-size-independent signals of the best capability, fitted on the
// eval set's dev split (never the holdout):
//   coverage - share of the need's (idf-weighted) words it explains;
//   depth    - score per explained unit: matches in titles/aliases and in-order word pairs, not a stray example word;
//   head     - whether it explains the need's head word ("FILE my taxes" is not a VAT check),
// and damped when the explained part is small (a single generic word).
// It is then scaled down when the runner-up is close, so two competing capabilities never look certain.
const W_COVERAGE = 4.0;
const W_DEPTH = 1.3;
const W_HEAD = 1.3;
const BIAS = -5.7;
const MARGIN_FULL = 0.25;
// One weak, generic match ("top results") is not a clear need, however well it is covered.
const EVIDENCE_FULL = 3;
const TIE_FACTOR = 0.8;

function quality(r: Ranked): number {
  const depth = r.evidence > 0 ? Math.min(3, r.plain / r.evidence) : 0;
  const z = W_COVERAGE * r.coverage + W_DEPTH * depth + W_HEAD * r.head + BIAS;
  return (1 / (1 + Math.exp(-z))) * Math.min(1, 0.6 + (0.4 * r.evidence) / EVIDENCE_FULL);
}

const round3 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** The lexical index's best capabilities (by doc), with its own answer. */
export type LexicalGuesses = { top: Ranked[]; resolution: IntentResolution };

export function lexicalGuesses(index: LexicalIndex, intent: string, keep = 4): LexicalGuesses {
  let top: Ranked[];
  try {
    const q: Query = analyzeIntent(index, typeof intent === "string" ? intent : String(intent));
    top = rank(index, q, keep);
  } catch {
    // Input is untrusted text: failing to analyse it means "not understood", never an exception for the caller.
    return { top: [], resolution: { best: null, candidates: [] } };
  }
  if (top.length === 0) return { top, resolution: { best: null, candidates: [] } };

  const s1 = top[0].score;
  const s2 = top.length > 1 ? top[1].score : 0;
  const margin = (s1 - s2) / s1;
  const c1 = quality(top[0]) * (TIE_FACTOR + (1 - TIE_FACTOR) * Math.min(1, margin / MARGIN_FULL));
  // Runners-up: their own quality, scaled by how far behind they score; never above the one ranked before them.
  let previous = c1;
  const scored: IntentCandidate[] = top.slice(0, 4).map((r, i) => {
    const c = i === 0 ? c1 : Math.min(previous, quality(r) * TIE_FACTOR * (r.score / s1));
    previous = c;
    return { capability_id: index.ids[r.doc], confidence: round3(c) };
  });
  if (scored[0].confidence >= LEXICAL_CONFIDENCE_FLOOR) return { top, resolution: { best: scored[0], candidates: scored.slice(1, 4) } };
  return { top, resolution: { best: null, candidates: scored.slice(0, 3) } };
}

export function resolveLexical(index: LexicalIndex, intent: string): IntentResolution {
  return lexicalGuesses(index, intent).resolution;
}
