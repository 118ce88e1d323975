// Where the simulation's reports are counted into hourly rollups. Two ledgers with one interface:
// SqlLedger (sql-ledger.ts) stores them in a database and runs the rollup job's own statement;
// MemoryLedger below applies the same rules in memory, thousands of times faster, for full-size
// runs. Its rules are the statement's, step by step (lib/outcomes/rollup.ts); the constants and the
// reporter keys come from lib/outcomes/weights.ts itself, and tests/integration/ranking-ledger.test.ts
// runs a simulation through both and requires identical rollups.
import type { Principal } from "@/lib/auth/principal";
import { bucketOf } from "@/lib/outcomes/histogram";
import {
  ACCOUNT_FAILURES_KEY,
  ACCOUNT_SUCCESSES_KEY,
  ACCOUNTS_POOL_KEY,
  ANONYMOUS_POOL_KEY,
  CAPS,
  PAID_POOL_KEY,
  WEIGHTS,
  anonymousReporterKey,
  reporterOf,
  type Reporter,
} from "@/lib/outcomes/weights";

/** An endpoint-hour of outcome_rollups; `hist` is latency_hist (bucket -> weight) as a Map, quicker to walk. */
export type HourRow = { hour: number; reports: number; successes: number; wSuccess: number; wTotal: number; hist: Map<number, number> };

/**
 * Verified payment evidence of a report (lib/payments): the paying wallet, and whether it is the
 * provider's own (its pay-to address or a wallet funded from it), which the rollup weighs 0.
 */
export type SimPayment = { wallet: string; provider: boolean };

/** One outcome report; `principal` null is a first-party probe. Times are epoch milliseconds. */
export type SimReport = {
  id: string;
  endpointId: string;
  at: number;
  success: boolean;
  latencyMs: number | null;
  discoveryId: string | null;
  principal: Principal | null;
  /** Verified payment evidence attached to the report, if any. */
  payment?: SimPayment | null;
};

export type SimDiscovery = { id: string; at: number; capabilityId: string; principal: Principal; endpointIds: string[] };

export type LedgerSetup = {
  endpoints: Array<{ id: string; capabilityId: string; price: number; ownerUserId: string | null }>;
  /**
   * createdAt: when the account signed up (epoch ms); younger than WEIGHTS.newAccountDays, its unpaid
   * reports weigh newAccountFactor as much. reportDays: the UTC days on which its reports were counted
   * before the simulation (users.report_days; under WEIGHTS.historyDays, the same discount).
   */
  accounts: Array<{ apiKeyId: string; userId: string; createdAt: number; reportDays: number }>;
};

export interface Ledger {
  addDiscovery(d: SimDiscovery): void;
  addReport(r: SimReport): void;
  /** Counts every report added since the last call, as one run of the rollup job; the endpoints it counted weight for. */
  count(): Promise<Set<string>>;
  /** The endpoint's hourly rollups, by hour start. */
  rows(endpointId: string): Map<number, HourRow>;
  close(): Promise<void>;
}

export const hourOf = (t: number) => Math.floor(t / 3_600_000) * 3_600_000;

const PROBE: Reporter = { kind: "probe", key: "probe", userId: null, baseWeight: WEIGHTS.probe };

/** The rollup's report order: oldest first, then by id (the statement's window order). */
export const byTimeThenId = (a: SimReport, b: SimReport) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class MemoryLedger implements Ledger {
  private pending: SimReport[] = [];
  private discoveries = new Map<string, { at: number; principalKey: string; endpointIds: readonly string[] }>();
  private owners = new Map<string, string | null>();
  /** Capability of each endpoint, and the accounts owning a provider in each capability. */
  private capabilityOf = new Map<string, string>();
  private ownersIn = new Map<string, Set<string>>();
  private keyOwners = new Map<string, string>();
  /** The users rows of the accounts: created_at, report_days and last_report_day (a UTC day number; -Infinity before the first). */
  private accounts = new Map<string, { createdAt: number; reportDays: number; lastDay: number }>();
  /** reporter_weights: uncapped weight per endpoint, hour and reporter, and capped weight per anonymous pool. */
  private totals = new Map<string, number>();
  private hourly = new Map<string, Map<number, HourRow>>();
  private anonymousKeys = new Map<string, string>();
  /** Listed price of each endpoint (a payment's value for the wallet's spread). */
  private prices = new Map<string, number>();
  /** payment_evidence per wallet: every payment added, all of it and per provider (the sim has one provider per endpoint). */
  private spend = new Map<string, { all: SpendLog; byProvider: Map<string, SpendLog> }>();

  constructor(setup: LedgerSetup) {
    for (const e of setup.endpoints) {
      this.prices.set(e.id, e.price);
      this.owners.set(e.id, e.ownerUserId);
      this.capabilityOf.set(e.id, e.capabilityId);
      if (!this.ownersIn.has(e.capabilityId)) this.ownersIn.set(e.capabilityId, new Set());
      if (e.ownerUserId !== null) this.ownersIn.get(e.capabilityId)!.add(e.ownerUserId);
    }
    for (const a of setup.accounts) {
      this.keyOwners.set(`key:${a.apiKeyId}`, a.userId);
      this.accounts.set(a.userId, { createdAt: a.createdAt, reportDays: a.reportDays, lastDay: -Infinity });
    }
  }

  addDiscovery(d: SimDiscovery): void {
    this.discoveries.set(d.id, { at: d.at, principalKey: d.principal.key, endpointIds: d.endpointIds });
  }

  addReport(r: SimReport): void {
    this.pending.push(r);
    // Its evidence is stored with it, whatever the report weighs (the rollup reads it for the wallet's spread).
    if (r.principal && r.payment) {
      let s = this.spend.get(r.payment.wallet);
      if (!s) this.spend.set(r.payment.wallet, (s = { all: new SpendLog(), byProvider: new Map() }));
      const value = paymentValue(this.prices.get(r.endpointId) ?? 0);
      s.all.add(r.at, value);
      let p = s.byProvider.get(r.endpointId);
      if (!p) s.byProvider.set(r.endpointId, (p = new SpendLog()));
      p.add(r.at, value);
    }
  }

  /**
   * The wallet's spread (WEIGHTS.paidSpreadShare): what it paid this endpoint's provider in the
   * paidSpreadDays up to the report, this call included, is at most that share of all it paid.
   */
  private spreadOk(r: SimReport, wallet: string): boolean {
    const s = this.spend.get(wallet)!;
    const from = r.at - WEIGHTS.paidSpreadDays * 86_400_000;
    const here = s.byProvider.get(r.endpointId)!.sum(from, r.at);
    return here <= WEIGHTS.paidSpreadShare * s.all.sum(from, r.at) + WEIGHTS.paidSpreadTolerance;
  }

  async count(): Promise<Set<string>> {
    const batch = this.pending.sort(byTimeThenId);
    this.pending = [];
    const changed = new Set<string>();
    for (const r of batch) {
      // As the rollup marks figures for recomputing: only where some weight was counted.
      if (this.countOne(r) > 0) changed.add(r.endpointId);
    }
    // The accounts' history, as the rollup keeps it: the batch's new UTC days, after weighing it.
    const days = new Map<string, Set<number>>();
    for (const r of batch) {
      if (r.principal?.kind !== "authenticated") continue;
      const account = this.accounts.get(r.principal.userId);
      const day = Math.floor(r.at / 86_400_000);
      if (account && day > account.lastDay) days.set(r.principal.userId, (days.get(r.principal.userId) ?? new Set()).add(day));
    }
    for (const [userId, set] of days) {
      const account = this.accounts.get(userId)!;
      account.reportDays += set.size;
      account.lastDay = Math.max(...set);
    }
    if (batch.length) this.forgetBefore(batch[batch.length - 1].at);
    return changed;
  }

  rows(endpointId: string): Map<number, HourRow> {
    let m = this.hourly.get(endpointId);
    if (!m) this.hourly.set(endpointId, (m = new Map()));
    return m;
  }

  async close(): Promise<void> {}

  private countOne(r: SimReport): number {
    const sender = r.principal ? this.reporterOf(r.principal) : PROBE;
    const evidence = sender.kind !== "probe" && r.payment ? r.payment : null;
    // A verified paid report of a success counts as the paying wallet's (kind "paid"), whoever sent it;
    // a failure with evidence counts as the sender's unpaid report (the provider's wallet: 0 either way).
    const paid = evidence && r.success && this.spreadOk(r, evidence.wallet) ? evidence : null;
    const kind = paid ? "paid" : sender.kind;
    const key = paid ? `p:${paid.wallet}` : sender.key;
    const hour = hourOf(r.at);
    // weighed: nothing for the provider's own account or a competitor's, nor for the provider's own
    // wallet; the paid weight for other verified payments; double when tied to the caller's discovery;
    // an unpaid report from a young account, or one with too short a history, at newAccountFactor.
    let w: number;
    if (sender.userId !== null && this.owners.get(r.endpointId) === sender.userId) w = WEIGHTS.ownProvider;
    else if (sender.userId !== null && this.ownersIn.get(this.capabilityOf.get(r.endpointId)!)?.has(sender.userId)) w = WEIGHTS.competitor;
    else if (evidence?.provider) w = WEIGHTS.providerPayer;
    else {
      const base = paid ? WEIGHTS.paid : sender.baseWeight;
      w = base !== 0 && this.tiedToDiscovery(r, sender) ? base * WEIGHTS.discoveryBonus : base;
      const account = sender.userId !== null ? this.accounts.get(sender.userId) : undefined;
      const young = account && (account.createdAt > r.at - WEIGHTS.newAccountDays * 86_400_000 || account.reportDays < WEIGHTS.historyDays);
      if (!paid && young) w *= WEIGHTS.newAccountFactor;
    }
    // capped: as far as the reporter's uncapped total for the endpoint-hour leaves room.
    let cw = w;
    if (kind !== "probe" && w !== 0) {
      const k = `${r.endpointId}|${hour}|${key}`;
      const used = this.totals.get(k) ?? 0;
      const cap = kind === "paid" ? CAPS.paidPerPayer : kind === "authenticated" ? CAPS.authenticatedPerReporter : CAPS.anonymousPerReporter;
      cw = Math.max(0, Math.min(w, cap - used));
      if (w > 0) this.totals.set(k, used + w);
    }
    // counted: each kind (anonymous, unpaid accounts, paying wallets) then shares its endpoint-hour pool, again oldest first.
    let fw = cw;
    if (kind !== "probe" && cw > 0) {
      const pool = kind === "anonymous" ? ANONYMOUS_POOL_KEY : kind === "paid" ? PAID_POOL_KEY : ACCOUNTS_POOL_KEY;
      const k = `${r.endpointId}|${hour}|${pool}`;
      const used = this.totals.get(k) ?? 0;
      fw = Math.max(0, Math.min(cw, (kind === "anonymous" ? CAPS.anonymousPerEndpoint : kind === "paid" ? CAPS.paidPerEndpoint : CAPS.authenticatedPerEndpoint) - used));
      this.totals.set(k, used + cw);
    }
    // limited: unpaid accounts' failures, as far as they outweigh the same accounts' successes of the endpoint-hour by no more than accountFailureExcess.
    if (kind === "authenticated" && fw > 0) {
      const successes = this.totals.get(`${r.endpointId}|${hour}|${ACCOUNT_SUCCESSES_KEY}`) ?? 0;
      const k = `${r.endpointId}|${hour}|${r.success ? ACCOUNT_SUCCESSES_KEY : ACCOUNT_FAILURES_KEY}`;
      const used = this.totals.get(k) ?? 0;
      this.totals.set(k, used + fw);
      if (!r.success) fw = Math.max(0, Math.min(fw, CAPS.accountFailureExcess + successes - used));
    }
    const rows = this.rows(r.endpointId);
    let row = rows.get(hour);
    if (!row) rows.set(hour, (row = { hour, reports: 0, successes: 0, wSuccess: 0, wTotal: 0, hist: new Map() }));
    row.reports++;
    if (r.success) {
      row.successes++;
      row.wSuccess += fw;
    }
    row.wTotal += fw;
    // Stored in whole milliseconds, as the insert rounds them.
    if (r.latencyMs !== null && fw > 0) {
      const b = bucketOf(Math.round(r.latencyMs));
      row.hist.set(b, (row.hist.get(b) ?? 0) + fw);
    }
    return fw;
  }

  private reporterOf(p: Principal): Reporter {
    if (p.kind === "authenticated") return reporterOf(p);
    let key = this.anonymousKeys.get(p.key);
    if (!key) this.anonymousKeys.set(p.key, (key = anonymousReporterKey(p.key)));
    return { kind: "anonymous", key, userId: null, baseWeight: WEIGHTS.anonymous };
  }

  /** The caller received this endpoint from this discovery in the hour before the report (5 minutes' slack after). */
  private tiedToDiscovery(r: SimReport, reporter: Reporter): boolean {
    if (r.discoveryId === null || reporter.kind === "probe") return false;
    const d = this.discoveries.get(r.discoveryId);
    if (!d || !d.endpointIds.includes(r.endpointId)) return false;
    if (!(d.at > r.at - WEIGHTS.discoveryWindowMinutes * 60_000 && d.at < r.at + WEIGHTS.discoveryClockSlackMinutes * 60_000)) return false;
    if (reporter.kind === "authenticated") return this.keyOwners.get(d.principalKey) === reporter.userId;
    let key = this.anonymousKeys.get(d.principalKey);
    if (!key) this.anonymousKeys.set(d.principalKey, (key = anonymousReporterKey(d.principalKey)));
    return key === reporter.key;
  }

  /** Drops discoveries and cap totals that can no longer matter (as pruneReporterWeights does). */
  private forgetBefore(t: number): void {
    const cutoff = t - 2 * 3_600_000;
    for (const [id, d] of this.discoveries) {
      if (d.at >= cutoff) break; // inserted in time order
      this.discoveries.delete(id);
    }
    if (this.totals.size > 200_000) {
      for (const key of this.totals.keys()) if (Number(key.split("|")[1]) < hourOf(cutoff)) this.totals.delete(key);
    }
  }
}

/** A payment's value for the wallet's spread: the endpoint's listed price, at least paidSpreadMinValue (as the rollup). */
const paymentValue = (price: number) => Math.max(price, WEIGHTS.paidSpreadMinValue);

/** Payments of one wallet (to one provider, or to all) in time order, with prefix sums: sum over (from, to]. */
class SpendLog {
  private at: number[] = [];
  private prefix: number[] = [0];

  add(at: number, value: number): void {
    let i = this.at.length;
    while (i > 0 && this.at[i - 1] > at) i--;
    this.at.splice(i, 0, at);
    this.prefix.splice(i + 1, 0, this.prefix[i] + value);
    for (let j = i + 2; j < this.prefix.length; j++) this.prefix[j] += value;
  }

  /** Sum of the values at times in (from, to]. */
  sum(from: number, to: number): number {
    return this.prefix[this.upper(to)] - this.prefix[this.upper(from)];
  }

  /** How many entries are at or before t. */
  private upper(t: number): number {
    let lo = 0, hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
