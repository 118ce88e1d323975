// The features the intent model reads from a text: kinds of value, word stems, pairs of content words
// and character n-grams. Accents are folded and stems are cut short, so the model reads French,
// German, Spanish, Portuguese and Italian the way it reads English, and typos still share most n-grams.
import { extractValues } from "./text";

// Function words of the six languages: kept as words (they carry some meaning: "how far", "wie viel"),
// but they make no n-grams and no pairs, which would otherwise be noise shared by every capability.
const FUNCTION_WORDS = new Set(
  (
    "a an the this that these those it its i me my we our you your he she they them their is am are was were be been " +
    "do does did have has had will would can could should may might to of in on at by for with from into about as " +
    "than then so and or but not no if what which who where when why how whether some any all please pls " +
    "le la les un une des du de d l au aux ce cet cette ces mon ma mes ton ta tes son sa ses notre nos votre vos leur " +
    "leurs je tu il elle nous vous ils elles on me te se est sont etre et ou mais pas ne en dans sur pour par avec " +
    "que qui quoi quel quelle quels quelles est-ce y a " +
    "der die das den dem des ein eine einen einem einer eines ich du er sie es wir ihr mein meine dein deine sein " +
    "seine unser ist sind war bin und oder aber nicht kein keine zu von mit fur fuer auf aus bei nach im am vom zum " +
    "zur wie was wer wo wann warum ob bitte " +
    "el la los las un una unos unas lo mi mis tu tus su sus nuestro yo es son esta estan ser y o pero no en con por " +
    "para del al que quien cual como donde cuando porque si " +
    "o os as um uma uns umas meu minha seu sua e sao esta estao em no na nos nas com por para do da dos das ao que " +
    "quem qual como onde quando se " +
    "il lo gli i una uno mio mia tuo tua suo sua e sono di da in con su per tra fra del della dei delle al alla che " +
    "chi quale come dove quando se"
  ).split(/\s+/),
);

// Chat shorthand, spelled out before features are taken, so "wx in nyc tmrw pls" reads as the words
// it stands for. Only unambiguous, widespread forms.
const SHORTHAND: ReadonlyMap<string, string[]> = new Map(
  Object.entries({
    wx: "weather", tmrw: "tomorrow", tmr: "tomorrow", tmrrw: "tomorrow", "2moro": "tomorrow", "2day": "today", tdy: "today",
    rn: "right now", atm: "at the moment", asap: "as soon as possible", pls: "please", plz: "please", thx: "thanks",
    px: "price", qty: "quantity", addr: "address", msg: "message", msgs: "messages", txt: "text", pic: "picture",
    pics: "pictures", img: "image", imgs: "images", vid: "video", vids: "videos", doc: "document", docs: "documents",
    pdfs: "pdf", info: "information", num: "number", nr: "number", acct: "account", convo: "conversation",
    temp: "temperature", temps: "temperatures", fcst: "forecast", w: "with", u: "you", ur: "your", r: "are",
    b4: "before", bc: "because", cuz: "because", abt: "about", nyc: "new york", sf: "san francisco", la: "los angeles",
  }).map(([k, v]) => [k, v.split(" ")]),
);

// Marks belong to their word: Devanagari and Thai vowel signs must not split one.
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

// Scripts written without spaces (Chinese, Japanese, Thai) and Hangul, whose syllables are dense:
// a word of theirs is read as character n-grams instead of a cut stem. A mixed run ("api的价格")
// is split by script first.
const DENSE = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const SCRIPT_RUNS = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[\u0e00-\u0e7f]+|[\uac00-\ud7af]+|[^\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const HANGUL = /^[\uac00-\ud7af]/;

/** Features of one run of a dense script: its Han characters, and its 2- and 3-grams (padded). */
function denseFeatures(run: string, out: Set<string>): void {
  const chars = [...run];
  if (chars.length <= 4 || HANGUL.test(run)) out.add(`w:${run}`);
  for (const ch of chars) if (HAN.test(ch)) out.add(`c:${ch}`);
  const padded = ["<", ...chars, ">"];
  for (let n = 2; n <= 3; n++) {
    for (let i = 0; i + n <= padded.length; i++) out.add(`g:${padded.slice(i, i + n).join("")}`);
  }
}
const STEM_LENGTH = 6;
const MIN_GRAM_WORD = 4;

/** A word cut to its first letters: "forecasts", "forecasting" -> "foreca"; "prévisions" -> "previs". */
export function stemWord(w: string): string {
  return w.length > STEM_LENGTH ? w.slice(0, STEM_LENGTH) : w;
}

/** Greek's final sigma is the same letter as its medial one. */
function foldWord(w: string): string {
  return w.includes("ς") ? w.replace(/ς/g, "σ") : w;
}

function isFunctionWord(w: string): boolean {
  return FUNCTION_WORDS.has(w) || /^\d+$/.test(w);
}

// A URL is taken out as a value, but its host ("youtube", "github") and its file type (".jpg",
// ".mp3") say what the need is about: they are kept as words.
const URL_PARTS = /\bhttps?:\/\/(?:www\.)?([a-z0-9.-]+)[^\s?#"'<>]*?(?:\.([a-z0-9]{2,4}))?(?=[\s?#"'<>]|$)/gi;
const HOST_NOISE = new Set(["com", "org", "net", "io", "co", "uk", "de", "fr", "es", "it", "pt", "br", "app", "dev", "api", "cdn", "www"]);

function urlWords(raw: string): string[] {
  if (!raw.includes("://")) return [];
  const out: string[] = [];
  for (const m of raw.matchAll(URL_PARTS)) {
    for (const label of m[1].toLowerCase().split(".")) if (label && !HOST_NOISE.has(label) && !/^\d+$/.test(label)) out.push(label);
    if (m[2]) out.push(m[2].toLowerCase());
  }
  return out;
}

/** The words of a text (accents folded, values taken out) and its value kinds ("@ip", "@url"). */
export function intentWords(raw: string): { words: string[]; values: string[] } {
  const { text, values } = extractValues(raw, { keepQuoted: true });
  let words = [...(text.match(WORD) ?? []), ...urlWords(raw)];
  if (words.some((w) => DENSE.test(w))) words = words.flatMap((w) => (DENSE.test(w) ? (w.match(SCRIPT_RUNS) ?? []) : [w]));
  return { words: words.some((w) => SHORTHAND.has(w)) ? words.flatMap((w) => SHORTHAND.get(w) ?? [w]) : words, values };
}

/**
 * The model's features of a text, each with weight 1 (a set). Feature names are prefixed by kind:
 * `w:` word stem, `p:` pair of neighbouring content stems, `g:` character n-gram of a content word,
 * `v:` value kind. The same text always gives the same features, in the same order.
 */
export function intentFeatures(raw: string): string[] {
  const { words, values } = intentWords(raw);
  const out = new Set<string>();
  for (const v of values) out.add(`v:${v}`);
  let previous: string | null = null;
  for (const word of words) {
    const w = foldWord(word);
    if (DENSE.test(w)) {
      denseFeatures(w, out);
      previous = null;
      continue;
    }
    if (/^\d+$/.test(w)) {
      out.add("w:#");
      continue;
    }
    const s = stemWord(w);
    out.add(`w:${s}`);
    if (isFunctionWord(w)) continue;
    if (previous) out.add(`p:${previous}_${s}`);
    previous = s;
    if (w.length < MIN_GRAM_WORD) continue;
    const padded = `<${w}>`;
    for (let n = 3; n <= 5; n++) {
      for (let i = 0; i + n <= padded.length; i++) out.add(`g:${padded.slice(i, i + n)}`);
    }
  }
  return [...out];
}

/**
 * How much a text says: its content words (function words and numbers count 0; a run of a script
 * without spaces counts one per three characters) plus two per value ("@ip", "@url"). "run it" and
 * "how much?" say 1; "bitcoin price in euros" says 3.
 */
export function contentSize(raw: string): number {
  const { words, values } = intentWords(raw);
  let n = 2 * values.length;
  for (const word of words) {
    const w = foldWord(word);
    if (DENSE.test(w)) n += Math.ceil([...w].length / 3);
    else if (!isFunctionWord(w)) n += 1;
  }
  return n;
}
