// The demo network's planned history (lib/seed/history.ts): rhythm, growth, profiles, incidents,
// endpoints that went bad, a partial current hour, and the same plan every time.
import { describe, expect, it } from "vitest";
import { HISTORY_DAYS, INCIDENTS, planHistory, POPULAR_HEAD, type HistoryEndpoint, type PlannedReport } from "@/lib/seed/history";

// A Tuesday, 40 minutes into 16:00 UTC.
const NOW_HOUR = new Date("2026-03-10T16:00:00Z");
const INTO = 2400;
const caps = Array.from({ length: 30 }, (_, i) => `cat${i % 5}.cap_${i}`);
const endpoints: HistoryEndpoint[] = Array.from({ length: 120 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  capabilityId: caps[i % caps.length],
  providerId: `p${i % 12}`,
  network: i % 3 === 0 ? "base" : "polygon",
  checkState: i % 10 === 9 ? "failing" : i % 10 === 8 ? "unverified" : "verified",
}));
const plan = planHistory(endpoints, caps, NOW_HOUR, INTO);
const { reports, counters } = plan;

/** Reports and successes per hour ago, optionally for some endpoints only. */
function perHour(filter: (r: PlannedReport) => boolean = () => true) {
  const n = new Map<number, { n: number; ok: number }>();
  for (const r of reports) {
    if (!filter(r)) continue;
    const h = r[1] >= 0 ? 0 : Math.ceil(-r[1] / 3600);
    const e = n.get(h) ?? { n: 0, ok: 0 };
    e.n++;
    e.ok += r[2];
    n.set(h, e);
  }
  return n;
}
const sumHours = (m: Map<number, { n: number; ok: number }>, from: number, to: number) => {
  let n = 0;
  let ok = 0;
  for (let h = from; h <= to; h++) {
    n += m.get(h)?.n ?? 0;
    ok += m.get(h)?.ok ?? 0;
  }
  return { n, ok, rate: n ? ok / n : NaN };
};

describe("the demo network's history", () => {
  it("is the same plan every time", () => {
    expect(planHistory(endpoints, caps, NOW_HOUR, INTO)).toEqual(plan);
    expect(planHistory(endpoints, caps, NOW_HOUR, INTO, { seed: 7 })).not.toEqual(plan);
  });

  it("covers the 7-day window and a day more, and only the part of the current hour that has passed", () => {
    expect(Math.min(...reports.map((r) => r[1]))).toBeGreaterThanOrEqual(-HISTORY_DAYS * 24 * 3600);
    expect(Math.min(...reports.map((r) => r[1]))).toBeLessThan(-(HISTORY_DAYS * 24 - 1) * 3600);
    expect(Math.max(...reports.map((r) => r[1]))).toBeLessThan(INTO);
    const hours = perHour();
    // The current hour is two-thirds gone: about two-thirds of the hour before (the same time of day's rhythm, give or take).
    expect(hours.get(0)!.n / hours.get(1)!.n).toBeGreaterThan(0.45);
    expect(hours.get(0)!.n / hours.get(1)!.n).toBeLessThan(0.9);
  });

  it("follows the day: the afternoon UTC is far busier than before dawn, and no two hours are alike", () => {
    const hours = perHour();
    // Hours ago from 16:00: 13:00-17:00 UTC of yesterday are 23..27 ago; 02:00-05:00 UTC are 11..14 ago.
    const afternoon = sumHours(hours, 23, 27).n / 5;
    const night = sumHours(hours, 11, 14).n / 4;
    expect(afternoon / night).toBeGreaterThan(1.6);
    const last48 = Array.from({ length: 48 }, (_, h) => hours.get(h + 1)?.n ?? 0);
    expect(new Set(last48).size).toBeGreaterThan(40);
    const discovers = new Map<number, number>();
    for (const [, ago, n] of counters) discovers.set(ago, (discovers.get(ago) ?? 0) + n);
    expect(new Set(Array.from({ length: 48 }, (_, h) => discovers.get(h + 1))).size).toBeGreaterThan(40);
  });

  it("follows the week and grows: the weekend is lighter, a weekday busier than the same weekday a week before", () => {
    const hours = perHour();
    // Tuesday 16:00: Sunday is 40..63 hours ago, the previous Thursday 136..159.
    const sunday = sumHours(hours, 40, 63).n;
    const thursday = sumHours(hours, 136, 159).n;
    expect(sunday / thursday).toBeLessThan(0.85);
    const lastDay = sumHours(hours, 1, 24).n;
    const weekBefore = sumHours(hours, 169, 192).n;
    expect(lastDay / weekBefore).toBeGreaterThan(1.12);
  });

  it("has the Base incident about a day ago and one provider's outage four days ago", () => {
    const onBase = new Set(endpoints.flatMap((e, i) => (e.network === "base" ? [i] : [])));
    const base = perHour((r) => onBase.has(r[0]));
    const during = sumHours(base, INCIDENTS.network.to, INCIDENTS.network.from).rate;
    const around = (sumHours(base, 20, 26).ok + sumHours(base, 29, 35).ok) / (sumHours(base, 20, 26).n + sumHours(base, 29, 35).n);
    expect(around - during).toBeGreaterThan(0.3);
    // The provider with the most endpoints (p0..p11 have 10 each; the first by id is p0).
    const down = new Set(endpoints.flatMap((e, i) => (e.providerId === "p0" ? [i] : [])));
    const provider = perHour((r) => down.has(r[0]));
    expect(sumHours(provider, INCIDENTS.provider.to, INCIDENTS.provider.from).rate).toBeLessThan(0.15);
    expect(sumHours(provider, 60, 90).rate).toBeGreaterThan(0.85);
  });

  it("gives endpoints different profiles, and the failing ones went bad in the last three days", () => {
    const byEndpoint = endpoints.map((_, i) => perHour((r) => r[0] === i));
    const rates = byEndpoint.map((m) => sumHours(m, 1, HISTORY_DAYS * 24).rate).filter((r) => !Number.isNaN(r));
    expect(rates.filter((r) => r > 0.98).length).toBeGreaterThan(10);
    expect(rates.filter((r) => r < 0.9).length).toBeGreaterThan(3);
    const volumes = byEndpoint.map((m) => sumHours(m, 0, HISTORY_DAYS * 24).n);
    expect(Math.max(...volumes)).toBeGreaterThan(8 * (volumes.sort((a, b) => a - b)[Math.floor(volumes.length / 2)] || 1));
    const latencies = endpoints.map((_, i) => {
      const l = reports.filter((r) => r[0] === i && r[2] === 1).map((r) => r[3]).sort((a, b) => a - b);
      return l[Math.floor(l.length / 2)] ?? 0;
    });
    expect(Math.max(...latencies) / Math.max(1, Math.min(...latencies.filter((l) => l > 0)))).toBeGreaterThan(5);
    for (let i = 9; i < endpoints.length; i += 10) {
      expect(sumHours(byEndpoint[i], 1, 6).rate, `endpoint ${i} now`).toBeLessThan(0.5);
      expect(sumHours(byEndpoint[i], 100, 190).rate, `endpoint ${i} before`).toBeGreaterThan(0.85);
    }
  });

  it("gives each of the registry's first POPULAR_HEAD capabilities a week of reports with weight, whatever the hour, however large the registry", () => {
    // 400 capabilities with two demo endpoints each, as the demo network serves the real registry.
    const registry = Array.from({ length: 400 }, (_, i) => `cat${i % 9}.job_${i}`);
    const eps: HistoryEndpoint[] = registry.flatMap((c, i) =>
      [0, 1].map((k) => ({ id: `00000000-0000-4000-9000-${String(i * 2 + k).padStart(12, "0")}`, capabilityId: c, providerId: `p${(i + k) % 50}`, network: "base", checkState: "verified" as const })),
    );
    for (const hour of [new Date("2026-12-02T05:00:00Z"), new Date("2026-12-02T06:00:00Z"), NOW_HOUR]) {
      const { reports } = planHistory(eps, registry, hour, INTO);
      const weighted = new Map<string, number>();
      for (const r of reports) if (r[5] === 1) weighted.set(eps[r[0]].capabilityId, (weighted.get(eps[r[0]].capabilityId) ?? 0) + 1);
      for (const c of registry.slice(0, POPULAR_HEAD)) expect(weighted.get(c) ?? 0, `${c} at ${hour.toISOString()}`).toBeGreaterThanOrEqual(40);
    }
  });
});
