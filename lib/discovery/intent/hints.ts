// What an intent says beyond its job: a ranking preference in its words ("the cheapest
// transcription") and the places where it joins two jobs ("find the CFO's email and check it is
// deliverable"). Plain word lists per language; deterministic and cheap.
import type { RankingPreset } from "@/lib/schemas/discover";
import { cleanText } from "./text";

// Whole words of any script (JavaScript's \b knows ASCII letters only), or bare phrases for scripts
// written without spaces. Matched on accent-folded, lower-cased text.
const words = (list: string[], bare: string[] = []) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${list.join("|")})(?![\\p{L}\\p{N}])${bare.length ? `|${bare.join("|")}` : ""}`, "u");

// Checked in this order: a need that asks for the fastest and the cheapest is treated as a budget one.
const PRESET_WORDS: ReadonlyArray<readonly [RankingPreset, RegExp]> = [
  [
    "budget",
    words(
      [
        "cheapest", "cheaper", "cheap", "least expensive", "lowest[- ]?(?:price|cost)", "low[- ]?cost", "inexpensive", "affordable", "on a budget",
        "moins chere?s?", "bon marche", "pas chere?", "g(?:u|ue)nstigste[nr]?", "billigste[nr]?", "preiswert\\p{L}*", "mas barat[oa]s?", "mais barat[oa]s?",
        "piu economic[oa]", "meno costos[oa]", "goedkoopste?", "billigaste?", "en ucuz", "najta(?:n|ń)sz\\p{L}*", "termurah", "re nhat",
        "самы\\p{L}* дешев\\p{L}*", "дешевл\\p{L}*", "найдешевш\\p{L}*", "φθηνοτερ\\p{L}*",
      ],
      ["最便宜", "最安", "가장 싼", "저렴한", "ถูกที่สุด", "सबसे सस्त"],
    ),
  ],
  [
    "speed",
    words(
      [
        "fastest", "quickest", "lowest latency", "low latency", "as fast as possible", "le plus rapide", "schnellste[nr]?", "am schnellsten",
        "mas rapid[oa]", "piu veloce", "mais rapid[oa]", "snelste", "snabbaste", "en hizli", "najszybsz\\p{L}*", "tercepat", "nhanh nhat",
        "самы\\p{L}* быстр\\p{L}*", "найшвидш\\p{L}*", "γρηγοροτερ\\p{L}*",
      ],
      ["最快", "最速", "가장 빠른", "เร็วที่สุด", "सबसे तेज"],
    ),
  ],
  [
    "reliability",
    words(
      [
        "most reliable", "reliable", "dependable", "highest uptime", "le plus fiable", "zuverl(?:a|ae)ssigste[nr]?", "mas fiable", "mas confiable",
        "mais confiavel", "piu affidabile", "betrouwbaarste?", "palitligaste?", "en guvenilir", "najbardziej niezawodn\\p{L}*", "paling andal",
        "[dđ]ang tin cay nhat", "самы\\p{L}* надежн\\p{L}*", "найнадійніш\\p{L}*", "αξιοπιστοτερ\\p{L}*",
      ],
      ["最可靠", "最稳定", "信頼性の高い", "가장 안정적인", "เชื่อถือได้", "सबसे भरोसेमंद"],
    ),
  ],
];

/** The ranking preset an intent's own words ask for, if any. */
export function presetFromIntent(text: string): RankingPreset | null {
  const s = cleanText(text).toLowerCase();
  for (const [preset, re] of PRESET_WORDS) if (re.test(s)) return preset;
  return null;
}

// Words that join two jobs in one need. Only joins between spaces (or a semicolon), and the clause
// joiners of scripts without spaces: "weather in Oslo and Bergen" splits too, but its second part
// names no job, so nothing is added (see ../intent.ts).
const JOINS = new RegExp(
  "\\s*;\\s*|,?\\s+(?:" +
    [
      "and then", "and also", "and", "then", "after that", "afterwards", "plus", "as well as", "et ensuite", "et aussi", "puis", "et",
      "und dann", "und auch", "danach", "und", "y luego", "y despues", "y tambien", "luego", "e depois", "e tambem", "depois", "e poi",
      "e anche", "poi", "en dan", "en ook", "en daarna", "och sedan", "och", "sonra", "ve", "a potem", "i potem", "oraz", "dan juga",
      "lalu", "kemudian", "sau do", "и затем", "а затем", "а потом", "потом", "и", "і потім", "та", "και μετα", "και",
    ].join("|") +
    ")\\s+|然后|并且|，再|，并|、それから|その後|してから|그리고|다음에|और फिर",
  "giu",
);
const MAX_PARTS = 4;

/** The parts of a need, in order, when it joins several; `[text]` when it is one. */
export function splitParts(text: string): string[] {
  const s = cleanText(text);
  JOINS.lastIndex = 0;
  if (!JOINS.test(s)) return [text];
  const parts = s
    .split(JOINS)
    .map((p) => p.trim())
    .filter((p) => p.length >= 3);
  return parts.length > 1 ? parts.slice(0, MAX_PARTS) : [text];
}
