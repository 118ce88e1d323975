// How well capabilities added at run time resolve (issue: "new capabilities resolve as well as old
// ones"): every tenth capability of the registry is held out of training (its corpus needs and its
// registry texts), a model is trained on the rest, and the held-out ones are then added back as a
// run-time registry would add them (their registry texts only: the lexical index answers for them);
// and, for comparison, as a retrain would (a model trained with their registry texts but not their
// corpus needs). Their blind needs' top-1 is compared with the shipped model's on the same needs.
// Target: at least 85% of it.
//   npm run eval:new-capabilities [-- --every 10] [-- --sets blind,fresh,fresh2,people]
import { buildIntentIndex, resolveNeed, type IntentDoc } from "../lib/discovery/intent";
import { loadIntentModel } from "../lib/discovery/intent/model";
import { modelFromTrained, TRAIN_DEFAULTS } from "../lib/discovery/intent/train";
import { loadCases } from "./eval-intents";
import { readRegistry, trainWeights } from "./train-intents";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const every = Number(opt("--every") ?? 10);
const sets = (opt("--sets") ?? "blind,fresh,fresh2").split(",");
const TARGET = 0.85;

const registry = readRegistry();
const titles = new Map(registry.categories.map((c) => [c.id, c.title]));
const docs: IntentDoc[] = registry.capabilities.map((c) => {
  const category = c.id.split(".")[0];
  return { ...c, category, categoryTitle: titles.get(category) };
});
const heldOut = new Set(docs.filter((_, i) => i % every === every - 1).map((d) => d.id));
const cases = sets.flatMap((s) => loadCases(s)).filter((c) => c.expected.some((e) => heldOut.has(e)));

const shipped = loadIntentModel();
if (!shipped) throw new Error("no shipped model (npm run train:intents)");
const t0 = Date.now();
const { trained, classes } = trainWeights(registry, heldOut);
const partial = modelFromTrained(trained, classes, TRAIN_DEFAULTS.prune, shipped.temperature, shipped.lexicalWeight);
const trainSeconds = (Date.now() - t0) / 1000;

const fresh = buildIntentIndex(docs, partial);
const full = buildIntentIndex(docs, shipped);
const r0 = Date.now();
const retrained = trainWeights(registry, new Set(), undefined, heldOut);
const retrainSeconds = (Date.now() - r0) / 1000;
const withTexts = buildIntentIndex(docs, modelFromTrained(retrained.trained, retrained.classes, TRAIN_DEFAULTS.prune, shipped.temperature, shipped.lexicalWeight));

const top1 = (index: typeof full) => cases.filter((c) => c.expected.includes(resolveNeed(index, c.intent).best?.capability_id ?? "")).length / cases.length;
const trainedTop1 = top1(full);
const newTop1 = top1(fresh);
const retrainTop1 = top1(withTexts);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(
  [
    `Held out of training: ${heldOut.size} of ${docs.length} capabilities (every ${every}th): ${[...heldOut].join(", ")}`,
    `Blind needs for them (${sets.join(", ")}): ${cases.length}; model without them trained in ${trainSeconds.toFixed(0)} s, retrain with their registry texts ${retrainSeconds.toFixed(0)} s`,
    "",
    `top-1, shipped model (trained on their corpus needs):   ${pct(trainedTop1)}`,
    `top-1, added at run time (lexical index):               ${pct(newTop1)}  = ${pct(newTop1 / trainedTop1)} of the trained figure (target >= ${pct(TARGET)})`,
    `top-1, retrained on their registry texts only:          ${pct(retrainTop1)}  = ${pct(retrainTop1 / trainedTop1)} of the trained figure`,
  ].join("\n"),
);
process.exitCode = newTop1 / trainedTop1 >= TARGET ? 0 : 1;
