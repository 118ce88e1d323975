// Measures whether the ranking finds the truly best endpoint (docs/ranking.md, "How well the ranking
// works"): simulated networks, agents and adversaries driving Capdex's ranking and report weighting.
// Usage: npm run eval:ranking [-- --seeds 1,2,3] [--capabilities 100] [--days 7] [--calls 15]
//        [--no-adversaries | --adversaries aged_accounts,burst] [--adversary-seeds N|all] [--jobs N] [--ledger sql] [--json out.json];
//        exits 1 when a target is missed.
//        --ledger sql counts reports with the rollup job's own statement on PGlite (slow: use a small size).
//        EVAL_PAYING_SHARE=0.3 (default): the share of honest callers that send payment evidence.
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { checkTargets, formatReport } from "./ranking-eval/report";
import { ADVERSARIES, type AdversaryKind } from "./ranking-eval/adversary";
import { FULL, runEvaluation, type EvalConfig } from "./ranking-eval/run";

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const chosen = option("--adversaries")?.split(",") as Array<Exclude<AdversaryKind, "none">> | undefined;
const unknown = chosen?.filter((k) => !(k in ADVERSARIES)) ?? [];
if (unknown.length) {
  console.error(`unknown adversaries: ${unknown.join(", ")} (known: ${Object.keys(ADVERSARIES).join(", ")})`);
  process.exit(2);
}

const config: EvalConfig = {
  seeds: option("--seeds")?.split(",").map(Number) ?? FULL.seeds,
  capabilities: Number(option("--capabilities") ?? FULL.capabilities),
  days: Number(option("--days") ?? FULL.days),
  callsPerHour: Number(option("--calls") ?? FULL.callsPerHour),
  adversaries: args.includes("--no-adversaries") ? false : (chosen ?? true),
  adversarySeeds: option("--adversary-seeds") === "all" ? undefined : Number(option("--adversary-seeds") ?? FULL.adversarySeeds),
  ledger: option("--ledger") === "sql" ? "sql" : "memory",
};

// Worlds run on worker threads, one per core (--jobs 1: all in this process).
const jobs = Number(option("--jobs") ?? Math.min(4, availableParallelism()));
const result = await runEvaluation(config, (line) => console.error(line), jobs);
const json = option("--json");
if (json) writeFileSync(json, JSON.stringify(result, null, 1));
console.log(formatReport(result));
const cpu = process.cpuUsage();
console.log(
  `\n${(result.ms / 1000).toFixed(0)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s of CPU (all threads), ${jobs} worker(s); load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(" ")}`,
);
process.exit(checkTargets(result).every((t) => t.ok) ? 0 : 1);
