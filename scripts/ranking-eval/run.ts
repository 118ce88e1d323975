// A whole evaluation: for each seed, the network under Capdex's ranking, under the two baselines
// and under Capdex's ranking with each adversary, then the figures across seeds and the targets.
import type { RankingPreset } from "@/lib/schemas/discover";
import { ADVERSARIES, burstAt, isBurst, type AdversaryKind } from "./adversary";
import type { Policy } from "./agents";
import { CHECKPOINTS, hitsByPreset, NEAR, sumHits, type AgentTally, type Hits, type OutageRecord } from "./metrics";
import { openDb } from "@/lib/db/client";
import { ceilingOf, LONG_CHECKPOINTS } from "./ceiling";
import type { Ledger, LedgerSetup } from "./ledger";
import { openSqlLedger } from "./sql-ledger";
import { generateNetwork, HOUR } from "./network";
import { runWorlds } from "./pool";
import { PRESETS, TruthBook } from "./truth";
import type { WorldConfig, WorldResult } from "./world";

export type EvalConfig = {
  seeds: number[];
  capabilities: number;
  days: number;
  callsPerHour: number;
  /** Every adversary (true), none, or these. */
  adversaries: boolean | Array<Exclude<AdversaryKind, "none">>;
  /** How many of the seeds (the first ones) the adversaries run on; all by default. */
  adversarySeeds?: number;
  /** Count reports in memory (default), or in a fresh in-memory PGlite per world with the rollup's own statement. */
  ledger?: "memory" | "sql";
};

/**
 * The full evaluation: three networks for Capdex and the baselines; the adversaries on the first
 * (each adversary run is compared hour by hour with the same network's clean run: 100 capabilities,
 * 5 presets, 168 hours, and costs twice a clean run), so that it all takes a few minutes.
 */
export const FULL: EvalConfig = { seeds: [1, 2, 3], capabilities: 100, days: 7, callsPerHour: 15, adversaries: true, adversarySeeds: 1 };

export type PolicyFigures = {
  checkpoints: Record<RankingPreset, Hits[]>;
  capdexView: Record<RankingPreset, Hits[]>;
  hourly: Record<RankingPreset, Hits>;
  agents: Record<RankingPreset, AgentTally>;
  outages: OutageRecord[];
};
export type AttackFigures = {
  adversary: Exclude<AdversaryKind, "none">;
  description: string;
  /** In the issue's list of adversaries (and so in its target). */
  listed: boolean;
  /** (capability, preset, hour) samples from the attack's start on, and those whose top differs from the clean world's. */
  samples: number;
  differing: number;
  /** Capability-preset pairs whose top differed in at least one hour, and in at least 10% of the hours. */
  pairsMovedOnce: number;
  pairsMoved10: number;
  pairs: number;
  /** Capabilities with at least one preset's first place moved. */
  capabilitiesMoved: number;
  /** What the attack spent (USD: payments to rivals; payments to itself come back) and its paid reports. */
  attackUsd: number;
  paidReports: number;
  /** The clean run's honest reports with verified payment, and their value (USD), over the attack's hours. */
  honestPaidReports: number;
  /**
   * What the moves cost agents: over the (capability, preset, hour) samples whose top differs, the
   * preset's true utility of the clean run's top minus the attacked run's (summed), and how many of
   * those samples put an endpoint within NEAR of the clean top's utility on top (a near tie).
   */
  utilityLost: number;
  movedToNearTie: number;
};
export type EvalResult = {
  config: EvalConfig;
  policies: Record<Policy, PolicyFigures>;
  attacks: AttackFigures[];
  /** The ideal ranking from reports spread evenly (ceiling.ts), per preset and checkpoint. */
  ceiling: Record<RankingPreset, Hits[]>;
  /** The same ideal ranking at LONG_CHECKPOINTS: how many reports 95% would take. */
  ceilingLong: Record<RankingPreset, Hits[]>;
  worlds: Array<{ seed: number; policy: Policy; adversary: AdversaryKind; ms: number; counts: WorldResult["counts"] }>;
  ms: number;
};

const POLICIES: Policy[] = ["capdex", "raw_success", "random"];

function emptyFigures(): PolicyFigures {
  const per = <T>(f: () => T) => Object.fromEntries(PRESETS.map((p) => [p, f()])) as Record<RankingPreset, T>;
  return {
    checkpoints: hitsByPreset(CHECKPOINTS),
    capdexView: hitsByPreset(CHECKPOINTS),
    hourly: per(() => ({ n: 0, best: 0, near: 0, gap: 0 })),
    agents: per(() => ({ calls: 0, first: 0, oracle: 0, eventual: 0, gap: 0 })),
    outages: [],
  };
}

function addWorld(into: PolicyFigures, w: WorldResult): void {
  for (const p of PRESETS) {
    into.checkpoints[p] = into.checkpoints[p].map((h, k) => sumHits([h, w.metrics.checkpoints[p][k]]));
    into.capdexView[p] = into.capdexView[p].map((h, k) => sumHits([h, w.metrics.capdexView[p][k]]));
    into.hourly[p] = sumHits([into.hourly[p], ...w.metrics.hourly[p]]);
    const a = into.agents[p];
    const b = w.metrics.agents[p];
    into.agents[p] = { calls: a.calls + b.calls, first: a.first + b.first, oracle: a.oracle + b.oracle, eventual: a.eventual + b.eventual, gap: a.gap + b.gap };
  }
  into.outages.push(...w.metrics.outages);
}

/** The true utility of endpoint `top` of capability `c` for preset index `p` in hour `h` of the run. */
export type UtilityAt = (c: number, p: number, h: number, top: number) => number;

export function compareTops(into: AttackFigures, clean: WorldResult, attacked: WorldResult, fromHour: number, utility: UtilityAt): void {
  into.attackUsd += attacked.counts.attackUsd;
  into.paidReports += attacked.counts.paidAttackReports;
  into.honestPaidReports += clean.counts.paidHonestReports;
  clean.tops.forEach((perPreset, c) => {
    let capabilityMoved = false;
    perPreset.forEach((hours, p) => {
      let moved = 0;
      let n = 0;
      for (let h = fromHour; h < hours.length; h++) {
        n++;
        const other = attacked.tops[c][p][h];
        if (hours[h] === other) continue;
        moved++;
        if (hours[h] >= 0 && other >= 0) {
          const lost = utility(c, p, h, hours[h]) - utility(c, p, h, other);
          into.utilityLost += lost;
          if (lost <= NEAR) into.movedToNearTie++;
        }
      }
      into.samples += n;
      into.differing += moved;
      into.pairs++;
      if (moved > 0) into.pairsMovedOnce++;
      if (moved > 0) capabilityMoved = true;
      if (moved >= 0.1 * n) into.pairsMoved10++;
    });
    if (capabilityMoved) into.capabilitiesMoved++;
  });
}

async function sqlLedger(setup: LedgerSetup): Promise<Ledger> {
  const handle = await openDb({ pgliteDir: "memory://" });
  const ledger = await openSqlLedger(handle.db, setup);
  ledger.close = () => handle.close();
  return ledger;
}

/**
 * Runs every world of the evaluation: in this process (jobs 1, as the regression test does), or
 * spread over worker threads, each world being independent of the others.
 */
export async function runEvaluation(config: EvalConfig, log: (line: string) => void = () => {}, jobs = 1): Promise<EvalResult> {
  const started = performance.now();
  const policies = Object.fromEntries(POLICIES.map((p) => [p, emptyFigures()])) as Record<Policy, PolicyFigures>;
  const all = Object.keys(ADVERSARIES) as Array<Exclude<AdversaryKind, "none">>;
  const kinds = config.adversaries === true ? all : config.adversaries || [];
  const attacks: AttackFigures[] = kinds.map((adversary) => ({
    adversary,
    description: ADVERSARIES[adversary].description,
    listed: ADVERSARIES[adversary].listed,
    samples: 0,
    differing: 0,
    pairsMovedOnce: 0,
    pairsMoved10: 0,
    pairs: 0,
    capabilitiesMoved: 0,
    attackUsd: 0,
    paidReports: 0,
    honestPaidReports: 0,
    utilityLost: 0,
    movedToNearTie: 0,
  }));
  const worlds: EvalResult["worlds"] = [];
  const attackedSeeds = new Set(config.seeds.slice(0, config.adversarySeeds ?? config.seeds.length));
  const configs: WorldConfig[] = config.seeds.flatMap((seed) => {
    const base: WorldConfig = { seed, capabilities: config.capabilities, days: config.days, callsPerHour: config.callsPerHour, policy: "capdex", adversary: "none" };
    if (config.ledger === "sql") base.ledger = sqlLedger;
    const attacked = attackedSeeds.has(seed) ? attacks.map((a) => ({ ...base, adversary: a.adversary })) : [];
    return [...POLICIES.map((policy) => ({ ...base, policy })), ...attacked];
  });
  // A database cannot be handed to a worker thread: the SQL ledger's worlds run in this process.
  if (config.ledger === "sql") jobs = 1;
  const results = await runWorlds(configs, jobs, (w) =>
    log(`seed ${w.config.seed} ${w.config.policy}${w.config.adversary === "none" ? "" : ` + ${w.config.adversary}`}: ${(w.ms / 1000).toFixed(1)} s`),
  );
  const ceiling = hitsByPreset(CHECKPOINTS);
  const ceilingLong = hitsByPreset(LONG_CHECKPOINTS);
  for (const seed of config.seeds) {
    const mine = results.filter((w) => w.config.seed === seed);
    const clean = mine.find((w) => w.config.policy === "capdex" && w.config.adversary === "none")!;
    const network = generateNetwork(seed, config);
    const truth = new TruthBook();
    // As the world judges its hourly tops: the truth at the end of the hour.
    const utility: UtilityAt = (c, p, h, top) => truth.at(network.capabilities[c], network.startMs + (h + 1) * HOUR).utility[PRESETS[p]][top];
    for (const w of mine) {
      worlds.push({ seed, policy: w.config.policy, adversary: w.config.adversary, ms: w.ms, counts: w.counts });
      if (w.config.adversary === "none") addWorld(policies[w.config.policy], w);
      const a = attacks.find((x) => x.adversary === w.config.adversary);
      // A one-hour burst is compared from its hour on; the week-long attacks over the whole week.
      if (a) compareTops(a, clean, w, isBurst(a.adversary) ? burstAt(config.days) / HOUR : 0, utility);
    }
    const c = ceilingOf(network, new TruthBook());
    const long = ceilingOf(network, new TruthBook(), LONG_CHECKPOINTS);
    for (const p of PRESETS) {
      ceiling[p] = ceiling[p].map((h, k) => sumHits([h, c[p][k]]));
      ceilingLong[p] = ceilingLong[p].map((h, k) => sumHits([h, long[p][k]]));
    }
  }
  return { config, policies, attacks, ceiling, ceilingLong, worlds, ms: performance.now() - started };
}
