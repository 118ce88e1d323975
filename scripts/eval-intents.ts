// Measures the intent resolver against the blind evaluation sets (tests/eval/*.jsonl): per style and
// overall top-1, top-3, unservable needs rejected, servable needs wrongly rejected, the worst confusions,
// the calibration table and the speed. docs/intents.md explains the sets and shows the figures.
//   npm run eval:intents                       dev and holdout of tests/eval/intents-blind.jsonl
//   npm run eval:intents -- --set fresh        the fresh holdouts (tests/eval/intents-fresh.jsonl, --set fresh2)
//   npm run eval:intents -- --set old          the first, non-blind set (tests/eval/intents.json)
//   npm run eval:intents -- --set people       languages, assistant phrasing, harmful, look-alike and vague needs (tests/eval/intents-people.jsonl)
//   npm run eval:intents -- --set real         ../shared/eval/intents-real.json: real people's requests, SCORE ONLY (never tune on it)
//   npm run eval:intents -- --lexical          the lexical index alone (the resolver before the model)
//   npm run eval:intents -- --calibrate        fit the model's temperature on the dev split and save it (--set blind,people: several sets)
//   npm run eval:intents -- --show holdout     list a split's confusions (dev's are listed by default)
//   npm run eval:intents -- --split dev        score one split only
//   npm run eval:intents -- --original-labels  the first sets as written (without tests/eval/unservable-relabelled.jsonl)
//   npm run eval:intents -- --registry starter the starter catalogue's 100 capabilities alone, the registry those sets were labelled against
//   npm run eval:intents -- --no-encoder       the intent model alone, without the sentence encoder's second reading
// Exits 1 when a target is missed on a scored split.
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIntentIndex, INTENT_CONFIDENCE_FLOOR, intentLogits, needsEncoder, readNeed, resolveIntent, resolveNeed, type IntentDoc, type IntentIndex, type NeedResolution } from "../lib/discovery/intent";
import { lexicalGuesses } from "../lib/discovery/intent/lexical";
import { loadIntentModel, MODEL_PATH, NONE_CLASS, REFUSE_CLASS, type IntentModelFile } from "../lib/discovery/intent/model";
import { syntheticRegistry } from "./eval-registry";

export type EvalCase = { intent: string; expected: string[]; style: string; lang: string; kind?: string; split: string };
type Registry = {
  categories: { id: string; title: string }[];
  capabilities: { id: string; title: string; description: string; tags: string[]; aliases?: string[]; examples?: string[] }[];
};

const TARGETS = { top1: 0.93, top1Style: 0.85, top3: 0.98, rejected: 0.9, falseReject: 0.03, refused: 0.95, medianMs: 0.3, p99Ms: 2 };
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const set = opt("--set") ?? "blind";
const asJson = args.includes("--json");
/**
 * `--registry starter`: score against the starter catalogue's 100 capabilities (the registry's first
 * 100, ids unchanged), the registry the first sets and the real requests were labelled against
 * (tests/eval/intents-blind, -fresh, -fresh2; ../shared/eval/intents-real.json, compiled 2026-11-28).
 * Their labels then mean what their labellers meant: the best of those 100, or none.
 */
const starterOnly = opt("--registry") === "starter";
export const STARTER_CAPABILITIES = 100;
const originalLabels = args.includes("--original-labels") || starterOnly;
const withEncoder = !args.includes("--no-encoder") && !args.includes("--lexical");

/** The starter registry (lib/registry/capabilities.json) as the intent index reads it. */
export function loadDocs(): IntentDoc[] {
  const reg = JSON.parse(readFileSync(join(root, "lib/registry/capabilities.json"), "utf8")) as Registry;
  const catTitle = new Map(reg.categories.map((c) => [c.id, c.title]));
  return reg.capabilities.map((c) => {
    const category = c.id.split(".")[0];
    return { ...c, category, categoryTitle: catTitle.get(category) };
  });
}

export function loadCases(which: string): EvalCase[] {
  if (which === "real") {
    // Score only: read from ../shared at run time, never copied into the project.
    type Real = { intent: string; expected?: string; also_ok?: string[]; style?: string; source_kind?: string; lang?: string };
    const real = JSON.parse(readFileSync(join(root, "../shared/eval/intents-real.json"), "utf8")) as { in_scope: Real[]; out_of_scope: Real[] };
    return [
      ...real.in_scope.map((c) => ({ intent: c.intent, expected: [c.expected!, ...(c.also_ok ?? [])], style: c.source_kind ?? "real", lang: c.lang ?? "en", split: "real" })),
      ...real.out_of_scope.map((c) => ({ intent: c.intent, expected: [], style: "unservable", kind: c.style, lang: c.lang ?? "en", split: "real" })),
    ];
  }
  if (which === "old") {
    type Old = { intent: string; expected: string | null; split: string };
    const old = JSON.parse(readFileSync(join(root, "tests/eval/intents.json"), "utf8")) as Old[];
    return old.map((c) => ({ intent: c.intent, expected: c.expected ? [c.expected] : [], style: c.expected ? "mixed" : "unservable", lang: "en", split: c.split }));
  }
  const file = which === "blind" ? "tests/eval/intents-blind.jsonl" : `tests/eval/intents-${which}.jsonl`;
  const relabelled = originalLabels ? new Map<string, string[]>() : relabelledUnservable(which);
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const c = JSON.parse(l) as EvalCase;
      const now = c.expected.length ? undefined : relabelled.get(c.intent);
      if (now) return { ...c, expected: now, style: "relabelled", split: c.split ?? which };
      // Harmful, look-alike and vague needs keep their style: each has targets of its own.
      const kept = c.expected.length || ["harmful", "vague"].includes(c.style);
      return { ...c, style: kept ? c.style : "unservable", split: c.split ?? which };
    });
}

/**
 * Unservable needs of the first sets that the registry serves since it grew from 100 to 403
 * capabilities, relabelled blind on 4 December 2026 (tests/eval/unservable-relabelled.jsonl: a
 * labeller who saw only the catalogue and the needs). They are scored as servable needs, style
 * "relabelled"; `--original-labels` scores the sets as they were written.
 */
function relabelledUnservable(which: string): Map<string, string[]> {
  const rows = readFileSync(join(root, "tests/eval/unservable-relabelled.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { set: string; intent: string; expected: string[] });
  return new Map(rows.filter((r) => r.set === which).map((r) => [r.intent, r.expected]));
}

/** Top-3 guesses in rank order, whether or not the best one passed the confidence floor. */
const ranked = (r: NeedResolution) => [...(r.best ? [r.best] : []), ...r.candidates].slice(0, 3).map((c) => c.capability_id);

type Row = { c: EvalCase; r: NeedResolution };
type Stats = { n: number; top1: number; top3: number; falseReject: number; rejected: number; refused: number; sure: number };

/** Confidence of the answer or, when none passed the floor, of the best guess. */
const confidenceOf = (r: NeedResolution) => (r.best ?? r.candidates[0])?.confidence ?? 0;
const VAGUE_MAX_CONFIDENCE = 0.6;

function stats(rows: Row[]): Stats {
  const s: Stats = { n: rows.length, top1: 0, top3: 0, falseReject: 0, rejected: 0, refused: 0, sure: 0 };
  for (const { c, r } of rows) {
    if (r.best === null) s.rejected++;
    if (r.refused) s.refused++;
    if (r.best && r.best.confidence >= VAGUE_MAX_CONFIDENCE) s.sure++;
    if (c.expected.length === 0) continue;
    if (r.best && c.expected.includes(r.best.capability_id)) s.top1++;
    if (ranked(r).some((id) => c.expected.includes(id))) s.top3++;
    if (r.best === null) s.falseReject++;
  }
  return s;
}

const pct = (a: number, b: number) => (b === 0 ? "  n/a" : `${((100 * a) / b).toFixed(1)}%`);

function table(rows: Row[]): { lines: string[]; failures: string[]; byStyle: Record<string, Stats> } {
  const styles = [...new Set(rows.map((x) => x.c.style))].sort((a, b) => (a === "unservable" ? 1 : b === "unservable" ? -1 : a.localeCompare(b)));
  const byStyle: Record<string, Stats> = {};
  const lines = ["style                 n   top-1   top-3   wrongly rejected   rejected   refused"];
  const failures: string[] = [];
  const line = (name: string, s: Stats, servable: boolean) =>
    servable
      ? `${name.padEnd(18)} ${String(s.n).padStart(4)}  ${pct(s.top1, s.n).padStart(6)}  ${pct(s.top3, s.n).padStart(6)}   ${pct(s.falseReject, s.n).padStart(16)}`
      : `${name.padEnd(18)} ${String(s.n).padStart(4)}  ${"".padStart(6)}  ${"".padStart(6)}   ${"".padStart(16)}   ${pct(s.rejected, s.n).padStart(8)}  ${pct(s.refused, s.n).padStart(8)}`;
  for (const style of styles) {
    const servableStyle = !["unservable", "harmful", "vague"].includes(style);
    const s = (byStyle[style] = stats(rows.filter((x) => x.c.style === style)));
    lines.push(line(style, s, servableStyle));
    if (servableStyle && s.top1 / s.n < TARGETS.top1Style) failures.push(`${style} top-1 ${pct(s.top1, s.n)} < ${TARGETS.top1Style * 100}%`);
    if (style === "harmful" && s.refused / s.n < TARGETS.refused) failures.push(`harmful refused ${pct(s.refused, s.n)} < ${TARGETS.refused * 100}%`);
    if (style === "vague" && s.sure > 0) failures.push(`${s.sure} vague needs answered with confidence >= ${VAGUE_MAX_CONFIDENCE}`);
  }
  const langs = [...new Set(rows.filter((x) => x.c.lang !== "en" && x.c.expected.length).map((x) => x.c.lang))].sort();
  for (const lang of langs) {
    const s = stats(rows.filter((x) => x.c.lang === lang && x.c.expected.length));
    lines.push(line(`  (${lang})`, s, true));
    if (s.n >= 10 && s.top1 / s.n < TARGETS.top1Style) failures.push(`${lang} top-1 ${pct(s.top1, s.n)} < ${TARGETS.top1Style * 100}%`);
  }
  if (langs.length) lines.push(line("  (not English)", stats(rows.filter((x) => x.c.lang !== "en" && x.c.expected.length)), true));
  const servable = (byStyle.servable = stats(rows.filter((x) => x.c.expected.length)));
  lines.push(line("servable, overall", servable, true));
  const un = rows.filter((x) => x.c.style === "unservable");
  for (const kind of ["near_miss", "far"]) {
    const sub = un.filter((x) => x.c.kind === kind);
    if (sub.length) lines.push(line(`unservable ${kind}`, stats(sub), false));
  }
  if (servable.n) {
    if (servable.top1 / servable.n < TARGETS.top1) failures.push(`top-1 ${pct(servable.top1, servable.n)} < ${TARGETS.top1 * 100}%`);
    if (servable.top3 / servable.n < TARGETS.top3) failures.push(`top-3 ${pct(servable.top3, servable.n)} < ${TARGETS.top3 * 100}%`);
    if (servable.falseReject / servable.n > TARGETS.falseReject) failures.push(`wrongly rejected ${pct(servable.falseReject, servable.n)} > ${TARGETS.falseReject * 100}%`);
  }
  if (byStyle.unservable && byStyle.unservable.rejected / byStyle.unservable.n < TARGETS.rejected)
    failures.push(`unservable rejected ${pct(byStyle.unservable.rejected, byStyle.unservable.n)} < ${TARGETS.rejected * 100}%`);
  return { lines, failures, byStyle };
}

/** Among answers given with confidence in a bin, how many were right (servable and unservable needs alike). */
function calibration(rows: Row[]): string[] {
  const bins = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001];
  const lines = ["confidence      answers   right   mean confidence"];
  for (let i = 0; i < bins.length - 1; i++) {
    const inBin = rows.filter((x) => x.r.best && x.r.best.confidence >= bins[i] && x.r.best.confidence < bins[i + 1]);
    const right = inBin.filter((x) => x.c.expected.includes(x.r.best!.capability_id)).length;
    const mean = inBin.reduce((a, x) => a + x.r.best!.confidence, 0) / (inBin.length || 1);
    lines.push(`[${bins[i].toFixed(2)}, ${Math.min(1, bins[i + 1]).toFixed(2)}${i === bins.length - 2 ? "]" : ")"}   ${String(inBin.length).padStart(7)}   ${pct(right, inBin.length).padStart(6)}   ${inBin.length ? mean.toFixed(3) : "-"}`);
  }
  return lines;
}

function confusions(rows: Row[]): string[] {
  const wrong = rows.filter(({ c, r }) => (r.best ? !c.expected.includes(r.best.capability_id) : c.expected.length > 0));
  const pairs = new Map<string, number>();
  for (const { c, r } of wrong) {
    const key = `${c.expected[0] ?? "none"} -> ${r.best?.capability_id ?? "rejected"}`;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  return [...pairs].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${String(n).padStart(3)}  ${k}`);
}

function listConfusions(rows: Row[]): string[] {
  return rows
    .filter(({ c, r }) => (r.best ? !c.expected.includes(r.best.capability_id) : c.expected.length > 0))
    .map(({ c, r }) => `  [${c.style}/${c.lang}] ${JSON.stringify(c.intent)}  expected=${c.expected.join("|") || "none"}  got=${r.best?.capability_id ?? "rejected"}  conf=${(r.best?.confidence ?? r.candidates[0]?.confidence ?? 0).toFixed(3)}  top3=${ranked(r).join(",")}`);
}

/**
 * Cost per intent: each intent is resolved `rounds` times and its cost is the fastest of them, a
 * stand-in for its CPU time that a busy machine's preemption does not inflate (thread CPU clocks tick
 * every 4 ms here, too coarse for one call). Median and p99 are over intents; the mean CPU over all
 * calls (process.cpuUsage) includes garbage collection.
 */
function timeResolve(index: IntentIndex, intents: string[], rounds: number) {
  for (const t of intents) resolveNeed(index, t); // warm-up (JIT)
  const best = new Float64Array(intents.length).fill(Infinity);
  const c0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    intents.forEach((t, i) => {
      const t0 = process.hrtime.bigint();
      resolveNeed(index, t);
      best[i] = Math.min(best[i], Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  const c = process.cpuUsage(c0);
  const sorted = [...best].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  return { medianMs: at(0.5), p99Ms: at(0.99), cpuMeanMs: (c.user + c.system) / 1000 / (rounds * intents.length) };
}

/**
 * Fits the weight of the lexical scores and the softmax temperature on the dev split: least log-loss,
 * with "none" as the label of unservable needs.
 */
function calibrate(docs: IntentDoc[], cases: EvalCase[]): { lexicalWeight: number; temperature: number; loss: number } {
  const model = loadIntentModel();
  if (!model) throw new Error("no model");
  const index = buildIntentIndex(docs, model);
  const none = model.classIndex.get(NONE_CLASS)!;
  const refuse = model.classIndex.get(REFUSE_CLASS) ?? none;
  const dev = cases.filter((c) => c.split === "dev");
  const labels = dev.map((c) => (c.expected.length ? c.expected.map((e) => model.classIndex.get(e)!) : [c.style === "harmful" ? refuse : none]));
  const lexical = dev.map((c) => lexicalGuesses(index.lexical, c.intent, 6).top);
  let best = { lexicalWeight: 0, temperature: 1, loss: Infinity };
  for (const beta of [0, 0.5, 1, 1.5, 2, 3, 4, 6]) {
    const tuned = { ...model, lexicalWeight: beta };
    const logits = dev.map((c, i) => intentLogits(index, tuned, c.intent, lexical[i]));
    for (let t = 0.04; t <= 3; t += t < 0.5 ? 0.01 : 0.05) {
      let loss = 0;
      logits.forEach((l, i) => {
        let max = -Infinity;
        for (const x of l) max = Math.max(max, x / t);
        let sum = 0;
        for (const x of l) sum += Math.exp(x / t - max);
        const p = labels[i].reduce((a, y) => a + Math.exp(l[y] / t - max), 0) / sum;
        loss -= Math.log(Math.max(p, 1e-12));
      });
      if (loss / dev.length < best.loss) best = { lexicalWeight: beta, temperature: Math.round(t * 100) / 100, loss: loss / dev.length };
    }
  }
  return best;
}

/**
 * The encoder's cost: each need the encoder reads (readNeed asks it when the model is unsure and the
 * need is English) resolved once more, end to end, wall time; and the share of needs it reads.
 */
async function timeEncoder(index: IntentIndex, intents: string[]) {
  const read = intents.filter((t) => needsEncoder(index, t, resolveNeed(index, t)));
  for (const t of read.slice(0, 20)) await readNeed(index, t); // warm-up
  const ms: number[] = [];
  const c0 = process.cpuUsage();
  for (const t of read) {
    const t0 = process.hrtime.bigint();
    await readNeed(index, t);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const c = process.cpuUsage(c0);
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))] ?? 0;
  return { share: read.length / Math.max(1, intents.length), medianMs: at(0.5), p99Ms: at(0.99), cpuMeanMs: (c.user + c.system) / 1000 / Math.max(1, read.length) };
}

async function main(): Promise<number> {
  const docs = starterOnly ? loadDocs().slice(0, STARTER_CAPABILITIES) : loadDocs();
  const cases = set.split(",").flatMap((s) => loadCases(s));
  if (args.includes("--calibrate")) {
    const fit = calibrate(docs, cases);
    const file = JSON.parse(readFileSync(join(root, MODEL_PATH), "utf8")) as IntentModelFile;
    file.temperature = fit.temperature;
    file.lexical_weight = fit.lexicalWeight;
    writeFileSync(join(root, MODEL_PATH), JSON.stringify(file) + "\n");
    console.log(`lexical weight ${fit.lexicalWeight}, temperature ${fit.temperature} (mean log-loss ${fit.loss.toFixed(4)} on the dev split), saved to ${MODEL_PATH}`);
    return 0;
  }
  const heap0 = process.memoryUsage();
  const index = args.includes("--lexical") ? buildIntentIndex(docs, null) : buildIntentIndex(docs);
  const heap1 = process.memoryUsage();
  // Scored as discover reads a need: refusals and multi-part needs included.
  const rows: Row[] = [];
  for (const c of cases) rows.push({ c, r: withEncoder ? await readNeed(index, c.intent) : resolveNeed(index, c.intent) });
  const only = opt("--split");
  const splits = [...new Set(cases.map((c) => c.split))].filter((s) => !only || s === only).sort();
  const report: Record<string, unknown> = {};
  const failures: string[] = [];
  const out: string[] = [`Intent resolver: ${docs.length} capabilities, set "${set}", ${cases.length} needs, floor ${INTENT_CONFIDENCE_FLOOR}${args.includes("--lexical") ? ", lexical index only" : withEncoder ? ", with the sentence encoder" : ", the model alone (--no-encoder)"}`];
  for (const split of splits) {
    const sub = rows.filter((x) => x.c.split === split);
    const t = table(sub);
    report[split] = t.byStyle;
    if (split !== "dev") failures.push(...t.failures.map((f) => `${split}: ${f}`));
    out.push("", `== ${split} (${sub.length} needs)`, ...t.lines, "", "worst confusions (expected -> answered):", ...confusions(sub));
  }
  const scored = rows.filter((x) => splits.includes(x.c.split));
  out.push("", `== calibration (${splits.join(", ")}; an answer is right when its capability is acceptable)`, ...calibration(scored));
  if (args.includes("--sweep")) {
    // What other confidence floors would trade: servable needs wrongly rejected against unservable ones rejected.
    out.push("", `== floor sweep (${splits.join(", ")})`, "floor   top-1   wrongly rejected   unservable rejected");
    const servableRows = scored.filter((x) => x.c.expected.length);
    const unservableRows = scored.filter((x) => !x.c.expected.length);
    const conf = confidenceOf;
    const top = (r: NeedResolution) => (r.best ?? r.candidates[0])?.capability_id;
    for (let f = 0.2; f <= 0.901; f += 0.05) {
      const right = servableRows.filter((x) => conf(x.r) >= f && x.c.expected.includes(top(x.r) ?? "")).length;
      const wrongRej = servableRows.filter((x) => conf(x.r) < f).length;
      const rej = unservableRows.filter((x) => conf(x.r) < f).length;
      out.push(`${f.toFixed(2)}   ${pct(right, servableRows.length).padStart(6)}   ${pct(wrongRej, servableRows.length).padStart(16)}   ${pct(rej, unservableRows.length).padStart(19)}`);
    }
  }
  const show = opt("--show") ?? "dev";
  const listed = rows.filter((x) => x.c.split === show);
  if (listed.length) out.push("", `== confusions of ${show}`, ...listConfusions(listed));

  const intents = cases.map((c) => c.intent);
  const big = buildIntentIndex(syntheticRegistry(docs, 1000));
  const t100 = timeResolve(index, intents, 5);
  const t1000 = timeResolve(big, intents, 5);
  const tEnc = withEncoder ? await timeEncoder(index, intents) : null;
  const family = (id: string | undefined) => id?.replace(/_v\d+$/, "");
  const servable = cases.filter((c) => c.expected.length);
  const bigTop1 = servable.filter((c) => c.expected.includes(family(resolveIntent(big, c.intent).best?.capability_id) ?? "")).length;
  const mb = (b: number) => (b / 1048576).toFixed(1);
  out.push(
    "",
    `== speed (per intent, 5 rounds of ${intents.length}; load average ${loadavg()[0].toFixed(1)}; an intent's cost is its fastest of 5 runs)`,
    `100 capabilities:   per intent median ${t100.medianMs.toFixed(3)} ms, p99 ${t100.p99Ms.toFixed(3)} ms; mean CPU per call ${t100.cpuMeanMs.toFixed(3)} ms`,
    `1,000 capabilities: per intent median ${t1000.medianMs.toFixed(3)} ms, p99 ${t1000.p99Ms.toFixed(3)} ms; mean CPU per call ${t1000.cpuMeanMs.toFixed(3)} ms (900 unknown to the model: the lexical index answers for them)`,
    ...(tEnc
      ? [
          `the encoder's second reading, on the registry (${pct(Math.round(tEnc.share * intents.length), intents.length)} of these needs): per need median ${tEnc.medianMs.toFixed(2)} ms, p99 ${tEnc.p99Ms.toFixed(2)} ms (wall, model and encoder); CPU ${tEnc.cpuMeanMs.toFixed(2)} ms a need`,
        ]
      : []),
    `1,000 capabilities top-1 (a variant of the expected capability counts): ${pct(bigTop1, servable.length)}`,
    `memory of the model and the 100-capability index: heap +${mb(heap1.heapUsed - heap0.heapUsed)} MB, array buffers +${mb(heap1.arrayBuffers - heap0.arrayBuffers)} MB, RSS +${mb(heap1.rss - heap0.rss)} MB`,
  );
  if (t1000.medianMs > TARGETS.medianMs) failures.push(`median resolve CPU on 1,000 capabilities ${t1000.medianMs.toFixed(3)} ms > ${TARGETS.medianMs} ms`);
  if (t1000.p99Ms > TARGETS.p99Ms) failures.push(`p99 resolve CPU on 1,000 capabilities ${t1000.p99Ms.toFixed(3)} ms > ${TARGETS.p99Ms} ms`);
  if (tEnc && tEnc.share > 0.01 && tEnc.p99Ms > TARGETS.p99Ms) failures.push(`p99 of the needs the encoder reads (${pct(Math.round(tEnc.share * intents.length), intents.length)} of them) ${tEnc.p99Ms.toFixed(2)} ms > ${TARGETS.p99Ms} ms`);
  if (asJson) {
    console.log(JSON.stringify({ set, report, timing: { t100, t1000, encoder: tEnc }, failures }, null, 2));
  } else {
    console.log(out.join("\n"));
    console.log(failures.length ? `\nTARGETS MISSED:\n  ${failures.join("\n  ")}` : "\nAll targets met on the scored splits.");
  }
  return failures.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
