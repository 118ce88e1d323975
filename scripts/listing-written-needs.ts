// Writes data/intents/train/listing-written.jsonl: training texts for the intent model read the way the
// importer reads a seller's listing, from data/intents/sources/listings-written.jsonl. Those are
// listings written blind by helpers who saw only the public catalogue (each capability's id, title,
// description and tags) and a list of styles (docs/imports.md): 12 per capability (a one-liner, a
// branded pitch, an agent tool's instructions, a terse label, a long description with its fields, a
// persona, another language, payment boilerplate, one endpoint of a suite, a data source first, two
// of the writer's choice) and one near miss per capability that no capability serves (label `none`).
// Nothing is taken from a real catalogue.
//
// Each written listing becomes a catalogue item (URL, description, name, declared input and output
// fields), is parsed by the importer's own parseItem, and gives three texts, the readings the mapper
// makes (lib/imports/map.ts): the whole, the description alone, and the name, path and fields
// together. Deterministic:
//   npx tsx scripts/listing-written-needs.ts        then npm run train:intents
//
// The output is not committed: trained with it (2 December 2026, docs/imports.md "Seller-style
// training listings"), the model read the labelled real listings no better (dev top-1 79 of 128
// against 80) and the blind intent holdout fell (93.3% to 91.0% top-1). The written listings stay in
// data/intents/sources/ for the next attempt (a listing-only model, or a share of them).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseItem } from "@/lib/imports/item";
import { combinedText } from "@/lib/imports/map";
import { meaningfulWords } from "@/lib/imports/noise";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(root, "data/intents/sources/listings-written.jsonl");
const OUT = join(root, "data/intents/train/listing-written.jsonl");
// USDC on Base: the written listings carry no price of their own (they are read for their words).
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

export type WrittenListing = { label: string; style: number; lang: string; description: string; name: string; url: string; input: string[]; output: string[] };

/** The written listing as a version 1 catalogue item, the shape most of the market still publishes. */
export function asCatalogueItem(w: WrittenListing): Record<string, unknown> {
  const field = { type: "string" };
  return {
    resource: w.url,
    type: "http",
    x402Version: 1,
    ...(w.name ? { metadata: { serviceName: w.name } } : {}),
    accepts: [
      {
        scheme: "exact",
        network: "base",
        maxAmountRequired: "10000",
        asset: USDC_BASE,
        payTo: "0x0000000000000000000000000000000000000001",
        resource: w.url,
        description: w.description,
        mimeType: "application/json",
        maxTimeoutSeconds: 60,
        outputSchema: {
          input: { type: "http", method: "GET", queryParams: Object.fromEntries(w.input.map((n) => [n, field])) },
          output: Object.fromEntries(w.output.map((n) => [n, field])),
        },
      },
    ],
  };
}

/** The mapper's readings of a written listing: its whole text, its description, its name, path and fields. */
export function readingsOf(w: WrittenListing): string[] {
  const parsed = parseItem(asCatalogueItem(w), 1, false, { ignorePrice: true });
  if (!parsed.ok) return [];
  const { parts } = parsed.item;
  const rest = [parts.name, parts.path, parts.fields].join(" ").replace(/\s+/g, " ").trim();
  const texts = [combinedText(parsed.item), parts.description, rest].filter((t) => meaningfulWords(t).length >= 2);
  return [...new Set(texts)];
}

function main() {
  const lines = readFileSync(SOURCE, "utf8").split("\n").filter((l) => l.trim());
  const out: string[] = [];
  let skipped = 0;
  for (const line of lines) {
    const w = JSON.parse(line) as WrittenListing;
    const texts = readingsOf(w);
    if (!texts.length) skipped++;
    for (const text of texts) out.push(JSON.stringify({ text, label: w.label, lang: w.lang || "en" }));
  }
  writeFileSync(OUT, out.join("\n") + "\n");
  console.log(`${lines.length} written listings -> ${out.length} texts in ${OUT} (${skipped} unreadable)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
