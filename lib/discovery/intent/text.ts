// Turns raw intent text into clean lowercase words plus "value tokens" (@url, @ip, ...).
// Concrete values (addresses, tickers, flight numbers) say a lot about the need, but their literal text never matches the registry.

// `needs`: a cheap test the text must pass before the (costlier) pattern is tried.
type ValuePattern = { re: RegExp; token: string | ((m: string) => string); needs: RegExp };
const AT = /@/;
const DOT = /\.[a-z]/i;

// "name 1.2" is a package version, unless the name is one of these ("lat 59.91").
const NOT_A_PACKAGE = new Set(["lat", "lon", "lng", "long", "latitude", "longitude", "at", "is", "of", "to", "in", "by", "for", "and", "or", "pm", "about", "under", "over", "than", "from"]);

// Order matters: earlier patterns consume their text so later ones cannot re-match it.
const VALUE_PATTERNS: ValuePattern[] = [
  { re: /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi, token: "@url", needs: /:\/\/|www\./i },
  { re: /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi, token: "@email", needs: AT },
  { re: /\b0x[0-9a-f]{40}\b/gi, token: "@evmaddr", needs: /0x/i },
  { re: /\b0x[0-9a-f]{6,}\b/gi, token: "@hex", needs: /0x/i },
  { re: /\b(?:bc1[a-z0-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})\b/g, token: "@btcaddr", needs: /[a-z0-9]{25}/i },
  { re: /\bcve-\d{4}-\d{3,}\b/gi, token: "@cve", needs: /cve-/i },
  { re: /\blat(?:itude)?\s*:?\s*-?\d{1,3}(?:\.\d+)?\s*,?\s*(?:lon|lng|long|longitude)\s*:?\s*-?\d{1,3}(?:\.\d+)?/gi, token: "@coords", needs: /lat/i },
  { re: /-?\b\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+\b/g, token: "@coords", needs: /\d\.\d+\s*,/ },
  { re: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, token: "@ip", needs: /\d\.\d{1,3}\.\d/ },
  { re: /\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi, token: "@ip", needs: /[0-9a-f]:[0-9a-f]{1,4}:/i },
  { re: /\b1Z[0-9A-Z]{16}\b/g, token: "@tracking", needs: /1Z/ },
  { re: /\b[a-z_][\w.]*\([^()\n]{0,200}\)|\*\*|==|\{[^{}\n]{0,200}\}/gi, token: "@code", needs: /[(*={]/ },
  {
    re: /\b\d{1,5}[a-z]?\s+(?:[a-z]+\s+){0,3}(?:st|street|ave|avenue|rd|road|blvd|boulevard|lane|ln|drive|dr|way|square|sq|place|pl|court|ct|strasse|gate|vei)\b\.?/gi,
    token: "@street",
    needs: /\d[a-z]?\s+[a-z]/i,
  },
  { re: /\b(?:US|EP|WO)\s?\d{6,9}\b/g, token: "@patentno", needs: /(?:US|EP|WO)\s?\d/ },
  { re: /\b[A-Z]{2}\d{8,12}\b/g, token: "@taxid", needs: /[A-Z]{2}\d{8}/ },
  { re: /(?:^|\s)\+\d[\d\s().-]{6,}\d/g, token: "@phone", needs: /\+/ },
  { re: /\b[A-Z][A-Z0-9](?:\d{2,4}|\s(?!(?:19|20)\d\d\b)\d{2,4})\b(?![.,]\d)/g, token: "@flightno", needs: /[A-Z][A-Z0-9]\s?\d\d/ },
  { re: /\b[a-z]{2}\d{3,4}\b/g, token: "@flightno", needs: /[a-z]{2}\d{3}/ },
  { re: /(?:^|\s)#[a-z][\w-]*/gi, token: "@hashtag", needs: /#/ },
  { re: /(?:^|\s)@[a-z0-9_]{2,}/gi, token: "@handle", needs: AT },
  { re: /\$[A-Z]{1,5}\b/g, token: "@ticker", needs: /\$/ },
  { re: /\b[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|ai|dev|co|biz|info|app|xyz|ru|de|uk|fr|no|eu|us)\b/gi, token: "@domain", needs: DOT },
  { re: /\b\d{10,30}\b/g, token: "@longnum", needs: /\d{10}/ },
  { re: /\bv?\d+\.\d+\.\d+\b/gi, token: "@version", needs: /\d\.\d+\./ },
  {
    re: /\b([a-z][\w-]*)\s+v?\d+\.\d+\b/gi,
    token: (m) => {
      const name = m.replace(/\s+v?\d.*$/, "");
      return NOT_A_PACKAGE.has(name.toLowerCase()) ? `${name} ` : `${name} @version`;
    },
    needs: /\s+v?\d+\.\d/,
  },
];

// Spellings folded before tokenising so that punctuation-bearing terms survive ("pm2.5", "tl;dr", "e-mail").
// Each fold has a cheap test its text must pass first (its regex cannot match otherwise).
const FOLDS: ReadonlyArray<readonly [RegExp, string, RegExp]> = [
  [/[\u2018\u2019\u02bc]/g, "'", /[\u2018\u2019\u02bc]/],
  [/\be[\s-]?mails?\b/gi, "email", /e[\s-]?mail/i],
  [/\be[\s-]?sign(ature|ing|ed)?s?\b/gi, "esignature", /e[\s-]?sign/i],
  [/\bpm\s?2[.,]5\b/gi, "pm25", /pm\s?2/i],
  [/\bpm\s?10\b/gi, "pm10", /pm\s?1/i],
  [/\btl;?\s?dr\b/gi, "tldr", /tl;?\s?dr/i],
  [/\bp\/e\b/gi, "pe ratio", /p\/e/i],
  [/\bs&p(\s?500)?\b/gi, "snp500", /s&p/i],
  [/\bbit\.ly\b/gi, "bitly", /bit\.ly/i],
  [/\bwi-?fi\b/gi, "wifi", /wi-?fi/i],
  [/\bco-?ordinates\b/gi, "coordinates", /co-?ordinates/i],
  [/\blat\/(lng|lon|long)\b/gi, "lat lng", /lat\//i],
  [/\b(\d+)\s?-?\s?k\b(?=\s|$)/gi, "$1k", /\d\s?-?\s?k/i],
  [/->|=>|→|⇒/gi, " to ", /[>→⇒]/],
  [/&/gi, " and ", /&/],
  [/\bu\.s\.?\b/gi, "us", /u\.s/i],
  [/\b(\w+)'s\b/gi, "$1", /'s/i],
  [/n't\b/gi, " not", /n't/i],
];

const QUOTED = /(^|[\s:(])["'“‘«]([^"'”’»]{1,200})["'”’»](?=$|[\s.,;:!?)])/g;

// Lone surrogates, controls and NULs become spaces so later regexes and normalize() never see ill-formed text.
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u001F\u007F-\u009F]/g;
// Only the combining marks that Latin, Greek and Cyrillic letters decompose into are folded ("é" -> "e",
// "ά" -> "α", "й" -> "и"); the vowel signs of Devanagari and Thai, Japanese voicing marks and Hangul
// jamo are part of their letters and come back together (NFC) after the fold.
const FOLDED_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+/g;

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
// Cheap pre-checks: most registry fields and many intents need none of the rewriting passes below.
const QUOTE_TRIGGER = /["'“‘«]/;
const VALUE_TRIGGER = /[0-9@#$(*={+]|\.[a-z]|:\/\//i;

export function cleanText(raw: string): string {
  if (PLAIN_ASCII.test(raw)) return raw;
  let s = raw.replace(ILL_FORMED, " ");
  try {
    s = s.normalize("NFKD").replace(FOLDED_MARKS, "").normalize("NFC");
  } catch {
    // normalize() can only throw on ill-formed input, which was removed above; keep the text as is regardless.
  }
  return s;
}

export type Extracted = { text: string; values: string[] };

/**
 * Pulls value tokens out of (case-preserved) text and returns the rest lowercased.
 * Quoted spans are payload ("translate 'good morning'"), not a description of the need, so they are dropped
 * (unless `keepQuoted`: the model weighs their words itself, and "instruction='make the car red'" is the need).
 */
export function extractValues(raw: string, { keepQuoted = false } = {}): Extracted {
  const values: string[] = [];
  let s = cleanText(raw);
  for (const [re, rep, needs] of FOLDS) if (needs.test(s)) s = s.replace(re, rep);
  if (!QUOTE_TRIGGER.test(s)) return VALUE_TRIGGER.test(s) ? extractPatterns(s, values) : { text: s.toLowerCase(), values };
  s = s.replace(QUOTED, (_m, pre: string, inner: string) => {
    values.push("@quoted");
    return keepQuoted ? `${pre} ${inner} ` : `${pre} `;
  });
  return VALUE_TRIGGER.test(s) ? extractPatterns(s, values) : { text: s.toLowerCase(), values };
}

function extractPatterns(text: string, values: string[]): Extracted {
  let s = text;
  for (const p of VALUE_PATTERNS) {
    if (!p.needs.test(s)) continue;
    s = s.replace(p.re, (m) => {
      const lead = /^\s/.test(m) ? " " : "";
      const t = typeof p.token === "string" ? p.token : p.token(m);
      if (t.endsWith(" ")) return `${lead}${t}`;
      if (t.includes(" ")) {
        // The pattern keeps part of its text (a package name before a version number).
        values.push(t.slice(t.lastIndexOf(" ") + 1));
        return `${lead}${t.slice(0, t.lastIndexOf(" "))} `;
      }
      values.push(t);
      return `${lead} `;
    });
  }
  return { text: s.toLowerCase(), values };
}

/** Splits lowercased text into alphanumeric words; keeps the word order. */
export function words(text: string): string[] {
  const out: string[] = [];
  const re = /[a-z0-9]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[0]);
  return out;
}



/**
 * Lowercased words written with a capital inside the sentence ("headlines about OpenAI", "email of John Smith"):
 * usually names, i.e. payload rather than the need itself.
 */
export function capitalizedWords(raw: string): Set<string> {
  const out = new Set<string>();
  const re = /[A-Za-z][A-Za-z0-9]*/g;
  let m: RegExpExecArray | null;
  let first = true;
  while ((m = re.exec(raw)) !== null) {
    const w = m[0];
    const before = raw.slice(Math.max(0, m.index - 2), m.index);
    if (!first && !/[.!?]\s*$/.test(before) && /^[A-Z][a-z]/.test(w)) out.add(w.toLowerCase());
    first = false;
  }
  return out;
}

export const STOPWORDS = new Set(
  (
    "a an the this that these those there here it its it's i me my mine we us our ours you your yours he she they them their " +
    "is am are was were be been being do does did doing done have has had having will would shall should can could may might must " +
    "to of in on at by for with from into onto over under about as than then so and or but not no nor if else " +
    "what which who whom whose where when why how whether also just only very really quite some any all each every " +
    "please pls plz kindly want wanted wanna need needs needed like would want i'd let lets help helps " +
    "give gimme show tell provide return returns returning get gets got getting grab " +
    "api apis service services endpoint endpoints tool tools app using use used via something thing things stuff " +
    "one ones another other others more most much many lot lots such same own new again still even ever way able " +
    "im ive youre thats whats hows wheres whos dont doesnt cant wont isnt arent did didnt"
  ).split(/\s+/),
);
