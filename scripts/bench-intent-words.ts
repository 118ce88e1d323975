// Discover by intent with wordings the server has never seen, one request at a time: wordings the
// intent model is sure of against English wordings it is unsure of (read a second time by the
// sentence encoder, docs/intents.md). Against a running server started with CAPDEX_RATE_LIMIT=off:
//   npm run bench:intent-words -- --url http://localhost:3000 [--n 60]
// Prints median and p95 latency of each kind; the server's capdex_intent_encoder_seconds counts the second readings.
export {};

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const url = `${arg("--url", "http://localhost:3000")}/api/discover`;
const n = Number(arg("--n", "60"));
const run = Date.now() % 1_000_000;

// Each wording is made new by a place and a number, so neither the server's answers nor its caches have seen it.
const SURE = ["bitcoin price in %s", "weather forecast for %s tomorrow", "translate this text to %s", "current weather in %s", "geocode the address %s"];
const UNSURE = ["work out the driving time from my flat to the %s", "is the link my %s sent me safe to open", "which words in this %s letter show they are angry or happy", "grab me a photo of a %s", "who really owns the website my %s told me about"];
const PLACES = ["airport", "station", "stadium", "office", "school", "harbour", "museum", "market", "hospital", "library", "bakery", "garage"];

async function measure(templates: string[], count: number, tag: number) {
  const ms: number[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const intent = templates[i % templates.length].replace("%s", `${PLACES[Math.floor(i / templates.length) % PLACES.length]} ${tag + i}`);
    const t0 = performance.now();
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ intent }) });
    await res.text();
    ms.push(performance.now() - t0);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms; statuses ${[...statuses].map(([s, c]) => `${s}: ${c}`).join(", ")}`;
}

await measure(SURE, 20, run); // warm-up
console.log(`wordings the model is sure of (${n}): ${await measure(SURE, n, run + 1000)}`);
console.log(`English wordings it is unsure of (${n}): ${await measure(UNSURE, n, run + 2000)}`);
