// Turns raw intent text into clean lowercase words plus "value tokens" (@url, @ip, ...).
// Concrete values (addresses, tickers, flight numbers) say a lot about the need, but their literal text never matches the registry.

/** Prefix for tokens that stand for a recognised kind of value rather than a word. */
export const VALUE_PREFIX = "@";

type ValuePattern = { re: RegExp; token: string | ((m: string) => string) };

// Order matters: earlier patterns consume their text so later ones cannot re-match it.
const NOT_A_PACKAGE = new Set(["lat", "lon", "lng", "long", "latitude", "longitude", "at", "is", "of", "to", "in", "by", "for", "and", "or", "pm", "about", "under", "over", "than", "from"]);

const VALUE_PATTERNS: ValuePattern[] = [
  { re: /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi, token: "@url" },
  { re: /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi, token: "@email" },
  { re: /\b0x[0-9a-f]{40}\b/gi, token: "@evmaddr" },
  { re: /\b0x[0-9a-f]{6,}\b/gi, token: "@hex" },
  { re: /\b(?:bc1[a-z0-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})\b/g, token: "@btcaddr" },
  { re: /\bcve-\d{4}-\d{3,}\b/gi, token: "@cve" },
  { re: /\blat(?:itude)?\s*:?\s*-?\d{1,3}(?:\.\d+)?\s*,?\s*(?:lon|lng|long|longitude)\s*:?\s*-?\d{1,3}(?:\.\d+)?/gi, token: "@coords" },
  { re: /-?\b\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+\b/g, token: "@coords" },
  { re: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, token: "@ip" },
  { re: /\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi, token: "@ip" },
  { re: /\b1Z[0-9A-Z]{16}\b/g, token: "@tracking" },
  { re: /\b(?:US|EP|WO)\s?\d{6,9}\b/g, token: "@patentno" },
  { re: /\b[A-Z]{2}\d{8,12}\b/g, token: "@taxid" },
  { re: /(?:^|\s)\+\d[\d\s().-]{6,}\d/g, token: "@phone" },
  { re: /\b[A-Z][A-Z0-9](?:\d{2,4}|\s(?!(?:19|20)\d\d\b)\d{2,4})\b(?![.,]\d)/g, token: "@flightno" },
  { re: /\b[a-z]{2}\d{3,4}\b/g, token: "@flightno" },
  { re: /(?:^|\s)#[a-z][\w-]*/gi, token: "@hashtag" },
  { re: /(?:^|\s)@[a-z0-9_]{2,}/gi, token: "@handle" },
  { re: /\$[A-Z]{1,5}\b/g, token: "@ticker" },
  { re: /\b[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|ai|dev|co|biz|info|app|xyz|ru|de|uk|fr|no|eu|us)\b/gi, token: "@domain" },
  { re: /\b\d{10,30}\b/g, token: "@longnum" },
  { re: /\bv?\d+\.\d+\.\d+\b/gi, token: "@version" },
  {
    re: /\b([a-z][\w-]*)\s+v?\d+\.\d+\b/gi,
    token: (m) => {
      const name = m.replace(/\s+v?\d.*$/, "");
      return NOT_A_PACKAGE.has(name.toLowerCase()) ? `${name} ` : `${name} @version`;
    },
  },
];

// Spellings folded before tokenising so that punctuation-bearing terms survive ("pm2.5", "tl;dr", "e-mail").
const FOLDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u02bc]/g, "'"],
  [/\be[\s-]?mails?\b/gi, "email"],
  [/\be[\s-]?sign(ature|ing|ed)?s?\b/gi, "esignature"],
  [/\bpm\s?2[.,]5\b/gi, "pm25"],
  [/\bpm\s?10\b/gi, "pm10"],
  [/\btl;?\s?dr\b/gi, "tldr"],
  [/\bp\/e\b/gi, "pe ratio"],
  [/\bs&p(\s?500)?\b/gi, "snp500"],
  [/\bbit\.ly\b/gi, "bitly"],
  [/\bwi-?fi\b/gi, "wifi"],
  [/\bco-?ordinates\b/gi, "coordinates"],
  [/\blat\/(lng|lon|long)\b/gi, "lat lng"],
  [/\b(\d+)\s?-?\s?k\b(?=\s|$)/gi, "$1k"],
  [/->|=>|→|⇒/gi, " to "],
  [/&/gi, " and "],
  [/\bu\.s\.?\b/gi, "us"],
  [/\b(\w+)'s\b/gi, "$1"],
  [/n't\b/gi, " not"],
];

const QUOTED = /(^|[\s:(])["'“‘«]([^"'”’»]{1,200})["'”’»](?=$|[\s.,;:!?)])/g;

// Lone surrogates, controls and NULs become spaces so later regexes and normalize() never see ill-formed text.
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u001F\u007F-\u009F]/g;
const MARKS = /\p{M}+/gu;

export function cleanText(raw: string): string {
  let s = raw.replace(ILL_FORMED, " ");
  try {
    s = s.normalize("NFKD").replace(MARKS, "");
  } catch {
    // normalize() can only throw on ill-formed input, which was removed above; keep the text as is regardless.
  }
  return s;
}

export type Extracted = { text: string; values: string[] };

/**
 * Pulls value tokens out of (case-preserved) text and returns the rest lowercased.
 * Quoted spans are payload ("translate 'good morning'"), not a description of the need, so they are dropped.
 */
export function extractValues(raw: string): Extracted {
  const values: string[] = [];
  let s = cleanText(raw);
  for (const [re, rep] of FOLDS) s = s.replace(re, rep);
  s = s.replace(QUOTED, (_m, pre: string) => {
    values.push("@quoted");
    return `${pre} `;
  });
  for (const p of VALUE_PATTERNS) {
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

/** Words as written in registry fields: no value extraction, same folding. */
export function fieldWords(text: string): string[] {
  let s = cleanText(text).toLowerCase();
  for (const [re, rep] of FOLDS) s = s.replace(re, rep);
  return words(s);
}

export const STOPWORDS = new Set(
  (
    "a an the this that these those there here it its it's i me my mine we us our ours you your yours he she they them their " +
    "is am are was were be been being do does did doing done have has had having will would shall should can could may might must " +
    "to of in on at by for with from into onto over under about as than then so and or but not no nor if else " +
    "what which who whom whose where when why how whether also just only very really quite some any all each every " +
    "please pls plz kindly want wanted wanna need needs needed like would want i'd let lets help helps " +
    "give gimme show tell provide return returns returning get gets got getting grab fetch " +
    "api apis service services endpoint endpoints tool tools app using use used via something thing things stuff " +
    "one ones another other others more most much many lot lots such same own new again still even ever way able " +
    "im ive id youre thats whats hows wheres whos dont doesnt cant wont isnt arent did didnt"
  ).split(/\s+/),
);

// Words that look like fillers but carry the need ("fetch a page", "get signed") are handled by the synonym table,
// which runs before stop words are dropped.
