// The adversaries of the evaluation, each against every capability at once (caps and counts are
// per endpoint, so capabilities do not interact). Each one asks discover before reporting, so its
// reports carry the discovery bonus an honest caller's would. Targets are chosen from the truth at
// the start by the default preset: B1, the truly best endpoint, and B2, the runner-up. Those marked
// `listed` are in the issues' lists (and their target: no first place moved); the others go beyond
// them, to show where the defence ends. Each attack report says what the attacker paid for it (USD):
// the endpoint's price for a paid call to a rival, nothing for a call the attacker pays itself
// (the money comes back to it; x402's facilitator pays the gas).
import type { Principal } from "@/lib/auth/principal";
import { account, address, type Account } from "./agents";
import { DAY, HOUR, type Network, type TrueCapability } from "./network";
import { stream } from "./random";
import type { TruthBook } from "./truth";
import type { SimPayment } from "./ledger";
import { WEIGHTS } from "@/lib/outcomes/weights";

export type AdversaryKind =
  | "none"
  | "sybil_promoter"
  | "false_failures"
  | "burst"
  | "burst_accounts"
  | "burst_accounts_100"
  | "burst_accounts_1000"
  | "aged_accounts"
  | "aged_active_accounts"
  | "wash_trading"
  | "wash_trading_unlinked"
  | "wash_trading_spread"
  | "paid_false_failures";

export const ADVERSARIES: Record<Exclude<AdversaryKind, "none">, { description: string; listed: boolean }> = {
  sybil_promoter: { description: "B2's provider reports successes for B2 (fast ones) from 200 addresses, 100 an hour, all week", listed: true },
  false_failures: {
    description: "B2's provider reports B1's calls as failed (10 s timeouts): 100 an hour from 200 addresses and 16 an hour from its own API key, all week",
    listed: true,
  },
  burst: { description: "within one hour (10:00 on day 3 of a week): 1,000 failures for B1 and 1,000 successes for B2 from 500 addresses", listed: true },
  burst_accounts: { description: "the same burst from 10 fresh accounts (signed up the day before; 100 reports each)", listed: true },
  burst_accounts_100: { description: "the same burst from 100 fresh accounts (20 reports each)", listed: true },
  burst_accounts_1000: { description: "the same burst from 1,000 fresh accounts (2 reports each)", listed: true },
  aged_accounts: { description: "the 10-account burst from accounts signed up 30 days before and idle since (past the new-account age, no history)", listed: false },
  aged_active_accounts: {
    description: "the same from accounts signed up 30 days before that reported on 3 earlier days (past both the age and the history rule)",
    listed: false,
  },
  wash_trading: {
    description: "B2's provider pays B2 from 50 wallets funded from its own (linked to it), one successful fast call per wallet an hour, all week",
    listed: true,
  },
  wash_trading_unlinked: { description: "the same from 50 wallets funded through an exchange, so that nothing links them to the provider", listed: false },
  wash_trading_spread: {
    description:
      "the same unlinked wallets, each also paying (and reporting) calls to the cheapest other priced endpoint of the capability just before each call to B2, as much as the spread rule asks (at least B2's price)",
    listed: false,
  },
  paid_false_failures: {
    description: "B2's provider pays for real calls to B1 from 20 wallets (one per wallet an hour, all week) and reports each as failed",
    listed: true,
  },
};

/** Account bursts: how many accounts, how old they are at the burst, and on how many days they had reported before (users.report_days). */
const BURST_ACCOUNT_KINDS: Partial<Record<AdversaryKind, { accounts: number; ageDays: number; reportDays: number }>> = {
  burst_accounts: { accounts: 10, ageDays: 1, reportDays: 0 },
  burst_accounts_100: { accounts: 100, ageDays: 1, reportDays: 0 },
  burst_accounts_1000: { accounts: 1_000, ageDays: 1, reportDays: 0 },
  aged_accounts: { accounts: 10, ageDays: 30, reportDays: 0 },
  aged_active_accounts: { accounts: 10, ageDays: 30, reportDays: 3 },
};

export type AttackReport = {
  at: number;
  principal: Principal;
  endpointId: string;
  success: boolean;
  latencyMs: number;
  /** The call's verified payment, when the attacker paid for it. */
  payment?: SimPayment;
  /** What the attacker spent on it, in USD (a payment to itself costs nothing: the money comes back). */
  costUsd?: number;
};
export type Targets = { b1: number; b2: number };

/** The provider account that owns an endpoint (every endpoint's provider has one). */
export const ownerOf = (capability: number, endpoint: number): Account => account(2, capability * 8 + endpoint);
const burstAccount = (capability: number, n: number): Account => account(4, capability * 1_000 + n);
const agedAccount = (capability: number, n: number): Account => account(5, capability * 16 + n);
/** The accounts a burst adversary reports from: aged ones (signed up a month ahead) or fresh ones. */
const burstAccountOf = (kind: AdversaryKind) => (kind === "aged_accounts" || kind === "aged_active_accounts" ? agedAccount : burstAccount);
export const MAX_BURST_ACCOUNTS = 1_000;
/** The adversaries whose attack is one hour's burst (the rest report all week). */
export const isBurst = (kind: AdversaryKind) => kind === "burst" || BURST_ACCOUNT_KINDS[kind] !== undefined;
/** The burst's hour from the start: 10:00 on the middle day (day 3, the fourth, of a week). */
export function burstAt(days: number): number {
  return Math.floor(days / 2) * DAY + 10 * HOUR;
}
/** Accounts an adversary of this kind uses against this capability, with when they signed up and their history (they must exist in the database). */
export function adversaryAccounts(kind: AdversaryKind, capability: number, burstMs: number): Array<{ account: Account; createdAt: number; reportDays: number }> {
  const k = BURST_ACCOUNT_KINDS[kind];
  if (!k) return [];
  const of = burstAccountOf(kind);
  return Array.from({ length: k.accounts }, (_, n) => ({ account: of(capability, n), createdAt: burstMs - k.ageDays * DAY, reportDays: k.reportDays }));
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
  const emit = (at: number, principal: Principal, endpointId: string, success: boolean, latencyMs: number, payment?: SimPayment, costUsd?: number) =>
    list!.push({ at, principal, endpointId, success, latencyMs, ...(payment ? { payment, costUsd: costUsd ?? 0 } : {}) });
  if (kind === "sybil_promoter") {
    for (let i = 0; i < 100; i++) emit(hour + Math.floor(r.next() * HOUR), address(2, r.int(0, 199)), b2.id, true, fast);
  } else if (kind === "false_failures") {
    for (let i = 0; i < 100; i++) emit(hour + Math.floor(r.next() * HOUR), address(3, r.int(0, 199)), b1.id, false, 10_000);
    const competitor = ownerOf(cap.index, targets.b2);
    for (let i = 0; i < 16; i++) emit(hour + Math.floor(r.next() * HOUR), competitor, b1.id, false, 10_000);
  } else if (kind === "wash_trading" || kind === "wash_trading_unlinked") {
    // Reports from throwaway addresses, each carrying its wallet's payment to B2 (price back to B2's provider).
    for (let w = 0; w < 50; w++) {
      const payment = { wallet: `wash:${cap.index}:${w}`, provider: kind === "wash_trading" };
      emit(hour + Math.floor(r.next() * HOUR), address(6, cap.index * 64 + w), b2.id, true, fast, b2.price > 0 ? payment : undefined, 0);
    }
  } else if (kind === "wash_trading_spread") {
    // Each wallet's spend must be spread over providers to weigh as paid (WEIGHTS.paidSpreadShare):
    // real calls to another provider first, money that does not come back, then B2 (money that does).
    const others = cap.endpoints.filter((e, i) => i !== targets.b1 && i !== targets.b2 && e.price > 0).sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1));
    const other = others[0];
    // Calls to the rival that keep B2's share of the wallet's spend at paidSpreadShare: (1 - share) / share of B2's price.
    const share = WEIGHTS.paidSpreadShare;
    const rivalCalls = other ? Math.ceil((b2.price * (1 - share)) / share / other.price - WEIGHTS.paidSpreadTolerance) : 0;
    for (let w = 0; w < 50 && b2.price > 0; w++) {
      const payment = { wallet: `spread:${cap.index}:${w}`, provider: false };
      const at = hour + Math.floor(r.next() * (HOUR - 60_000));
      const principal = address(6, cap.index * 64 + w);
      for (let k = 0; k < rivalCalls; k++) emit(at + k * 100, principal, other!.id, true, other!.p50, payment, other!.price);
      emit(at + 30_000, principal, b2.id, true, fast, payment, 0);
    }
  } else if (kind === "paid_false_failures") {
    for (let w = 0; w < 20; w++) {
      const payment = { wallet: `rival:${cap.index}:${w}`, provider: false };
      emit(hour + Math.floor(r.next() * HOUR), address(7, cap.index * 32 + w), b1.id, false, 10_000, b1.price > 0 ? payment : undefined, b1.price);
    }
  } else if (hour === burstHour) {
    const accounts = BURST_ACCOUNT_KINDS[kind]?.accounts ?? 0;
    const of = burstAccountOf(kind);
    const n = kind === "burst" ? 2_000 : Math.max(1_000, 2 * accounts);
    for (let i = 0; i < n; i++) {
      const principal = kind === "burst" ? address(4, r.int(0, 499)) : of(cap.index, i % accounts);
      const success = i % 2 === 1;
      emit(hour + Math.floor(r.next() * HOUR), principal, success ? b2.id : b1.id, success, success ? fast : 10_000);
    }
  }
  list.sort((a, b) => a.at - b.at);
  if (hours.size > 2_000) hours.clear();
  hours.set(key, list);
  return list;
}
