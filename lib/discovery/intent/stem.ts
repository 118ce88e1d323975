// Porter (1980) stemmer, so that "forecasts", "forecasting" and "forecast" meet on one index term.
// Kept dependency-free and allocation-light because it runs on every query token.

// Words whose Porter stem would collide with an unrelated word ("news" -> "new") or lose meaning.
const PROTECTED = new Set([
  "news", "gas", "sms", "gps", "ups", "aws", "ios", "dns", "https", "css", "bus", "series", "species",
  "kyc", "aml", "pep", "ofac", "vies", "ipfs", "yes", "less", "pass", "was", "has", "this", "its",
  "cdn", "ocr", "tts", "stt", "asr", "aqi", "qr", "vrf", "rng", "dex", "cve", "hlr", "ivr", "mime",
  "png", "pdf", "docx", "mp4", "mp3", "ohlc", "serp", "poi", "erc20", "isp", "utc", "nsfw",
]);

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1); // y
  return true;
}

/** Number of VC sequences in w[0..end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function doubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** cvc where the last c is not w, x or y (e.g. "hop", "cav"). */
function cvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(w, end - 3) || isConsonant(w, end - 2) || !isConsonant(w, end - 1)) return false;
  const c = w[end - 1];
  return c !== "w" && c !== "x" && c !== "y";
}

function replaceIf(w: string, suffix: string, repl: string, minM: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const stemLen = w.length - suffix.length;
  return measure(w, stemLen) > minM ? w.slice(0, stemLen) + repl : w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["isation", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"],
  ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"],
  ["biliti", "ble"], ["logi", "log"],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["alise", "al"], ["iciti", "ic"], ["ical", "ic"],
  ["ful", ""], ["ness", ""],
];
const STEP4 = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
  "ism", "ate", "iti", "ous", "ive", "ize", "ise",
];

const cache = new Map<string, string>();
const CACHE_LIMIT = 50_000;

/** Memoised: the same few thousand words are stemmed over and over, at index build and per query. */
export function stem(word: string): string {
  const hit = cache.get(word);
  if (hit !== undefined) return hit;
  const s = porter(word);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(word, s);
  return s;
}

function porter(word: string): string {
  if (word.length <= 3 || PROTECTED.has(word) || !/^[a-z]+$/.test(word)) return word;
  let w = word;

  // Step 1a
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is") && w.endsWith("s")) w = w.slice(0, -1);

  // Step 1b
  let extra = false;
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith("ing") && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (doubleConsonant(w, w.length) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w, w.length) === 1 && cvc(w, w.length)) w += "e";
  }

  // Step 1c
  if (w.endsWith("y") && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + "i";

  // Step 2, 3
  for (const [suf, rep] of STEP2) {
    if (w.endsWith(suf)) {
      w = replaceIf(w, suf, rep, 0) ?? w;
      break;
    }
  }
  for (const [suf, rep] of STEP3) {
    if (w.endsWith(suf)) {
      w = replaceIf(w, suf, rep, 0) ?? w;
      break;
    }
  }

  // Step 4
  for (const suf of STEP4) {
    if (!w.endsWith(suf)) continue;
    const stemLen = w.length - suf.length;
    if (measure(w, stemLen) > 1) {
      if (suf === "ion") {
        const c = w[stemLen - 1];
        if (c === "s" || c === "t") w = w.slice(0, stemLen);
      } else {
        w = w.slice(0, stemLen);
      }
    }
    break;
  }

  // Step 5
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith("ll") && measure(w, w.length) > 1) w = w.slice(0, -1);

  return w;
}
