// Measures catalogue imports on real data: every snapshot of ../shared/real-catalogue (the Bazaar
// `/discovery/resources` shape) goes through the importer's own parse, noise and mapping functions
// (lib/imports: parseItem, createNoiseJudge + groupVerdict, createMapper), in memory, with the
// registry of lib/registry/capabilities.json. Prints per snapshot and per kind of listing: items,
// skipped, held back per reason, mapped, unmapped; and with tests/eval/listings-labelled.jsonl
// (lines {url, snapshot, expected: "<capability id>" | "none" | "noise", split}) the precision
// figures per split and the worst confusions. Exits 1 when a target is missed on the holdout.
//   npm run eval:mapping                      every snapshot; labelled figures when the file exists
//   npm run eval:mapping -- --json            the same as JSON
//   npm run eval:mapping -- --dir <path>      snapshots elsewhere (default: ../shared/real-catalogue, then ../../shared/...)
//   npm run eval:mapping -- --labels <file>   another labelled file
//   npm run eval:mapping -- --show dev        list the dev split's mistakes (never tune on holdout); --priced: as if priced
//   npm run eval:mapping -- --quiet           figures only, no confusions
//   npm run eval:mapping -- --threshold 0.4 --support 1 --conflict 0.9   try other thresholds
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Capability, Category } from "../lib/db/schema";
import { parseItem, type ParsedItem } from "../lib/imports/item";
import { createMapper, type Mapping } from "../lib/imports/map";
import { createNoiseJudge, groupKeysOf, groupVerdict, noiseOfItem, type NoiseReason } from "../lib/imports/noise";
import type { Registry } from "../lib/registry";
import { CATALOGUE, catalogueCapabilityRows } from "../lib/seed/catalogue";

const TARGETS = { right: 0.9, noneListed: 0.03, noiseListed: 0.05 };
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const asJson = args.includes("--json");
const threshold = opt("--threshold") ? Number(opt("--threshold")) : undefined;
const conflict = opt("--conflict") ? Number(opt("--conflict")) : undefined;
const support = opt("--support") ? Number(opt("--support")) : undefined;

/** The real catalogue: --dir, else ../shared/real-catalogue next to the project, else one level up (git worktrees). */
export function realCatalogueDir(explicit?: string): string | null {
  const tries = explicit ? [explicit] : [process.env.CAPDEX_REAL_CATALOGUE, join(root, "../shared/real-catalogue"), join(root, "../../shared/real-catalogue")];
  for (const d of tries) if (d && existsSync(d)) return resolve(d);
  return null;
}

/** The starter registry as the service loads it (lib/seed/catalogue.ts), without a database. */
export function memoryRegistry(): Registry {
  const now = new Date();
  const capabilities: Capability[] = catalogueCapabilityRows().map((c) => ({ ...c, createdAt: now, updatedAt: now }));
  const categories: Category[] = CATALOGUE.categories.map((c, i) => ({ ...c, position: i }));
  return { version: 1, capabilities, byId: new Map(capabilities.map((c) => [c.id, c])), categories, derived: new Map() };
}

export type Outcome = {
  url: string;
  kind: string;
  /** skipped:<reason> | held:<reason> | mapped | unmapped */
  state: string;
  capability: string | null;
  mapping: Mapping | null;
  item: ParsedItem | null;
  /** For an item skipped for invalid_price: what it would be were it priced (its own noise, then its mapping; no host groups). */
  ifPriced?: { state: string; capability: string | null };
};

/** One snapshot through parse, noise (per item, then the host groups as a completed run settles them) and mapping. */
export function importSnapshot(doc: { x402Version?: number; items?: unknown[] }, registry: Registry, map: (item: ParsedItem) => Mapping): Outcome[] {
  const version = doc.x402Version === 1 || doc.x402Version === 2 ? doc.x402Version : null;
  const judge = createNoiseJudge();
  const seen = new Set<string>();
  const out: Array<Outcome & { provisional: NoiseReason | null }> = [];
  for (const raw of doc.items ?? []) {
    const r = raw as Record<string, unknown>;
    const rawUrl = typeof r?.resource === "string" ? r.resource : ((r?.resource as Record<string, unknown> | undefined)?.url as string | undefined) ?? "";
    const kind = `${r?.type === "mcp" ? "mcp" : "http"} v${r?.x402Version ?? version ?? "?"}`;
    const parsed = parseItem(raw, version, false);
    if (!parsed.ok) {
      const o: Outcome & { provisional: null } = { url: rawUrl, kind, state: `skipped:${parsed.reason}`, capability: null, mapping: null, item: null, provisional: null };
      const unpriced = parsed.reason === "invalid_price" ? parseItem(raw, version, false, { ignorePrice: true }) : null;
      if (unpriced?.ok) {
        const reason = noiseOfItem(unpriced.item);
        const m = reason ? null : map(unpriced.item);
        o.ifPriced = { state: reason ? `held:${reason}` : m!.capabilityId ? "mapped" : "unmapped", capability: m?.capabilityId ?? null };
        o.item = unpriced.item;
        o.mapping = m;
      }
      out.push(o);
      continue;
    }
    if (seen.has(parsed.item.url)) {
      out.push({ url: parsed.item.url, kind, state: "skipped:duplicate_url", capability: null, mapping: null, item: null, provisional: null });
      continue;
    }
    seen.add(parsed.item.url);
    out.push({ url: parsed.item.url, kind, state: "", capability: null, mapping: null, item: parsed.item, provisional: judge(parsed.item) });
  }
  // The end of a completed run: each big group's verdict (lib/imports/store.ts settleGroups).
  const repeat = new Map<string, { n: number; kinds: Set<string> }>();
  const dup = new Map<string, { n: number; rep: string }>();
  for (const o of out) {
    const k = o.item && !o.state && groupKeysOf(o.item);
    if (!k) continue;
    const r = repeat.get(k.repeat) ?? { n: 0, kinds: new Set() };
    r.n += 1;
    r.kinds.add(k.duplicate);
    repeat.set(k.repeat, r);
    const d = dup.get(k.duplicate) ?? { n: 0, rep: o.url };
    d.n += 1;
    if (o.url < d.rep) d.rep = o.url;
    dup.set(k.duplicate, d);
  }
  for (const o of out) {
    if (!o.item || o.state) continue;
    let reason: NoiseReason | null = noiseOfItem(o.item);
    const k = groupKeysOf(o.item);
    if (!reason && k) {
      const r = repeat.get(k.repeat)!;
      const d = dup.get(k.duplicate)!;
      const v = groupVerdict({ short: k.short, repeatCount: r.n, repeatKinds: r.kinds.size, duplicateCount: d.n });
      if (v === "boilerplate_description" || (v === "duplicate_listing" && d.rep !== o.url)) reason = v;
    }
    if (reason) {
      o.state = `held:${reason}`;
      continue;
    }
    o.mapping = map(o.item);
    o.capability = o.mapping.capabilityId;
    o.state = o.capability ? "mapped" : "unmapped";
  }
  return out.map(({ provisional: _p, ...o }) => o);
}

type Label = { url: string; snapshot: string; expected: string; split: string; meaningful?: boolean };

function tally(outcomes: Outcome[]) {
  const t = { items: outcomes.length, skipped: {} as Record<string, number>, held: {} as Record<string, number>, mapped: 0, unmapped: 0 };
  for (const o of outcomes) {
    if (o.state === "mapped") t.mapped += 1;
    else if (o.state === "unmapped") t.unmapped += 1;
    else {
      const [what, reason] = o.state.split(":");
      const m = what === "held" ? t.held : t.skipped;
      m[reason] = (m[reason] ?? 0) + 1;
    }
  }
  return t;
}

/** The outcome as if every item had a valid price: an item skipped for invalid_price counts as its ifPriced state. */
function priced(o: Outcome | undefined): Outcome | undefined {
  return o?.ifPriced ? { ...o, state: o.ifPriced.state, capability: o.ifPriced.capability } : o;
}

function score(pairs: Array<{ label: Label; o: Outcome | undefined }>) {
  let fit = 0, fitListed = 0, fitRight = 0, none = 0, noneListed = 0, noise = 0, noiseListed = 0, missing = 0;
  // Meaningful services (a real description of a real service, not noise): how many a capability of the registry fits, and how many of those are listed under it.
  let meaningful = 0, meaningfulFit = 0, meaningfulFitRight = 0;
  const confusions = new Map<string, number>();
  const mistakes: Array<{ url: string; expected: string; got: string; text: string }> = [];
  for (const { label, o } of pairs) {
    if (!o) {
      missing += 1;
      continue;
    }
    const listed = o.state === "mapped";
    const got = listed ? o.capability! : o.state;
    if (label.meaningful && label.expected !== "noise") {
      meaningful += 1;
      if (label.expected !== "none") {
        meaningfulFit += 1;
        if (listed && o.capability === label.expected) meaningfulFitRight += 1;
      }
    }
    if (label.expected === "noise") {
      noise += 1;
      if (listed) noiseListed += 1;
    } else if (label.expected === "none") {
      none += 1;
      if (listed) noneListed += 1;
    } else {
      fit += 1;
      if (listed) fitListed += 1;
      if (listed && o.capability === label.expected) fitRight += 1;
    }
    const ok = label.expected === "noise" || label.expected === "none" ? !listed : o.capability === label.expected;
    if (!ok) {
      const key = `${label.expected} -> ${got}`;
      confusions.set(key, (confusions.get(key) ?? 0) + 1);
      mistakes.push({ url: label.url, expected: label.expected, got, text: (o.item?.mappingText ?? "").slice(0, 140) });
    }
  }
  const ratio = (a: number, b: number) => (b ? a / b : null);
  return {
    labelled: pairs.length,
    missing,
    /** Listings that fit a capability, listed: under the right one. */
    right: ratio(fitRight, fitListed),
    /** Listings that fit no capability, listed anyway. */
    none_listed: ratio(noneListed, none),
    /** Noise, listed. */
    noise_listed: ratio(noiseListed, noise),
    /** Listings that fit a capability, listed under it (coverage). */
    covered: ratio(fitRight, fit),
    /** Meaningful services (real description, not noise) that a capability of the registry fits: what the registry covers. */
    registry_fits: ratio(meaningfulFit, meaningful),
    /** Of those, listed under it. */
    meaningful_covered: ratio(meaningfulFitRight, meaningfulFit),
    counts: {
      fit, fit_listed: fitListed, fit_right: fitRight, none, none_listed: noneListed, noise, noise_listed: noiseListed,
      meaningful, meaningful_fit: meaningfulFit, meaningful_fit_right: meaningfulFitRight,
    },
    confusions: [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => ({ confusion: k, n })),
    mistakes,
  };
}

async function main(): Promise<number> {
  const dir = realCatalogueDir(opt("--dir"));
  if (!dir) {
    console.error("no real catalogue: ../shared/real-catalogue not found (give --dir or CAPDEX_REAL_CATALOGUE)");
    return 2;
  }
  const registry = memoryRegistry();
  const map = await createMapper(registry, { threshold, conflict, support });
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  const started = Date.now();
  const bySnapshot = new Map<string, Outcome[]>();
  for (const f of files) bySnapshot.set(f.replace(/\.json$/, ""), importSnapshot(JSON.parse(readFileSync(join(dir, f), "utf8")), registry, map));
  const ms = Date.now() - started;

  const report: Record<string, unknown> = { dir, registry_capabilities: registry.capabilities.length, ms, snapshots: {}, kinds: {} };
  const kinds = new Map<string, Outcome[]>();
  for (const [name, outs] of bySnapshot) {
    (report.snapshots as Record<string, unknown>)[name] = tally(outs);
    for (const o of outs) kinds.set(o.kind, [...(kinds.get(o.kind) ?? []), o]);
  }
  for (const [k, outs] of [...kinds].sort()) (report.kinds as Record<string, unknown>)[k] = tally(outs);

  const labelFile = opt("--labels") ?? join(root, "tests/eval/listings-labelled.jsonl");
  let failed = false;
  if (existsSync(labelFile)) {
    const labels: Label[] = readFileSync(labelFile, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Label);
    const index = new Map<string, Outcome>();
    for (const [name, outs] of bySnapshot) for (const o of outs) index.set(`${name}\n${o.url}`, o);
    const find = (l: Label) => {
      const snap = l.snapshot.replace(/\.json$/, "");
      let o = index.get(`${snap}\n${l.url}`);
      if (!o) {
        try {
          o = index.get(`${snap}\n${new URL(l.url).href}`);
        } catch {
          /* not a URL */
        }
      }
      return o;
    };
    const splits: Record<string, ReturnType<typeof score>> = {};
    const ifPriced: Record<string, ReturnType<typeof score>> = {};
    for (const split of [...new Set(labels.map((l) => l.split))].sort()) {
      splits[split] = score(labels.filter((l) => l.split === split).map((label) => ({ label, o: find(label) })));
      ifPriced[split] = score(labels.filter((l) => l.split === split).map((label) => ({ label, o: priced(find(label)) })));
    }
    const holdout = splits.holdout;
    const missed: string[] = [];
    if (holdout) {
      if (holdout.right !== null && holdout.right < TARGETS.right) missed.push(`right ${pct(holdout.right)} < ${pct(TARGETS.right)}`);
      if (holdout.none_listed !== null && holdout.none_listed > TARGETS.noneListed) missed.push(`none listed ${pct(holdout.none_listed)} > ${pct(TARGETS.noneListed)}`);
      if (holdout.noise_listed !== null && holdout.noise_listed > TARGETS.noiseListed) missed.push(`noise listed ${pct(holdout.noise_listed)} > ${pct(TARGETS.noiseListed)}`);
    }
    failed = missed.length > 0;
    const brief = (m: Record<string, ReturnType<typeof score>>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, { ...v, mistakes: undefined }]));
    report.labels = { file: labelFile, targets: TARGETS, missed, splits: brief(splits), if_priced: brief(ifPriced) };
    if (!asJson) {
      printTallies(report);
      console.log(`\nlabelled: ${labelFile}`);
      const figures = (split: string, s: ReturnType<typeof score>) =>
        console.log(
          `  ${split.padEnd(8)} ${s.labelled} labelled${s.missing ? ` (${s.missing} not found)` : ""}: right ${pct(s.right)} (${s.counts.fit_right}/${s.counts.fit_listed}), ` +
            `none listed ${pct(s.none_listed)} (${s.counts.none_listed}/${s.counts.none}), noise listed ${pct(s.noise_listed)} (${s.counts.noise_listed}/${s.counts.noise}), ` +
            `covered ${pct(s.covered)} (${s.counts.fit_right}/${s.counts.fit})\n` +
            `           meaningful services: a capability fits ${pct(s.registry_fits)} (${s.counts.meaningful_fit}/${s.counts.meaningful}), ` +
            `listed under it ${pct(s.meaningful_covered)} (${s.counts.meaningful_fit_right}/${s.counts.meaningful_fit})`,
        );
      const quiet = args.includes("--quiet");
      for (const [split, s] of Object.entries(splits)) {
        figures(split, s);
        if (!quiet) console.log(`           worst confusions: ${s.confusions.map((c) => `${c.confusion} ${c.n}`).join("; ") || "none"}`);
      }
      console.log("if every item were priced (an item skipped for invalid_price read without its price: the snapshot lost it):");
      for (const [split, s] of Object.entries(ifPriced)) figures(split, s);
      const show = opt("--show");
      if (show && show !== "holdout" && splits[show]) for (const m of (args.includes("--priced") ? ifPriced : splits)[show].mistakes) console.log(`  - ${m.expected} -> ${m.got}  ${m.url}\n      ${m.text}`);
      console.log(holdout ? (failed ? `\nholdout targets missed: ${missed.join("; ")}` : "\nholdout targets met") : "\nno holdout split: no target checked");
    }
  } else if (!asJson) {
    printTallies(report);
    console.log(`\nno labelled file (${labelFile}): precision figures need it`);
  }
  const dump = opt("--dump");
  if (dump) for (const [name, outs] of bySnapshot) for (const o of outs) if (o.state.startsWith(dump)) console.log(`${name}\t${o.state}\t${o.capability ?? ""}\t${o.mapping?.refused ?? ""}\t${o.mapping?.candidates.map((c) => `${c.capability_id}:${c.confidence}`).join(",") ?? ""}\t${o.url}\t${(o.item?.mappingText ?? "").slice(0, 150)}\t${o.item?.parts.fields.slice(0, 80) ?? ""}`);
  if (asJson) console.log(JSON.stringify(report, null, 2));
  // --report-only (.ci/run): the figures and the missed targets are printed, and only an error fails the run.
  return failed && !args.includes("--report-only") ? 1 : 0;
}

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);

function printTallies(report: Record<string, unknown>) {
  console.log(`real catalogue: ${report.dir} (registry: ${report.registry_capabilities} capabilities, ${report.ms} ms)`);
  const line = (name: string, t: ReturnType<typeof tally>) => {
    const held = Object.values(t.held).reduce((a, b) => a + b, 0);
    const skipped = Object.values(t.skipped).reduce((a, b) => a + b, 0);
    const fmt = (m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ");
    console.log(`  ${name}: ${t.items} items, skipped ${skipped}, held back ${held}, mapped ${t.mapped}, unmapped ${t.unmapped}`);
    if (held) console.log(`      held back: ${fmt(t.held)}`);
    if (skipped) console.log(`      skipped: ${fmt(t.skipped)}`);
  };
  console.log("per snapshot:");
  for (const [k, t] of Object.entries(report.snapshots as Record<string, ReturnType<typeof tally>>)) line(k, t);
  console.log("per kind of listing (all snapshots):");
  for (const [k, t] of Object.entries(report.kinds as Record<string, ReturnType<typeof tally>>)) line(k, t);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main().then((code) => (process.exitCode = code));
