// What learning run-time intent classes costs an instance, and how long it holds the event loop:
// the registry's capabilities, N of them renamed so the shipped model has no class for them, learnt
// whole (trainExtension, as scripts do: one stall) and in slices between turns of the event loop
// (completeIntentIndex, as a server does), with the event loop's delay measured meanwhile.
//   npx tsx scripts/bench-runtime-classes.ts [--new 40,100]
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildIntentIndex, completeIntentIndex, interimIntentIndex } from "../lib/discovery/intent";
import { loadIntentModel } from "../lib/discovery/intent/model";
import { loadDocs } from "./eval-intents";

const base = loadDocs();
const at = process.argv.indexOf("--new");
const sizes = (at > 0 ? process.argv[at + 1] : "40,100").split(",").map(Number);

async function main(): Promise<void> {
  loadIntentModel();
  console.log("| new capabilities | learnt whole (one stall) | in slices: total | event-loop delay p99 / max |\n|---|---|---|---|");
  for (const n of sizes) {
    const every = Math.floor(base.length / n);
    let renamed = 0;
    const docs = base.map((d, i) => (i % every === 0 && renamed++ < n ? { ...d, id: `${d.id}_new` } : d));
    // Sliced first, so the whole run is not helped by the per-model cache of text readings.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    let t = performance.now();
    const complete = await completeIntentIndex(interimIntentIndex(docs), docs);
    const sliced = performance.now() - t;
    delay.disable();
    t = performance.now();
    buildIntentIndex(docs);
    const whole = performance.now() - t;
    console.log(`| ${complete.runtime.size} | ${(whole / 1000).toFixed(1)} s | ${(sliced / 1000).toFixed(1)} s | ${(delay.percentile(99) / 1e6).toFixed(1)} / ${(delay.max / 1e6).toFixed(1)} ms |`);
  }
}
void main();
