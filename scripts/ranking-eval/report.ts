// The evaluation's figures as Markdown tables (pasted into docs/ranking.md) and the issue's targets.
import { CHECKPOINTS, NEAR, nearShare, share, type Hits, type OutageRecord } from "./metrics";
import { LONG_CHECKPOINTS } from "./ceiling";
import type { EvalResult } from "./run";
import { PRESETS } from "./truth";

export const TARGETS = {
  /** Share of capabilities whose top is truly best after 2,000 reports, for every preset. */
  bestAfter2000: 0.95,
  /** Agents' first-call success as a share of the oracle's, over the run, for every preset. */
  oracleShare: 0.97,
  /** Most minutes an endpoint in an outage stays first. */
  leaveMinutes: 15,
  /** Capability-preset pairs whose first place an adversary moves, in any hour. */
  pairsMoved: 0,
};

export type TargetCheck = { name: string; value: string; target: string; ok: boolean };

const pct = (x: number, digits = 1) => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)}%` : "n/a");
const minutes = (ms: number | null | undefined) => (ms === null || ms === undefined ? "never" : `${Math.round(ms / 60_000)}`);

function quantile(xs: number[], q: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

const usd = (x: number) => `$${x.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const hits = (h: Hits) => `${pct(share(h), 0)} (${pct(nearShare(h), 0)})`;

export function checkTargets(r: EvalResult): TargetCheck[] {
  const capdex = r.policies.capdex;
  const worst2000 = Math.min(...PRESETS.map((p) => share(capdex.checkpoints[p][CHECKPOINTS.length - 1])));
  const worstOracle = Math.min(...PRESETS.map((p) => capdex.agents[p].first / capdex.agents[p].oracle));
  const left = capdex.outages.map((o) => (o.leftAfterMs === null ? Infinity : o.leftAfterMs));
  const slowest = left.length ? Math.max(...left) : 0;
  const moved = r.attacks.filter((a) => a.listed).reduce((s, a) => s + a.pairsMovedOnce, 0);
  return [
    { name: "top truly best after 2,000 reports (worst preset)", value: pct(worst2000), target: `>= ${pct(TARGETS.bestAfter2000, 0)}`, ok: worst2000 >= TARGETS.bestAfter2000 },
    { name: "agents' success / oracle's (worst preset)", value: pct(worstOracle), target: `>= ${pct(TARGETS.oracleShare, 0)}`, ok: worstOracle >= TARGETS.oracleShare },
    {
      name: "slowest exit from first place in an outage",
      value: slowest === Infinity ? "never" : `${minutes(slowest)} min`,
      target: `<= ${TARGETS.leaveMinutes} min`,
      ok: slowest <= TARGETS.leaveMinutes * 60_000,
    },
    { name: "capability-preset pairs whose first place an adversary moved", value: String(moved), target: `${TARGETS.pairsMoved}`, ok: moved <= TARGETS.pairsMoved },
  ];
}

function outageRows(name: string, list: OutageRecord[]): string[] {
  const rows: string[] = [];
  for (const kind of ["hour", "day"] as const) {
    const os = list.filter((o) => o.kind === kind);
    if (!os.length) continue;
    const left = os.filter((o) => o.leftAfterMs !== null).map((o) => o.leftAfterMs!);
    const within = os.filter((o) => o.leftAfterMs !== null && o.leftAfterMs <= TARGETS.leaveMinutes * 60_000).length;
    const reports = os.filter((o) => o.reportsBeforeLeaving !== null).map((o) => o.reportsBeforeLeaving!);
    const best = os.filter((o) => o.regainedAfterMs !== undefined);
    const regained = best.filter((o) => o.regainedAfterMs !== null).map((o) => o.regainedAfterMs!);
    rows.push(
      `| ${name} | ${kind} | ${os.length} | ${pct(within / os.length, 0)} | ${minutes(quantile(left, 0.5))} / ${minutes(quantile(left, 0.9))} / ${
        left.length < os.length ? "never" : minutes(Math.max(...left))
      } | ${quantile(reports, 0.5) ?? "n/a"} | ${best.length} | ${minutes(quantile(regained, 0.5))} / ${minutes(quantile(regained, 0.9))} | ${best.length - regained.length} |`,
    );
  }
  return rows;
}

export function formatReport(r: EvalResult): string {
  const { capdex, raw_success: raw, random } = r.policies;
  const c = r.config;
  const out: string[] = [];
  out.push(
    `Seeds ${c.seeds.join(", ")} (adversaries: ${c.seeds.slice(0, c.adversarySeeds ?? c.seeds.length).join(", ")}); ${c.capabilities} capabilities; ${c.days} simulated days; ${c.callsPerHour} honest calls per capability and hour; ${(r.ms / 1000).toFixed(0)} s.`,
    "",
    `**Top endpoint truly best** (in brackets: within ${NEAR} of the best utility), when a capability reaches each number of honest reports:`,
    "",
    `| preset | ${CHECKPOINTS.map((k) => `${k.toLocaleString("en")} reports`).join(" | ")} | raw success rate, 2,000 | random order, 2,000 | Capdex's ranking of random order's reports, ${CHECKPOINTS.map((k) => k.toLocaleString("en")).join(" / ")} | ideal ranking, reports spread evenly, ${CHECKPOINTS.map((k) => k.toLocaleString("en")).join(" / ")} | every hour of the run |`,
    `|---|${CHECKPOINTS.map(() => "---").join("|")}|---|---|---|---|---|`,
  );
  const last = CHECKPOINTS.length - 1;
  for (const p of PRESETS) {
    out.push(`| ${p} | ${capdex.checkpoints[p].map(hits).join(" | ")} | ${hits(raw.checkpoints[p][last])} | ${hits(random.checkpoints[p][last])} | ${random.capdexView[p].map((h) => pct(share(h), 0)).join(" / ")} | ${r.ceiling[p].map((h) => pct(share(h), 0)).join(" / ")} | ${hits(capdex.hourly[p])} |`);
  }
  out.push(
    "",
    `**How many reports 95% takes.** The ideal ranking above (true latency, price and stability known exactly; only the success rate estimated, from reports spread evenly over the endpoints) at more reports per capability than a simulated week gives: ${LONG_CHECKPOINTS.map((k) => k.toLocaleString("en")).join(" / ")} reports:`,
    "",
    "| preset | ideal ranking, top truly best |",
    "|---|---|",
    ...PRESETS.map((p) => `| ${p} | ${r.ceilingLong[p].map((h) => pct(share(h), 0)).join(" / ")} |`),
  );
  out.push(
    "",
    "**Agents against an oracle** that always calls the truly best endpoint first: expected success of the first call as a share of the oracle's, success after up to two fallbacks, and mean utility regret of the first choice:",
    "",
    "| preset | calls | Capdex | raw success rate | random order | Capdex, after fallbacks | Capdex regret |",
    "|---|---|---|---|---|---|---|",
  );
  for (const p of PRESETS) {
    const a = capdex.agents[p];
    const ratio = (t: typeof a) => pct(t.first / t.oracle, 2);
    out.push(`| ${p} | ${a.calls.toLocaleString("en")} | ${ratio(a)} | ${ratio(raw.agents[p])} | ${ratio(random.agents[p])} | ${pct(a.eventual / a.calls, 2)} | ${(a.gap / a.calls).toFixed(4)} |`);
  }
  out.push(
    "",
    "**Outages** of endpoints that were first for a preset when the outage began (one row per outage and preset): share that left first place within 15 minutes; minutes until they left (median / p90 / max); honest reports about them until then; how many were truly best again after the outage, minutes until first again (median / p90), and how many never were within the run:",
    "",
    "| ranking | outage | followed | left <= 15 min | minutes to leave | reports | best after | minutes to regain | never regained |",
    "|---|---|---|---|---|---|---|---|---|",
    ...outageRows("Capdex", capdex.outages),
    ...outageRows("raw success rate", raw.outages),
  );
  if (r.attacks.length) {
    out.push(
      "",
      "**Adversaries**, each in its own run against every capability, compared hour by hour with the same run without it (first place per capability and preset):",
      "",
      "| adversary | pairs moved in any hour | in >= 10% of hours | hours differing | capabilities moved | moved hours onto a near tie | utility lost per moved hour | paid reports | spent (USD) | USD per capability moved |",
      "|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const a of r.attacks) {
      const per = a.capabilitiesMoved ? `${usd(a.attackUsd / a.capabilitiesMoved)}` : "moved nothing";
      out.push(
        `| ${a.adversary}${a.listed ? "" : " (beyond the issues' lists)"}: ${a.description} | ${a.pairsMovedOnce} of ${a.pairs} | ${a.pairsMoved10} | ${pct(a.differing / a.samples, 2)} | ${a.capabilitiesMoved} | ${a.differing ? pct(a.movedToNearTie / a.differing, 1) : "-"} | ${a.differing ? (a.utilityLost / a.differing).toFixed(4) : "-"} | ${a.paidReports.toLocaleString("en")} | ${usd(a.attackUsd)} | ${per} |`,
      );
    }
    out.push("", `"Near tie": the attacked run's top is within ${NEAR} of the clean run's top in the preset's true utility, a difference that no sample of 2,000 reports tells apart; "utility lost" is the mean true utility the moved hours' tops gave up against the clean run's (the ranking's score, from 0 to 1).`);
    const paid = r.attacks[0];
    out.push("", `Honest reports with verified payment in the clean run the adversaries are compared with: ${paid.honestPaidReports.toLocaleString("en")} (of ${r.worlds.find((w) => w.policy === "capdex" && w.adversary === "none")?.counts.honestReports.toLocaleString("en")} honest reports).`);
  }
  out.push("", "**Targets**", "", "| target | measured | wanted | |", "|---|---|---|---|");
  for (const t of checkTargets(r)) out.push(`| ${t.name} | ${t.value} | ${t.target} | ${t.ok ? "met" : "MISSED"} |`);
  return out.join("\n");
}
