// Writes data/intents/train/listing-style.jsonl: training texts for the intent model in the style of a
// seller's catalogue listing (a product-style description, URL path words, declared field names, the
// market's stock phrases: "x402", "pay per call", "for AI agents"), built from each capability's OWN
// registry text (title, description, tags, English aliases, examples) and a few hand-written ones
// below. Nothing is taken from real catalogues. The point: the importer reads listings with the model
// trained on people's needs (lib/imports/map.ts); listing words that say nothing of the job
// ("api v1", "x402", "agent", "USDC") must weigh on no capability, and a capability must be known by
// its own words when they come wrapped that way. Deterministic:
//   npx tsx scripts/listing-style-needs.ts        then npm run train:intents
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegistry } from "./train-intents";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(root, "data/intents/train/listing-style.jsonl");

// The market's stock words, spread over every capability so that none of them leans on one.
const OPENERS = ["", "Real-time ", "Pay-per-call ", "Fast ", "AI-ready ", "Production-grade ", "Simple ", "Agent-native "];
const CLOSERS = [
  "",
  " Pay per request with x402.",
  " Returns JSON.",
  " Built for AI agents and developers.",
  " USDC on Base, no API key needed.",
  " Use this tool when the user asks for it.",
  " Structured output, low latency.",
  " Micropayments via x402, no subscription.",
];
const PATHS = ["api v1 {s}", "x402 {s}", "v1 x402 {s}", "{s}", "api x402 tools {s}", "api {s}", "x402 agents {s}", "v2 {s}"];

const ascii = (s: string) => /^[\x20-\x7e]+$/.test(s);
const lowerFirst = (s: string) => (s ? s[0].toLowerCase() + s.slice(1) : s);
const camel = (words: string[]) => words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join("");
const fieldWords = (tags: string[], i: number) =>
  // Declared fields as the importer reads them (split into words): a few of the tags, and a generic one.
  [...tags.slice(0, 3).map((t) => t.toLowerCase().replace(/[^a-z0-9 ]+/g, " ").trim()), ["query", "limit", "id", "format", "lang", "page"][i % 6]]
    .filter(Boolean)
    .join(" ");

export function listingTexts(cap: { id: string; title: string; description: string; tags: string[]; aliases?: string[]; examples?: string[] }, n: number): string[] {
  const slug = cap.id.split(".")[1].replace(/_/g, " ");
  const pick = <T>(xs: T[], k: number) => xs[(n * 7 + k) % xs.length];
  const aliases = (cap.aliases ?? []).filter(ascii);
  const alias = aliases.length ? pick(aliases, 1) : cap.title;
  const alias2 = aliases.length > 1 ? pick(aliases, 4) : slug;
  const example = (cap.examples ?? []).length ? pick(cap.examples!, 2) : cap.description;
  const path = (k: number) => pick(PATHS, k).replace("{s}", k % 2 ? slug : camel(slug.split(" ")));
  const desc = cap.description.replace(/\.$/, "");
  return [
    `${pick(OPENERS, 0)}${cap.title} API: ${lowerFirst(desc)}.${pick(CLOSERS, 0)} ${path(0)}`,
    `${desc}.${pick(CLOSERS, 3)} ${path(1)}`,
    `${alias[0].toUpperCase()}${alias.slice(1)} for AI agents: ${lowerFirst(desc)} ${fieldWords(cap.tags, n)}`,
    `${cap.title}: ${cap.tags.slice(0, 4).join(", ")}.${pick(CLOSERS, 5)} ${path(2)}`,
    `${pick(OPENERS, 3)}${alias2} endpoint. ${example}${pick(CLOSERS, 6)}`,
    `${path(3)} ${fieldWords(cap.tags, n + 1)}`.replace(/\s+/g, " "),
  ].map((t) => t.replace(/\s+/g, " ").trim());
}

// Hand-written listing-style texts for capabilities whose sellers word them far from people's needs
// (personas sold as "specialists", market data sold as "intelligence"), and for listings no capability
// serves. Written for this file, not copied from any catalogue.
const HAND: Array<[string, string]> = [
  ["agents.expert_advice", "Startup CFO persona: runway planning, burn rate review and fundraising strategy advice cfo advisor"],
  ["agents.expert_advice", "Growth marketing strategist: channel mix, funnel audits and campaign planning guidance for founders"],
  ["agents.expert_advice", "HR consultant agent: hiring plans, contractor versus employee questions and onboarding best practices"],
  ["agents.expert_advice", "Legal-minded compliance coach: policies, risk checklists and practical guidance for small teams consultant"],
  ["agents.expert_advice", "Sales coach AI: pipeline reviews, objection handling and negotiation tips sales specialist"],
  ["agents.expert_advice", "Supply chain advisor: inventory planning, vendor selection and logistics strategy recommendations"],
  ["agents.expert_advice", "Tokenomics architect persona: token supply design, emission schedules and incentive advice"],
  ["agents.expert_advice", "Cloud architect consultant: infrastructure design reviews, cost optimisation and scaling advice"],
  ["agents.expert_advice", "Brand strategist: positioning, messaging frameworks and naming guidance for products brand specialist"],
  ["agents.expert_advice", "Operations manager persona: process design, KPIs, team workflows and operational best practices"],
  ["agents.expert_advice", "Customer success specialist: retention playbooks, churn analysis advice and account health strategy"],
  ["agents.expert_advice", "Data analyst consultant: metric definitions, dashboard design and insights from your business numbers"],
  ["none", "Test endpoint for x402 payments hello world"],
  ["none", "Support the developer with a small tip donate"],
  ["none", "Join the members-only community chat access pass"],
  ["none", "Pay to publish your post on our decentralised blog platform upload"],
  ["none", "Unlock the premium tier of our dashboard subscription"],
  ["none", "Demo route that echoes a payment receipt demo"],
];

function main() {
  const registry = readRegistry();
  const lines: string[] = [];
  registry.capabilities.forEach((cap, n) => {
    for (const text of listingTexts(cap, n)) lines.push(JSON.stringify({ text, label: cap.id, lang: "en" }));
  });
  for (const [label, text] of HAND) lines.push(JSON.stringify({ text, label, lang: "en" }));
  writeFileSync(OUT, lines.join("\n") + "\n");
  console.log(`wrote ${OUT}: ${lines.length} texts`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
