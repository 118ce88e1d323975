// The adversaries of the evaluation, each against every capability at once (caps and counts are
// per endpoint, so capabilities do not interact). Each one asks discover before reporting, so its
// reports carry the discovery bonus an honest caller's would. Targets are chosen from the truth at
// the start by the default preset: B1, the truly best endpoint, and B2, the runner-up. The first
// three are the list (and its target); the last goes beyond it, to show where the defence ends.
import type { Principal } from "@/lib/auth/principal";
import { account, address, type Account } from "./agents";
import { DAY, HOUR, type Network, type TrueCapability } from "./network";
import { stream } from "./random";
import type { TruthBook } from "./truth";

export type AdversaryKind = "none" | "sybil_promoter" | "false_failures" | "burst" | "burst_accounts";

export const ADVERSARIES: Record<Exclude<AdversaryKind, "none">, { description: string; listed: boolean }> = {
  sybil_promoter: { description: "B2's provider reports successes for B2 (fast ones) from 200 addresses, 100 an hour, all week", listed: true },
  false_failures: {
    description: "B2's provider reports B1's calls as failed (10 s timeouts): 100 an hour from 200 addresses and 16 an hour from its own API key, all week",
    listed: true,
  },
  burst: { description: "within one hour (10:00 on day 3 of a week): 1,000 failures for B1 and 1,000 successes for B2 from 500 addresses", listed: true },
  burst_accounts: { description: "the same burst from 10 API keys the attacker signed up for (100 reports each)", listed: false },
};

export type AttackReport = { at: number; principal: Principal; endpointId: string; success: boolean; latencyMs: number };
export type Targets = { b1: number; b2: number };

/** The provider account that owns an endpoint (every endpoint's provider has one). */
export const ownerOf = (capability: number, endpoint: number): Account => account(2, capability * 8 + endpoint);
const burstAccount = (capability: number, n: number): Account => account(4, capability * 16 + n);
export const BURST_ACCOUNTS = 10;
/** The burst's hour from the start: 10:00 on the middle day (day 3, the fourth, of a week). */
export function burstAt(days: number): number {
  return Math.floor(days / 2) * DAY + 10 * HOUR;
}
/** Accounts an adversary of this kind uses against this capability (they must exist in the database). */
export function adversaryAccounts(capability: number): Account[] {
  return Array.from({ length: BURST_ACCOUNTS }, (_, n) => burstAccount(capability, n));
}

export function targetsOf(network: Network, truth: TruthBook): Targets[] {
  return network.capabilities.map((cap) => {
    const u = truth.at(cap, network.startMs).utility.default;
    const order = u.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x || a.i - b.i);
    return { b1: order[0].i, b2: order[1].i };
  });
}

/** Every adversary report against one capability in [from, to), oldest first. */
export function attackReports(kind: AdversaryKind, network: Network, cap: TrueCapability, targets: Targets, from: number, to: number): AttackReport[] {
  if (kind === "none") return [];
  const out: AttackReport[] = [];
  for (let hour = Math.floor(from / HOUR) * HOUR; hour < to; hour += HOUR) {
    for (const r of hourOfAttack(kind, network, cap, targets, hour)) if (r.at >= from && r.at < to) out.push(r);
  }
  return out;
}

// One hour's reports are drawn once (a world asks for them minute by minute).
const hours = new Map<string, AttackReport[]>();

function hourOfAttack(kind: AdversaryKind, network: Network, cap: TrueCapability, targets: Targets, hour: number): AttackReport[] {
  const key = `${kind}|${network.seed}|${network.capabilities.length}|${cap.index}|${targets.b1}|${targets.b2}|${hour}`;
  let list = hours.get(key);
  if (list) return list;
  list = [];
  const b1 = cap.endpoints[targets.b1];
  const b2 = cap.endpoints[targets.b2];
  const fast = Math.max(1, Math.round(Math.min(...cap.endpoints.map((e) => e.p50)) / 2));
  const burstHour = network.startMs + burstAt(Math.round((network.endMs - network.startMs) / DAY));
  const r = stream(network.seed, 40, cap.index, hour / HOUR);
  const emit = (at: number, principal: Principal, endpointId: string, success: boolean, latencyMs: number) =>
    list!.push({ at, principal, endpointId, success, latencyMs });
  if (kind === "sybil_promoter") {
    for (let i = 0; i < 100; i++) emit(hour + Math.floor(r.next() * HOUR), address(2, r.int(0, 199)), b2.id, true, fast);
  } else if (kind === "false_failures") {
    for (let i = 0; i < 100; i++) emit(hour + Math.floor(r.next() * HOUR), address(3, r.int(0, 199)), b1.id, false, 10_000);
    const competitor = ownerOf(cap.index, targets.b2);
    for (let i = 0; i < 16; i++) emit(hour + Math.floor(r.next() * HOUR), competitor, b1.id, false, 10_000);
  } else if (hour === burstHour) {
    const n = kind === "burst" ? 2_000 : 1_000;
    for (let i = 0; i < n; i++) {
      const principal = kind === "burst" ? address(4, r.int(0, 499)) : burstAccount(cap.index, i % BURST_ACCOUNTS);
      const success = i % 2 === 1;
      emit(hour + Math.floor(r.next() * HOUR), principal, success ? b2.id : b1.id, success, success ? fast : 10_000);
    }
  }
  list.sort((a, b) => a.at - b.at);
  if (hours.size > 2_000) hours.clear();
  hours.set(key, list);
  return list;
}
