// The simulated network: for each capability, 3 to 8 endpoints with hidden true qualities (share of
// paid calls that fail, latency distribution, price, outages), and what a call or a probe of one
// of them answers at a given time. Everything is drawn from the seed, so a seed is a network.
import catalogue from "@/lib/registry/capabilities.json";
import { logUniform, normal, stream, uniform, uuidOf } from "./random";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Monday 2026-01-05 00:00 UTC: simulated time starts here, on an hour and a day boundary. */
export const START_MS = Date.UTC(2026, 0, 5);

export type Outage = { start: number; end: number; kind: "hour" | "day" };

export type TrueEndpoint = {
  id: string;
  /** Position in its capability (0-based) and the capability's position. */
  index: number;
  capability: number;
  /** Share of paid calls that fail while the endpoint is up. */
  failure: number;
  /** Share of those failures a probe sees too (the server or its payment layer does not answer). */
  probeVisible: number;
  /** Median milliseconds of the network and payment-challenge part (all a probe measures) and of the work. */
  rttMs: number;
  workMs: number;
  workSigma: number;
  price: number;
  /** True p50 and p95 of a call's latency. */
  p50: number;
  p95: number;
  outages: Outage[];
};

export type TrueCapability = { index: number; id: string; endpoints: TrueEndpoint[] };
export type Network = { seed: number; startMs: number; endMs: number; capabilities: TrueCapability[] };

const CAPABILITY_IDS: string[] = (catalogue as { capabilities: { id: string }[] }).capabilities.map((c) => c.id);
const RTT_SIGMA = 0.25;

const networks = new Map<string, Network>();

/** The network of a seed (the same object for every world of a run: it is never modified). */
export function generateNetwork(seed: number, opts: { capabilities: number; days: number }): Network {
  const key = `${seed}|${opts.capabilities}|${opts.days}`;
  let network = networks.get(key);
  if (!network) networks.set(key, (network = drawNetwork(seed, opts)));
  return network;
}

function drawNetwork(seed: number, opts: { capabilities: number; days: number }): Network {
  const endMs = START_MS + opts.days * DAY;
  const capabilities: TrueCapability[] = [];
  for (let c = 0; c < Math.min(opts.capabilities, CAPABILITY_IDS.length); c++) {
    const r = stream(seed, 1, c);
    const n = r.int(3, 8);
    const endpoints: TrueEndpoint[] = [];
    for (let i = 0; i < n; i++) endpoints.push(drawEndpoint(seed, c, i, r.next, endMs));
    capabilities.push({ index: c, id: CAPABILITY_IDS[c], endpoints });
  }
  return { seed, startMs: START_MS, endMs, capabilities };
}

function drawEndpoint(seed: number, c: number, i: number, next: () => number, endMs: number): TrueEndpoint {
  // Most endpoints fail 0.1% to 5% of paid calls; one in six is poor (5% to 30%).
  const failure = next() < 5 / 6 ? logUniform(next(), 0.001, 0.05) : logUniform(next(), 0.05, 0.3);
  const rttMs = logUniform(next(), 20, 250);
  const workMs = logUniform(next(), 10, 2_000);
  const workSigma = 0.2 + 0.6 * next();
  // One in ten is free; the rest cost $0.0005 to $0.05 a call.
  const price = next() < 0.1 ? 0 : Math.round(logUniform(next(), 0.0005, 0.05) * 1e6) / 1e6;
  const outages: Outage[] = [];
  const span = endMs - START_MS;
  if (next() < 0.3) {
    const start = START_MS + Math.floor(next() * (span - HOUR));
    outages.push({ start, end: start + Math.round((0.5 + next()) * HOUR), kind: "hour" });
  }
  if (next() < 0.08) {
    const start = START_MS + Math.floor(next() * (span - DAY));
    outages.push({ start, end: start + DAY, kind: "day" });
  }
  outages.sort((a, b) => a.start - b.start);
  const e: TrueEndpoint = {
    id: uuidOf(0xe0000000 + seed, c, i),
    index: i,
    capability: c,
    failure,
    probeVisible: 0.2 + 0.6 * next(),
    rttMs,
    workMs,
    workSigma,
    price,
    p50: 0,
    p95: 0,
    outages,
  };
  // True quantiles from 2,000 keyed draws of the same distribution calls use.
  const xs = Float64Array.from({ length: 2_000 }, (_, k) => callLatency(e, seed, -1, k)).sort();
  e.p50 = xs[1_000];
  e.p95 = xs[1_900];
  return e;
}

export function isUp(e: TrueEndpoint, t: number): boolean {
  for (const o of e.outages) if (t >= o.start && t < o.end) return false;
  return true;
}

/** Latency of one paid call (ms): the network part plus the work, each log-normal. */
export function callLatency(e: TrueEndpoint, seed: number, call: number, k: number): number {
  const rtt = e.rttMs * Math.exp(RTT_SIGMA * normal(seed, 2, e.capability, e.index, call, k));
  const work = e.workMs * Math.exp(e.workSigma * normal(seed, 3, e.capability, e.index, call, k));
  return rtt + work;
}

export type Outcome = { success: boolean; latencyMs: number };

/**
 * What this endpoint answers to a capability's call-th call: the same answer in every world that
 * makes that call to it. In an outage the connection is refused after one round trip.
 */
export function callOutcome(e: TrueEndpoint, seed: number, call: number, t: number): Outcome {
  const rtt = e.rttMs * Math.exp(RTT_SIGMA * normal(seed, 4, e.capability, e.index, call));
  if (!isUp(e, t)) return { success: false, latencyMs: rtt };
  const success = uniform(seed, 5, e.capability, e.index, call) >= e.failure;
  return { success, latencyMs: callLatency(e, seed, call, 0) };
}

/**
 * A probe: an unpaid request answered by the payment challenge, so only the network part is timed,
 * and only the failures that happen before the work (probeVisible of them) are seen.
 */
export function probeOutcome(e: TrueEndpoint, seed: number, n: number, t: number): Outcome {
  const latencyMs = e.rttMs * Math.exp(RTT_SIGMA * normal(seed, 6, e.capability, e.index, n));
  if (!isUp(e, t)) return { success: false, latencyMs };
  return { success: uniform(seed, 7, e.capability, e.index, n) >= e.failure * e.probeVisible, latencyMs };
}

/** Expected success of a paid call at t (0 in an outage). */
export function trueSuccess(e: TrueEndpoint, t: number): number {
  return isUp(e, t) ? 1 - e.failure : 0;
}

/** Expected success over [from, to): the share of that time the endpoint was up, times 1 - failure. */
export function trueSuccessOver(e: TrueEndpoint, from: number, to: number): number {
  let down = 0;
  for (const o of e.outages) down += Math.max(0, Math.min(to, o.end) - Math.max(from, o.start));
  return (1 - down / (to - from)) * (1 - e.failure);
}
