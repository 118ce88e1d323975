// One simulated world: a network, honest agents who discover, call the first endpoint, fall back
// on failure and report honestly, Capdex's probes, and optionally an adversary, minute by minute.
// Reports are counted into a ledger at the end of each minute (the rollup job), and the ranking
// reads the figures that gives, so the ranking lags the reports by about a minute, as in service.
import type { Candidate } from "@/lib/discovery/candidates";
import type { RankingPreset } from "@/lib/schemas/discover";
import { attackReports, burstAt, ownerOf, targetsOf, adversaryAccounts, type AdversaryKind } from "./adversary";
import { honestAccounts, honestAgent, honestWallet, MAX_ATTEMPTS, orderFor, type Policy } from "./agents";
import { FiguresStore } from "./figures";
import { MemoryLedger, type Ledger, type LedgerSetup, type SimReport } from "./ledger";
import { CHECKPOINTS, Metrics } from "./metrics";
import { callOutcome, DAY, generateNetwork, HOUR, probeOutcome, trueSuccess, type Network, type TrueCapability } from "./network";
import { newProbeState, recordProbeResult, type ProbeState } from "./probes";
import { stream, uniform, uuidOf } from "./random";
import { PRESETS, TruthBook, type Truth } from "./truth";
import { OutageWatch } from "./outage-watch";

export type WorldConfig = {
  seed: number;
  capabilities: number;
  days: number;
  /** Honest calls per capability per hour. */
  callsPerHour: number;
  policy: Policy;
  adversary: AdversaryKind;
  /** Minutes between runs of the rollup job (default 1; tests on a database count less often). */
  countEveryMinutes?: number;
  /** Defaults to the in-memory ledger. */
  ledger?: (setup: LedgerSetup) => Promise<Ledger>;
  /** Check the incremental figures against a full recomputation each time (tests). */
  verifyFigures?: boolean;
  /** Called every hour with each capability's candidates and truth (diagnostics). */
  inspect?: (at: number, cap: TrueCapability, candidates: readonly Candidate[], truth: Truth) => void;
  /** Called with every discover answer (tests compare two ledgers' worlds by it). */
  onAnswer?: (at: number, capability: number, preset: RankingPreset, order: string[]) => void;
};

export type WorldResult = {
  config: Omit<WorldConfig, "ledger" | "onAnswer" | "verifyFigures" | "inspect">;
  metrics: Metrics;
  /** Top endpoint (index) per capability, preset and hour of the run. */
  tops: Int8Array[][];
  counts: { honestReports: number; paidHonestReports: number; probeReports: number; attackReports: number; paidAttackReports: number; attackUsd: number; calls: number };
  ms: number;
};

const STEP = 60_000;

export function ledgerSetup(network: Network, adversary: AdversaryKind = "none"): LedgerSetup {
  // Honest callers' and providers' accounts are established (a year old, reporting for as long); an adversary's sign up when it says.
  const established = network.startMs - 365 * DAY;
  const burstMs = network.startMs + burstAt(Math.round((network.endMs - network.startMs) / DAY));
  return {
    endpoints: network.capabilities.flatMap((cap) =>
      cap.endpoints.map((e) => ({ id: e.id, capabilityId: cap.id, price: e.price, ownerUserId: ownerOf(cap.index, e.index).userId })),
    ),
    accounts: [
      ...honestAccounts.map((account) => ({ account, createdAt: established, reportDays: 365 })),
      ...network.capabilities.flatMap((cap) => [
        ...cap.endpoints.map((e) => ({ account: ownerOf(cap.index, e.index), createdAt: established, reportDays: 365 })),
        ...adversaryAccounts(adversary, cap.index, burstMs),
      ]),
    ].map(({ account, createdAt, reportDays }) => ({ apiKeyId: account.apiKeyId, userId: account.userId, createdAt, reportDays })),
  };
}

type Event =
  | { at: number; kind: "call"; cap: TrueCapability; n: number }
  | { at: number; kind: "probe"; cap: TrueCapability; e: number }
  | { at: number; kind: "attack"; cap: TrueCapability; report: ReturnType<typeof attackReports>[number]; n: number };

export async function runWorld(config: WorldConfig): Promise<WorldResult> {
  const started = performance.now();
  const { seed, policy } = config;
  const network = generateNetwork(seed, config);
  const truth = new TruthBook();
  const targets = targetsOf(network, truth);
  const setup = ledgerSetup(network, config.adversary);
  const ledger = config.ledger ? await config.ledger(setup) : new MemoryLedger(setup);
  const store = new FiguresStore(ledger, config.verifyFigures);
  const metrics = new Metrics();
  const caps = network.capabilities;
  const probes: ProbeState[][] = caps.map((cap) => cap.endpoints.map((e) => newProbeState(seed, cap.index, e.index, network.startMs)));
  const arrivals = caps.map((cap) => stream(seed, 10, cap.index));
  const ratePerMs = config.callsPerHour / HOUR;
  const nextCall = caps.map((_, c) => ({ at: network.startMs + arrivals[c].exponential(ratePerMs), n: 0 }));
  const honest = new Int32Array(caps.length);
  const reportsTo = caps.map((cap) => new Int32Array(cap.endpoints.length));
  const hours = Math.ceil((network.endMs - network.startMs) / HOUR);
  const tops = caps.map(() => PRESETS.map(() => new Int8Array(hours).fill(-1)));
  const counts = { honestReports: 0, paidHonestReports: 0, probeReports: 0, attackReports: 0, paidAttackReports: 0, attackUsd: 0, calls: 0 };
  let draws = 0;
  const draw = () => uniform(seed, 50, draws++);

  // Candidates per capability, rebuilt only when a figure or a probe state changed (the same array
  // lets rank.ts reuse its scored list, as the service's candidate cache does).
  const cached: Array<{ list: Candidate[]; probeVersion: number } | null> = caps.map(() => null);
  const probeVersion = new Int32Array(caps.length);
  const candidatesOf = (cap: TrueCapability, now: number): Candidate[] => {
    const c = cached[cap.index];
    if (c && c.probeVersion === probeVersion[cap.index] && cap.endpoints.every((e) => store.unchanged(e.id, now))) return c.list;
    const list = cap.endpoints
      .map((e, i): Candidate => {
        const p = probes[cap.index][i];
        return {
          id: e.id,
          providerName: `Provider ${cap.index}.${i}`,
          url: `https://api${i}.${cap.id}.example/v1`,
          method: "GET",
          paymentType: "x402",
          pricePerCall: e.price,
          network: "base",
          networkName: "base",
          networks: e.price > 0 ? ["base"] : [],
          acceptedAssets: ["USDC"],
          checkState: p.checkState,
          domainVerified: true,
          consecutiveFailures: p.consecutiveFailures,
          lastCheckOk: p.lastCheckOk,
          lastVerifiedAt: null,
          figures: store.get(e.id, now),
          source: "submission",
          call: null,
          assetKeys: ["usdc"],
          schemes: ["exact"],
          description: "",
          declaration: null,
          paymentSeen: null,
          changedAt: new Date(0).toISOString(),
        };
      })
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    cached[cap.index] = { list, probeVersion: probeVersion[cap.index] };
    return list;
  };
  const indexOf = (cap: TrueCapability, id: string) => cap.endpoints.findIndex((e) => e.id === id);
  const order = (cap: TrueCapability, preset: RankingPreset, now: number) => orderFor(policy, cap.id, candidatesOf(cap, now), preset, now, draw);
  const topOf = (cap: TrueCapability, preset: RankingPreset, now: number) => indexOf(cap, order(cap, preset, now)[0].id);
  const watch = new OutageWatch(network, metrics, topOf, truth, (cap, e) => reportsTo[cap][e]);

  const add = (r: SimReport) => ledger.addReport(r);

  function call(cap: TrueCapability, n: number, at: number) {
    const { principal, preset } = honestAgent(seed, cap.index, n);
    const wallet = honestWallet(principal);
    const list = order(cap, preset, at);
    config.onAnswer?.(at, cap.index, preset, list.map((c) => c.id));
    const discoveryId = uuidOf(0xd1000000, cap.index, n);
    ledger.addDiscovery({ id: discoveryId, at, capabilityId: cap.id, principal, endpointIds: list.map((c) => c.id) });
    const t = truth.at(cap, at);
    const first = indexOf(cap, list[0].id);
    const tally = metrics.agents[preset];
    tally.calls++;
    tally.first += trueSuccess(cap.endpoints[first], at);
    tally.oracle += trueSuccess(cap.endpoints[t.best[preset]], at);
    tally.gap += t.utility[preset][t.best[preset]] - t.utility[preset][first];
    let when = at + 200;
    for (let j = 0; j < Math.min(MAX_ATTEMPTS, list.length); j++) {
      const i = indexOf(cap, list[j].id);
      const o = callOutcome(cap.endpoints[i], seed, n, when);
      when += Math.round(o.latencyMs);
      // A paying caller's successful call was settled (x402 settles once the answer is served), and it
      // sends the settlement with its report; a failed call was not paid, so it reports without.
      const payment = wallet && o.success && cap.endpoints[i].price > 0 ? { wallet, provider: false } : null;
      add({ id: uuidOf(0x71000000, cap.index, n * 4 + j), endpointId: list[j].id, at: when, success: o.success, latencyMs: o.latencyMs, discoveryId, principal, payment });
      if (payment) counts.paidHonestReports++;
      honest[cap.index]++;
      reportsTo[cap.index][i]++;
      counts.honestReports++;
      when += 100;
      if (o.success) {
        tally.eventual++;
        break;
      }
    }
    counts.calls++;
  }

  function probe(cap: TrueCapability, i: number, at: number) {
    const s = probes[cap.index][i];
    const o = probeOutcome(cap.endpoints[i], seed, s.n, at);
    const n = s.n;
    const before = `${s.checkState}|${s.consecutiveFailures}|${s.lastCheckOk}`;
    recordProbeResult(s, o.success, at, seed, cap.index * 8 + i);
    if (`${s.checkState}|${s.consecutiveFailures}|${s.lastCheckOk}` !== before) probeVersion[cap.index]++;
    add({ id: uuidOf(0x72000000, cap.index * 8 + i, n), endpointId: cap.endpoints[i].id, at, success: o.success, latencyMs: o.latencyMs, discoveryId: null, principal: null });
    counts.probeReports++;
  }

  function attack(cap: TrueCapability, r: ReturnType<typeof attackReports>[number], n: number) {
    const discoveryId = uuidOf(0xda000000, cap.index, n);
    ledger.addDiscovery({ id: discoveryId, at: r.at - 2_000, capabilityId: cap.id, principal: r.principal, endpointIds: cap.endpoints.map((e) => e.id) });
    add({ id: uuidOf(0x73000000, cap.index, n), endpointId: r.endpointId, at: r.at, success: r.success, latencyMs: r.latencyMs, discoveryId, principal: r.principal, payment: r.payment ?? null });
    counts.attackReports++;
    if (r.payment) counts.paidAttackReports++;
    counts.attackUsd += r.costUsd ?? 0;
  }

  const attackN = new Int32Array(caps.length);
  for (let t = network.startMs; t < network.endMs; t += STEP) {
    const to = t + STEP;
    const events: Event[] = [];
    for (const cap of caps) {
      const c = cap.index;
      while (nextCall[c].at < to) {
        events.push({ at: Math.floor(nextCall[c].at), kind: "call", cap, n: nextCall[c].n++ });
        nextCall[c].at += arrivals[c].exponential(ratePerMs);
      }
      const ps = probes[c];
      for (let e = 0; e < ps.length; e++) if (ps[e].nextAt < to) events.push({ at: ps[e].nextAt, kind: "probe", cap, e });
      for (const report of attackReports(config.adversary, network, cap, targets[c], t, to)) {
        events.push({ at: report.at, kind: "attack", cap, report, n: attackN[c]++ });
      }
    }
    events.sort((a, b) => a.at - b.at);
    const before = Int32Array.from(honest);
    for (const ev of events) {
      if (ev.kind === "call") call(ev.cap, ev.n, ev.at);
      else if (ev.kind === "probe") probe(ev.cap, ev.e, ev.at);
      else attack(ev.cap, ev.report, ev.n);
    }
    if ((to - network.startMs) % ((config.countEveryMinutes ?? 1) * STEP) === 0) store.changed(await ledger.count());

    for (const cap of caps) {
      const c = cap.index;
      for (let k = 0; k < CHECKPOINTS.length; k++) {
        if (before[c] < CHECKPOINTS[k] && honest[c] >= CHECKPOINTS[k]) {
          const tr = truth.at(cap, to);
          for (const p of PRESETS) {
            metrics.judge(metrics.checkpoints[p][k], tr, p, topOf(cap, p, to));
            if (policy !== "capdex") metrics.judge(metrics.capdexView[p][k], tr, p, indexOf(cap, orderFor("capdex", cap.id, candidatesOf(cap, to), p, to, draw)[0].id));
          }
        }
      }
    }
    if ((to - network.startMs) % HOUR === 0) {
      const h = (to - network.startMs) / HOUR - 1;
      const day = Math.floor((to - 1 - network.startMs) / DAY);
      for (const cap of caps) {
        const tr = truth.at(cap, to);
        config.inspect?.(to, cap, candidatesOf(cap, to), tr);
        PRESETS.forEach((p, pi) => {
          const top = topOf(cap, p, to);
          tops[cap.index][pi][h] = top;
          metrics.judge(metrics.hourlyFor(p, day), tr, p, top);
        });
      }
    }
    watch.step(to, STEP);
  }
  watch.finish();
  await ledger.close();
  const { ledger: _l, onAnswer: _o, verifyFigures: _v, inspect: _i, ...plain } = config;
  return { config: plain, metrics, tops, counts, ms: performance.now() - started };
}
