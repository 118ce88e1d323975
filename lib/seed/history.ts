// The demo network's recent past, planned in memory: how much traffic each hour saw and how each
// endpoint behaved. Pure and deterministic (the same endpoints, clock hour and seed give the same
// history); lib/seed/demo.ts writes it. What it models:
// - traffic that follows the day (busiest mid-afternoon UTC, quietest before dawn) and the week
//   (weekends lighter), and grows about 3.5% a day;
// - endpoints with different profiles (solid, steady, flaky, slow, new), popular capabilities and
//   popular endpoints within them (agents call the ones ranked first);
// - endpoints that went bad: the failing ones broke at some hour of the last three days (and agents
//   moved away from them); some unverified ones have been fading all week;
// - two incidents: a two-hour degradation of every endpoint on Base about a day ago, and a
//   six-hour outage of one provider four days ago.
// The current hour is partial: only the part of it that has passed holds traffic.
import { createRandom } from "./random";

export type HistoryEndpoint = { id: string; capabilityId: string; providerId: string; network: string; checkState: string };
export type HistoryOptions = { days?: number; seed?: number; volume?: number };
/** One report: endpoint index, seconds from the start of the current hour (negative: earlier), outcome. */
export type PlannedReport = [endpoint: number, at: number, success: 0 | 1, latencyMs: number, status: number, authenticated: 0 | 1, reporter: number];
/** Discover requests of one capability in one hour (hours ago: 0 is the current hour). */
export type PlannedCounter = [capability: number, hoursAgo: number, requests: number, intentRequests: number];

export const HISTORY_DAYS = 8;
/** How many of the registry's first capabilities make the popular head of the demo's traffic. */
export const POPULAR_HEAD = 100;
/** Outcome reports per hour across the network at a weekday's peak today (before `volume`). */
export const PEAK_REPORTS_PER_HOUR = 600;
/** Discover requests per hour across the network at a weekday's peak today. */
export const PEAK_DISCOVERS_PER_HOUR = 820;
export const INCIDENTS = {
  /** Every endpoint on this network answers badly for these hours ago (inclusive). */
  network: { network: "base", from: 28, to: 27, success: 0.45, latency: 2.4 },
  /** The provider with the most endpoints is down for these hours ago. */
  provider: { from: 101, to: 96, success: 0.03, latency: 6 },
} as const;

type Profile = "solid" | "steady" | "flaky" | "slow" | "new" | "went_bad" | "fading";
type Plan = {
  profile: Profile;
  share: number;
  success: number;
  median: number;
  sigma: number;
  /** new: the hour (ago) of its first report; went_bad: the hour it broke, and its success since. */
  startAgo: number;
  badAgo: number;
  badSuccess: number;
  /** fading: how much success it has lost by now. */
  fade: number;
};

const AUTH_REPORTERS = 40;
const ANON_REPORTERS = 400;
const FAILURE_STATUS = [500, 502, 503, 503, 504, 429];
const PROFILE_SHARE: Record<Profile, number> = { solid: 3, steady: 2, flaky: 1.2, slow: 1, new: 0.4, went_bad: 2.2, fading: 1.5 };

/** The day's rhythm: 1 at 15:00 UTC, 0.45 at 03:00 UTC. */
export function dailyRhythm(hour: Date): number {
  return 0.45 + 0.55 * (0.5 + 0.5 * Math.cos((2 * Math.PI * (hour.getUTCHours() - 15)) / 24));
}

/** Traffic relative to a weekday's peak today: daily and weekly rhythm, growth, a little noise. */
export function trafficAt(hour: Date, hoursAgo: number, noise = 1): number {
  const daily = dailyRhythm(hour);
  const day = hour.getUTCDay();
  const weekly = day === 6 ? 0.72 : day === 0 ? 0.66 : day === 5 ? 0.95 : 1;
  return daily * weekly * Math.pow(1.035, -hoursAgo / 24) * noise;
}

export function planHistory(
  endpoints: readonly HistoryEndpoint[],
  capabilities: readonly string[],
  currentHour: Date,
  secondsIntoHour: number,
  opts: HistoryOptions = {},
): { reports: PlannedReport[]; counters: PlannedCounter[] } {
  const rnd = createRandom(opts.seed ?? 42);
  const normal = () => Math.sqrt(-2 * Math.log(Math.max(rnd.next(), 1e-12))) * Math.cos(2 * Math.PI * rnd.next());
  const hours = (opts.days ?? HISTORY_DAYS) * 24;
  const volume = opts.volume ?? 1;

  // Capability popularity: a long tail, in an order fixed by the seed, the registry's first
  // POPULAR_HEAD capabilities (the long-known jobs the starter catalogue began with: weather, search,
  // LLMs, ...) ahead of the rest. Over a registry of hundreds a random order would leave some of
  // those a report or two a day, their figures empty or not depending on the hour the seed ran.
  const order = capabilities.map((_, i) => ({ i, r: rnd.next() + (i < POPULAR_HEAD ? 0 : 1) })).sort((a, b) => a.r - b.r);
  const popularity = new Array<number>(capabilities.length).fill(0);
  order.forEach((o, rank) => (popularity[o.i] = 1 / Math.pow(rank + 3, 0.85)));
  const popTotal = popularity.reduce((a, b) => a + b, 0) || 1;
  const intentBias = capabilities.map(() => 0.22 + 0.2 * rnd.next());
  const capIndex = new Map(capabilities.map((id, i) => [id, i]));

  // Each endpoint's profile, and its share of its capability's traffic.
  const plans: Plan[] = endpoints.map((e) => planEndpoint(e, rnd, normal));
  // A capability whose endpoints all drew "new" would have no history before a day or two ago: its
  // first endpoint has been steady all along instead (the README's weather.current drew that).
  const allNew = new Map<string, number>();
  endpoints.forEach((e, i) => {
    if (plans[i].profile !== "new") allNew.set(e.capabilityId, -1);
    else if (!allNew.has(e.capabilityId)) allNew.set(e.capabilityId, i);
  });
  for (const i of allNew.values()) if (i >= 0) plans[i] = { ...plans[i], profile: "steady", share: PROFILE_SHARE.steady, startAgo: Infinity };
  const capShareTotal = new Map<string, number>();
  for (let i = 0; i < endpoints.length; i++) {
    capShareTotal.set(endpoints[i].capabilityId, (capShareTotal.get(endpoints[i].capabilityId) ?? 0) + plans[i].share);
  }
  const perProvider = new Map<string, number>();
  for (const e of endpoints) perProvider.set(e.providerId, (perProvider.get(e.providerId) ?? 0) + 1);
  const downProvider = [...perProvider].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];

  const reports: PlannedReport[] = [];
  const counters: PlannedCounter[] = [];
  for (let ago = hours; ago >= 0; ago--) {
    const hour = new Date(currentHour.getTime() - ago * 3_600_000);
    const traffic = trafficAt(hour, ago, Math.max(0.7, 1 + 0.08 * normal()));
    const passed = ago === 0 ? secondsIntoHour / 3600 : 1;
    // Busy hours are slower: up to 30% at the peak.
    const load = 1 + 0.3 * ((dailyRhythm(hour) - 0.45) / 0.55);
    capabilities.forEach((_, c) => {
      const requests = Math.floor(PEAK_DISCOVERS_PER_HOUR * volume * (popularity[c] / popTotal) * traffic * passed * (0.8 + 0.4 * rnd.next()) + rnd.next());
      if (requests <= 0) return;
      const share = Math.min(0.9, intentBias[c] + 0.06 * (1 - ago / Math.max(1, hours)));
      counters.push([c, ago, requests, Math.round(requests * share)]);
    });
    endpoints.forEach((e, i) => {
      const p = plans[i];
      if (ago > p.startAgo) return;
      const c = capIndex.get(e.capabilityId);
      const capShare = c === undefined ? 1 / Math.max(1, capabilities.length) : popularity[c] / popTotal;
      let rate = PEAK_REPORTS_PER_HOUR * volume * capShare * (p.share / (capShareTotal.get(e.capabilityId) ?? 1)) * traffic;
      let success = p.success;
      let median = p.median * load;
      let failStatus = FAILURE_STATUS;
      if (p.profile === "went_bad" && ago <= p.badAgo) {
        // Broken, and agents moved away from it.
        [success, median, failStatus, rate] = [p.badSuccess, median * 3, [502, 503, 504, 504], rate * 0.35];
      } else if (p.profile === "fading") {
        success = p.success - p.fade * (1 - ago / hours);
        median *= 1 + 0.6 * (1 - ago / hours);
      } else if (p.profile === "flaky" && rnd.next() < 0.06) {
        success *= 0.5;
      } else if (p.profile === "new") {
        rate *= Math.min(1, 0.3 + (p.startAgo - ago) / 48);
      }
      const { network: net, provider: down } = INCIDENTS;
      if (e.network === net.network && ago <= net.from && ago >= net.to) {
        [success, median, failStatus] = [success * net.success, median * net.latency, [502, 504]];
      }
      if (e.providerId === downProvider && ago <= down.from && ago >= down.to) {
        [success, median, failStatus] = [down.success, median * down.latency, [503, 504]];
      }
      const n = Math.floor(rate * passed * (0.75 + 0.5 * rnd.next()) + rnd.next());
      for (let k = 0; k < n; k++) {
        const ok = rnd.next() < success;
        const latency = Math.max(1, Math.round(median * Math.exp(p.sigma * normal()) * (ok ? 1 : 1.4)));
        const at = -ago * 3600 + Math.floor(rnd.next() * (ago === 0 ? Math.max(1, secondsIntoHour) : 3600));
        const authenticated = rnd.next() < 0.45 ? 1 : 0;
        const reporter = Math.floor(rnd.next() * (authenticated ? AUTH_REPORTERS : ANON_REPORTERS));
        reports.push([i, at, ok ? 1 : 0, Math.min(latency, 600_000), ok ? 200 : failStatus[Math.floor(rnd.next() * failStatus.length)], authenticated, reporter]);
      }
    });
  }
  return { reports, counters };
}

function planEndpoint(e: HistoryEndpoint, rnd: ReturnType<typeof createRandom>, normal: () => number): Plan {
  const roll = rnd.next();
  let profile: Profile;
  if (e.checkState === "failing") profile = "went_bad";
  else if (e.checkState === "unverified" && roll < 0.5) profile = "fading";
  else profile = roll < 0.08 ? "new" : roll < 0.5 ? "solid" : roll < 0.75 ? "steady" : roll < 0.88 ? "flaky" : "slow";
  const between = (a: number, b: number) => a + (b - a) * rnd.next();
  const base = {
    solid: { success: between(0.985, 0.999), median: between(60, 300), sigma: 0.35 },
    steady: { success: between(0.95, 0.985), median: between(150, 700), sigma: 0.45 },
    flaky: { success: between(0.82, 0.93), median: between(200, 1200), sigma: 0.7 },
    slow: { success: between(0.95, 0.99), median: between(1200, 3000), sigma: 0.4 },
    new: { success: between(0.9, 0.995), median: between(80, 600), sigma: 0.45 },
    went_bad: { success: between(0.96, 0.995), median: between(100, 500), sigma: 0.45 },
    fading: { success: between(0.97, 0.99), median: between(150, 600), sigma: 0.5 },
  }[profile];
  return {
    profile,
    ...base,
    share: PROFILE_SHARE[profile] * Math.exp(0.5 * normal()),
    startAgo: profile === "new" ? Math.floor(between(6, 72)) : Infinity,
    badAgo: Math.floor(between(8, 64)),
    badSuccess: between(0.08, 0.35),
    fade: between(0.04, 0.18),
  };
}
