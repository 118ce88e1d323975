// Refusal rules: needs that ask for harm to someone else (taking over their account, stalking them,
// phishing them, ...) are refused before any capability is looked for. The rules are data
// (data/refusal-rules.json): a rule is a harmful act AND, where the act alone is ambiguous, its
// target or context, in 22 languages; it does not fire when the need reads as a legitimate
// look-alike (one's own account or domain, a defensive check, training, compliance screening).
// Pure and deterministic. The regexes are built once, at load; their only repetitions are bounded
// and over disjoint character classes (no catastrophic backtracking), and a need only tries the
// terms whose first word it contains, so a call costs some microseconds (intents are <= 500 chars).
import rulesFile from "@/data/refusal-rules.json";
import { cleanText } from "./intent/text";

export const REFUSAL_CATEGORIES = [
  "account_takeover",
  "stalking",
  "illegal_purchase",
  "malware",
  "phishing",
  "spam",
  "fake_documents",
  "nonconsensual_imagery",
  "sanctions_evasion",
] as const;

export type RefusalCategory = (typeof REFUSAL_CATEGORIES)[number];

export const REFUSAL_CATEGORY_TITLES: Readonly<Record<RefusalCategory, string>> = {
  account_takeover: "Taking over someone else's account",
  stalking: "Stalking, tracking or doxxing a person",
  illegal_purchase: "Buying or selling illegal goods",
  malware: "Malware and attacks on others' systems",
  phishing: "Phishing and impersonation",
  spam: "Spam and unsolicited bulk messages",
  fake_documents: "Forged or fake documents",
  nonconsensual_imagery: "Non-consensual intimate imagery",
  sanctions_evasion: "Sanctions evasion and money laundering",
};

export type Refusal = { category: RefusalCategory; rule: string };

type RuleFile = {
  personal: string[];
  rules: { id: string; category: string; all: string[][]; unless?: string[] }[];
  lexicons: Record<string, Record<string, string[]>>;
};

// ---- Text folding (the same for needs and for rule terms, so rules are written naturally) ----

// Letters that Unicode does not decompose into a base letter and a mark; the apostrophes people type.
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: "ss", đ: "d", ł: "l", ø: "o", æ: "ae", œ: "oe", ı: "i", ς: "σ", "’": "'", "‘": "'", "ʼ": "'", "`": "'",
};
const LETTER_FOLD_RE = /[ßđłøæœıς’‘ʼ`]/g;

/** Lower-cased, accent-folded text (intent/text.ts's cleanText, plus the letters above). */
export function foldForRules(text: string): string {
  return cleanText(text).toLowerCase().replace(LETTER_FOLD_RE, (c) => LETTER_FOLDS[c] ?? c);
}

// ---- Term compilation (syntax described in the JSON file's "syntax") ----

// Scripts written without spaces between words (and Korean, whose particles stick to words): substrings.
const UNSPACED = /[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F]/;
const HEBREW = /[\u0590-\u05FF]/;
const ARABIC = /[\u0600-\u06FF]/;
const WORD_CHAR = "[\\p{L}\\p{M}\\p{N}]";
const ASCII_WORD_CHAR = "[a-z0-9]";
const PLAIN_ASCII = /^[\x00-\x7f]*$/;
// Arabic and Hebrew attach conjunctions, prepositions and the article to the word that follows.
const CLITICS = { he: "[ובלמשהכ]{0,2}", ar: "(?:[وف]?[بلك]?(?:ال|ل)?)" };
const HAS_SEMITIC = /[\u0590-\u05FF\u0600-\u06FF]/;
const WORDS = /[\p{L}\p{M}\p{N}]+/gu;
const SKIP = "\u0001";
const SPECIAL = new Set(["\\", "^", "$", ".", "+", "{", "}", "/", "]"]);

function termSource(raw: string): string {
  // In ASCII terms a word character is [a-z0-9] (needs are folded to ASCII in Latin-script languages):
  // such regexes need no "u" flag and compile many times faster than ones with Unicode classes.
  const w = PLAIN_ASCII.test(foldForRules(raw)) ? ASCII_WORD_CHAR : WORD_CHAR;
  const unspaced = UNSPACED.test(raw);
  const semitic = !unspaced && (HEBREW.test(raw) ? "he" : ARABIC.test(raw) ? "ar" : null);
  const t = foldForRules(raw.trim()).replace(unspaced ? /\s*\.\.\s*/g : / \.\. /g, SKIP);
  let body = "";
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === SKIP) body += unspaced ? "[^。.!?！？\\n]{0,12}?" : "[\\s-]+(?:[^\\s-]+[\\s-]+){0,3}";
    else if (c === "*") body += `${w}*`;
    else if (c === " ") body += unspaced ? "\\s*" : "[\\s-]+";
    else if (c === "-") body += "[\\s-]?";
    else if (c === "'") body += "'?";
    else if (c === "(") body += "(?:";
    else if (c === "[") {
      // A character class ("licen[cs]e") is copied as it is.
      const end = t.indexOf("]", i);
      body += t.slice(i, end + 1);
      i = end;
    } else body += SPECIAL.has(c) ? `\\${c}` : c;
  }
  if (unspaced) return body;
  // Arabic and Hebrew words also take suffixes (pronouns, plurals): they match at a word start only.
  const end = semitic || t.endsWith("*") ? "" : `(?!${w})`;
  return `(?<!${w})${semitic ? CLITICS[semitic] : ""}(?:${body})${end}`;
}

// Where a term can be found. Spaced scripts: by its first word (exact, or a prefix when the word may go
// on: "hack*", "e-mail", "cvvs?"), looked up from the need's words, so that of some 8,000 terms only
// those whose first word occurs are tried; the terms of a lexicon that share a first word are one regex.
// Terms that start otherwise are always tried. Arabic and Hebrew terms, and those of unspaced scripts,
// are one regex per lexicon, tried when the need has their letters.
// A term's regex is compiled on its first use: compiling all of them (Unicode classes above all) took
// over a second at load, paid by every process that imports the resolver (each CLI command, each
// test file), while a need tries only the few whose first word it contains. A server compiles
// them all in its background warm-up (warmRefusalRules), so its requests never pay it.
type Term = { lexicon: number; src: string; re?: RegExp };

function regexOf(t: Term): RegExp {
  return (t.re ??= new RegExp(t.src, t.src.includes("\\p{") ? "u" : ""));
}
type Index = { exact: Map<string, Term[]>; prefix: Map<string, Term[]>; always: Term[]; semitic: Term[]; unspaced: Term[] };

const WORD_RUN = /^[\p{L}\p{M}\p{N}]+/u;
const GOES_ON = new Set(["*", "'", "-", "?", "(", "["]);

/** The first words a term can start with, and whether the need's word may be longer; null if unknown. */
function anchors(term: string): { words: string[]; prefix: boolean } | null {
  const t = foldForRules(term.trim());
  let alts = [t];
  let after = "";
  if (t.startsWith("(")) {
    const close = t.indexOf(")");
    if (close < 0 || t[close + 1] === "?" || t.slice(1, close).includes("(")) return null;
    alts = t.slice(1, close).split("|");
    after = t[close + 1] ?? "";
  }
  const words: string[] = [];
  let prefix = false;
  for (const alt of alts) {
    const run = WORD_RUN.exec(alt)?.[0];
    if (!run) return null;
    const follow = alt.length > run.length ? alt[run.length] : after;
    words.push(follow === "?" ? run.slice(0, -1) : run);
    if (GOES_ON.has(follow)) prefix = true;
  }
  return words.every((w) => w.length) ? { words, prefix } : null;
}

function buildIndex(lexicons: Record<string, string[]>[]): Index {
  // bucket key -> lexicon -> regex sources; a bucket is a first word ("=hack", "^hack"), or "always", "semitic", "unspaced".
  const buckets = new Map<string, Map<number, string[]>>();
  const put = (key: string, lexicon: number, src: string) => {
    let byLexicon = buckets.get(key);
    if (!byLexicon) buckets.set(key, (byLexicon = new Map()));
    const srcs = byLexicon.get(lexicon);
    if (srcs) srcs.push(src);
    else byLexicon.set(lexicon, [src]);
  };
  lexicons.forEach((byLanguage, lexicon) => {
    for (const terms of Object.values(byLanguage)) {
      for (const term of terms) {
        const src = termSource(term);
        if (UNSPACED.test(term)) put("unspaced", lexicon, src);
        else if (HAS_SEMITIC.test(term)) put("semitic", lexicon, src);
        else {
          const a = anchors(term);
          if (!a) put("always", lexicon, src);
          else for (const w of a.words) put(`${a.prefix ? "^" : "="}${w}`, lexicon, src);
        }
      }
    }
  });
  const index: Index = { exact: new Map(), prefix: new Map(), always: [], semitic: [], unspaced: [] };
  for (const [key, byLexicon] of buckets) {
    const terms = [...byLexicon].map(([lexicon, srcs]): Term => ({ lexicon, src: srcs.length === 1 ? srcs[0] : `(?:${srcs.join("|")})` }));
    if (key === "always" || key === "semitic" || key === "unspaced") index[key] = terms;
    else (key[0] === "^" ? index.prefix : index.exact).set(key.slice(1), terms);
  }
  return index;
}

// ---- Rules ----

type Rule = { id: string; category: RefusalCategory; all: number[][]; unless: number[] };

const file = rulesFile as RuleFile;
const LEXICON_NAMES = Object.keys(file.lexicons);
const INDEX = buildIndex(LEXICON_NAMES.map((name) => file.lexicons[name]));
const LONGEST_PREFIX = Math.max(...[...INDEX.prefix.keys()].map((k) => k.length));

function lexiconIndex(name: string, rule: string): number {
  const i = LEXICON_NAMES.indexOf(name);
  if (i < 0) throw new Error(`refusal rule ${rule}: unknown lexicon ${name}`);
  return i;
}

const RULES: Rule[] = file.rules.map((r) => {
  if (!(REFUSAL_CATEGORIES as readonly string[]).includes(r.category)) throw new Error(`refusal rule ${r.id}: unknown category ${r.category}`);
  return {
    id: r.id,
    category: r.category as RefusalCategory,
    all: r.all.map((group) => group.map((name) => lexiconIndex(name, r.id))),
    unless: (r.unless ?? []).map((name) => lexiconIndex(name, r.id)),
  };
});

// "my own" (and "was it in a breach") does not excuse a need that names someone else ("my ex's account
// on my phone"); nothing excuses a need that asks to escape detection or checks ("undetectable", "bypass KYC").
const PERSONAL = new Set(file.personal.map((name) => lexiconIndex(name, "(personal)")));
const THIRD = lexiconIndex("third", "(third)");
const EVASION = lexiconIndex("evasion", "(evasion)");

/**
 * Compiles every term's regex now (a server's warm-up), so no request compiles one; a few hundred at
 * a time, so requests are served in between (all at once held the event loop for over a second).
 */
export async function warmRefusalRules(): Promise<number> {
  const all = [...INDEX.always, ...INDEX.semitic, ...INDEX.unspaced, ...[...INDEX.exact.values()].flat(), ...[...INDEX.prefix.values()].flat()];
  for (let i = 0; i < all.length; i++) {
    regexOf(all[i]);
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
  }
  return all.length;
}

/** The number of rules (for the docs and tests). */
export const REFUSAL_RULE_COUNT = RULES.length;

/**
 * The rule a need breaks, or null. Needs written in any of the 22 languages (or mixing them) are
 * read; only the first rule that fires is reported.
 */
export function checkRefusal(text: string): Refusal | null {
  if (typeof text !== "string" || !text.trim()) return null;
  const s = foldForRules(text);
  // The terms worth trying, by lexicon.
  const tries: Term[][] = LEXICON_NAMES.map(() => []);
  const add = (terms: readonly Term[] | undefined) => {
    if (terms) for (const t of terms) tries[t.lexicon].push(t);
  };
  add(INDEX.always);
  if (HAS_SEMITIC.test(s)) add(INDEX.semitic);
  if (UNSPACED.test(s)) add(INDEX.unspaced);
  for (const word of new Set(s.match(WORDS) ?? [])) {
    add(INDEX.exact.get(word));
    for (let k = Math.min(word.length, LONGEST_PREFIX); k > 0; k--) add(INDEX.prefix.get(word.slice(0, k)));
  }
  // Each lexicon is decided at most once per need: 0 = not yet, 1 = found, 2 = absent.
  const seen = new Uint8Array(LEXICON_NAMES.length);
  const has = (i: number): boolean => {
    if (seen[i] === 0) seen[i] = tries[i].some((t) => regexOf(t).test(s)) ? 1 : 2;
    return seen[i] === 1;
  };
  for (const rule of RULES) {
    if (!rule.all.every((group) => group.some(has))) continue;
    if (rule.unless.length && !has(EVASION) && rule.unless.some((i) => has(i) && !(PERSONAL.has(i) && has(THIRD)))) continue;
    return { category: rule.category, rule: rule.id };
  }
  return null;
}
