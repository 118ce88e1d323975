// Query side of the resolver: turns an intent into weighted "slots" (one per meaningful word or phrase,
// each with alternative terms from synonyms and typo correction) and ranks capabilities against them.

import { stem } from "./stem";
import { capitalizedWords, extractValues, words } from "./text";
import {
  SYNONYMS,
  MAX_PHRASE_WORDS,
  PHRASE_STARTS,
  VALUE_EXPANSION_LISTS,
  VALUE_HINT_LISTS,
  GENERIC_WORDS,
  type Expansion,
} from "./synonyms";
import { correct } from "./typo";
import { isContent, isEnglishWord, placeAt, STATIC_KNOWN, synonymTypoIndex, TARGET, TARGET_SPAN, type IntentIndex } from "./build";

type Alt = { id: number; weight: number };
/** One meaningful part of the need. A capability gets the best of its alternatives, so synonyms never double-count. */
type Slot = { alts: Alt[]; importance: number; head: boolean; possessed?: boolean };
export type Query = { slots: Slot[]; bonus: Alt[]; head: number };

const MAX_INPUT = 2000;
const MAX_WORDS = 64;
// Bonuses (added to the score, not to coverage): word pairs in order, pairs skipping one word, values of a kind
// the capability's examples contain, and words after "to"/"into".
const BIGRAM_WEIGHT = 0.6;
const SKIP_BIGRAM_WEIGHT = 0.4;
const VALUE_BONUS = 0.8;
const TARGET_WEIGHT = 0.6;
// Inside a phrase, the phrase's meaning matters more than its words ("right now" is not about "right").
const PHRASE_LITERAL_WEIGHT = 0.6;
// Modifiers ("cheap", "right now") pick between siblings but are not the need itself.
const MODIFIER_IMPORTANCE = 0.4;
const MODIFIER_SCORE = 0.6;
const TIME_ASPECT_PENALTY = 0.9;
// A capability matching several alternatives of one slot ("web", "search", "google") fits it better than one
// matching a single alternative, but the slot still counts once: the others add only this share.
const ECHO = 0.25;
// Unknown words that are probably payload: names ("OpenAI") and the objects of prepositions ("studies on FASTING").
const NAME_IMPORTANCE = 0.3;
const OBJECT_IMPORTANCE = 0.5;
// "walk my DOG", "water my PLANTS": an unknown thing the user owns is what the need is about, so it is the head.
const POSSESSIVES = new Set(["my"]);
const PREPOSITIONS = new Set(["of", "for", "about", "on", "from", "by", "with", "at", "in", "mentioning", "regarding", "called", "named", "like"]);

function termId(index: IntentIndex, term: string): number {
  const sp = term.indexOf(" ");
  if (sp < 0) return index.termIds.get(term) ?? -1;
  const a = index.termIds.get(stem(term.slice(0, sp)));
  const b = index.termIds.get(stem(term.slice(sp + 1)));
  return a === undefined || b === undefined ? -1 : index.pairs.get(a, b);
}

function pushAlt(index: IntentIndex, alts: Alt[], term: string, weight: number): void {
  const id = termId(index, term);
  if (id >= 0) alts.push({ id, weight });
}

function pushExpansions(index: IntentIndex, alts: Alt[], list: readonly Expansion[], factor: number): void {
  for (const e of list) pushAlt(index, alts, e.bigram ? e.term : stem(e.term), e.weight * factor);
}

function importanceOf(index: IntentIndex, alts: readonly Alt[]): number {
  let best = 0;
  for (const a of alts) best = Math.max(best, a.weight * index.importance[a.id]);
  return best;
}

export function analyzeIntent(index: IntentIndex, intent: string): Query {
  const input = intent.length > MAX_INPUT ? intent.slice(0, MAX_INPUT) : intent;
  const { text, values } = extractValues(input);
  const raw = words(text).slice(0, MAX_WORDS);
  const names = capitalizedWords(input);

  // Typo pass first, so that corrected words can still hit synonym phrases.
  const ws: string[] = [];
  const trust: number[] = [];
  const unknown: boolean[] = [];
  for (const w of raw) {
    if (index.known.has(w) || STATIC_KNOWN.has(w) || /\d/.test(w) || index.termIds.has(stem(w))) {
      ws.push(w);
      trust.push(1);
      unknown.push(false);
      continue;
    }
    if (isEnglishWord(w)) {
      ws.push(w);
      trust.push(1);
      unknown.push(true);
      continue;
    }
    const fromRegistry = correct(index.typo, w);
    const fromSynonyms = correct(synonymTypoIndex(), w);
    const c = fromSynonyms !== null && (fromRegistry === null || fromSynonyms.distance < fromRegistry.distance) ? fromSynonyms : fromRegistry;
    ws.push(c === null ? w : c.word);
    trust.push(c === null ? 1 : c.distance === 1 ? 0.85 : 0.7);
    unknown.push(c === null);
  }

  const slots: Slot[] = [];
  const sequence: number[] = []; // literal term ids in order (-1 breaks), for bigram bonuses
  for (let i = 0; i < ws.length; i++) {
    const place = placeAt(ws, i);
    if (place > 0) {
      i += place - 1;
      sequence.push(-1);
      continue;
    }
    let matched = 0;
    const longest = PHRASE_STARTS.has(ws[i]) ? Math.min(MAX_PHRASE_WORDS, ws.length - i) : 1;
    for (let len = longest; len >= 1 && matched === 0; len--) {
      const entry = SYNONYMS.get(len === 1 ? ws[i] : ws.slice(i, i + len).join(" "));
      if (entry === undefined) continue;
      let t = 1;
      const alts: Alt[] = [];
      let content = 0;
      for (let k = i; k < i + len; k++) {
        t = Math.min(t, trust[k]);
        if (!isContent(ws[k])) continue;
        content++;
        const id = termId(index, stem(ws[k]));
        sequence.push(id);
        if (!entry.replace && id >= 0) alts.push({ id, weight: trust[k] * (len > 1 ? PHRASE_LITERAL_WEIGHT : 1) });
      }
      pushExpansions(index, alts, entry.expansions, t);
      if (entry.modifier) for (const a of alts) a.weight *= MODIFIER_SCORE;
      // Phrases made only of small words ("how far", "where is") hint at a need without naming it; modifiers
      // ("right now", "cheap") pick between siblings but are not the need itself.
      const importance =
        importanceOf(index, alts) * (content === 0 ? 0.5 : 1) * (entry.modifier ? MODIFIER_IMPORTANCE : 1);
      if (importance > 0) {
        const generic = content === 0 || entry.modifier || ws.slice(i, i + len).every((w) => !isContent(w) || GENERIC_WORDS.has(w));
        slots.push({ alts, importance, head: !generic });
      }
      matched = len;
    }
    if (matched > 0) {
      i += matched - 1;
      continue;
    }
    const w = ws[i];
    if (!isContent(w)) continue;
    const id = termId(index, stem(w));
    sequence.push(id);
    const head = !GENERIC_WORDS.has(w);
    // "walk my DOG" (a verb then "my"), but not "a voiceover for my slides".
    const owned = i > 1 && POSSESSIVES.has(ws[i - 1]) && !PREPOSITIONS.has(ws[i - 2]) && !names.has(w);
    // Words seen only in registry examples are payload there ("dog" in "locate every dog in a photo").
    const payloadOnly = id >= 0 && index.importance[id] < 0.75 * index.idf[id];
    if (id >= 0) slots.push({ alts: [{ id, weight: trust[i] }], importance: index.importance[id] * trust[i], head, possessed: owned && payloadOnly });
    else if (unknown[i] && /[a-z]/.test(w)) {
      let importance = index.unknownImportance;
      if (names.has(w)) importance *= NAME_IMPORTANCE;
      else if (ws.slice(Math.max(0, i - 3), i).some((p) => PREPOSITIONS.has(p))) importance *= OBJECT_IMPORTANCE;
      slots.push({ alts: [], importance, head: head && !names.has(w), possessed: owned });
    }
  }

  const bonus: Alt[] = [];
  let target = 0;
  for (const w of ws) {
    if (w === "to" || w === "into") target = TARGET_SPAN;
    else if (target > 0 && isContent(w)) {
      target--;
      pushAlt(index, bonus, TARGET + stem(w), TARGET_WEIGHT);
    }
  }
  for (const v of values) {
    const hint = VALUE_HINT_LISTS.get(v);
    if (hint !== undefined) pushExpansions(index, bonus, hint, 1);
    const exp = VALUE_EXPANSION_LISTS.get(v);
    if (exp === undefined || exp.length === 0) continue;
    pushAlt(index, bonus, v, VALUE_BONUS);
    const alts: Alt[] = [];
    pushExpansions(index, alts, exp, 1);
    const importance = importanceOf(index, alts);
    if (importance > 0) slots.push({ alts, importance, head: false });
  }

  for (let i = 1; i < sequence.length; i++) {
    const a = sequence[i - 1];
    const b = sequence[i];
    if (a < 0 || b < 0 || a === b) continue;
    const id = index.pairs.get(a, b);
    if (id >= 0) bonus.push({ id, weight: BIGRAM_WEIGHT });
  }
  // Pairs that skip one word keep word order across fillers: "address to gps coordinates" ~ "address to coordinates".
  for (let i = 2; i < sequence.length; i++) {
    const a = sequence[i - 2];
    const b = sequence[i];
    if (a < 0 || b < 0 || a === b) continue;
    const id = index.pairs.get(a, b);
    if (id >= 0) bonus.push({ id, weight: SKIP_BIGRAM_WEIGHT });
  }
  const possessed = slots.findIndex((s) => s.possessed === true);
  return { slots, bonus, head: possessed >= 0 ? possessed : slots.findIndex((s) => s.head) };
}

export type Ranked = { doc: number; score: number; plain: number; coverage: number; evidence: number; head: number };

// The "head" of a need is its first word that is neither a modifier nor a generic verb ("FILE my taxes",
// "RENT a car", "TEMPERATURE in Oslo now"). A capability that explains the rest but not the head usually matched
// a side word, not the need.

/** Top `keep` capabilities by score (ties broken by id, for determinism). */
export function rank(index: IntentIndex, q: Query, keep: number): Ranked[] {
  const n = index.size;
  const score = new Float64Array(n);
  const plain = new Float64Array(n); // score without the ECHO share, for the confidence's depth signal
  const covered = new Float64Array(n);
  const best = new Float64Array(n);
  const sum = new Float64Array(n);
  const credit = new Float64Array(n);
  const hit = new Uint8Array(n);
  const inSlot = new Uint8Array(n);
  const touched: number[] = [];
  const slotTouched: number[] = [];
  const headCredit = new Float64Array(n);
  const head = q.head;
  let total = 0;

  for (let si = 0; si < q.slots.length; si++) {
    const slot = q.slots[si];
    total += slot.importance;
    for (const alt of slot.alts) {
      const t = alt.id;
      const altImp = (index.importance[t] * alt.weight) / slot.importance;
      for (let k = index.start[t]; k < index.start[t + 1]; k++) {
        const d = index.pDoc[k];
        const s = alt.weight * index.pScore[k];
        const c = altImp * index.pCredit[k];
        if (inSlot[d] === 0) {
          inSlot[d] = 1;
          slotTouched.push(d);
        }
        if (s > best[d]) best[d] = s;
        sum[d] += s;
        if (c > credit[d]) credit[d] = c;
      }
    }
    for (const d of slotTouched) {
      if (hit[d] === 0) {
        hit[d] = 1;
        touched.push(d);
      }
      score[d] += best[d] + ECHO * (sum[d] - best[d]);
      plain[d] += best[d];
      covered[d] += Math.min(1, credit[d]) * slot.importance;
      if (si === head) headCredit[d] = Math.min(1, credit[d]);
      best[d] = 0;
      sum[d] = 0;
      credit[d] = 0;
      inSlot[d] = 0;
    }
    slotTouched.length = 0;
  }
  for (const alt of q.bonus) {
    for (let k = index.start[alt.id]; k < index.start[alt.id + 1]; k++) {
      const d = index.pDoc[k];
      if (hit[d] === 0) {
        hit[d] = 1;
        touched.push(d);
      }
      score[d] += alt.weight * index.pScore[k];
      plain[d] += alt.weight * index.pScore[k];
    }
  }

  let mentionsTime = false;
  for (const slot of q.slots) for (const alt of slot.alts) if (index.timeTerms.has(alt.id)) mentionsTime = true;
  if (!mentionsTime) {
    for (const d of touched) {
      if (index.timeAspect[d] === 1) {
        score[d] *= TIME_ASPECT_PENALTY;
        plain[d] *= TIME_ASPECT_PENALTY;
      }
    }
  }

  const top: Ranked[] = [];
  const before = (s: number, d: number, r: Ranked) => s > r.score || (s === r.score && index.ids[d] < index.ids[r.doc]);
  for (const d of touched) {
    const s = score[d];
    if (!(s > 0)) continue;
    if (top.length === keep && !before(s, d, top[keep - 1])) continue;
    const r: Ranked = {
      doc: d,
      score: s,
      plain: plain[d],
      coverage: total > 0 ? covered[d] / total : 0,
      evidence: covered[d],
      head: head < 0 ? 1 : headCredit[d],
    };
    let j = Math.min(top.length, keep - 1);
    top[j] = r;
    while (j > 0 && before(r.score, r.doc, top[j - 1])) {
      top[j] = top[j - 1];
      top[j - 1] = r;
      j--;
    }
  }
  return top;
}
