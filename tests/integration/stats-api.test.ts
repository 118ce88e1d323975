// GET /api/stats: every field of API.md, checked against the tables it summarises.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { queryRows } from "@/lib/db/client";
import { outcomeReports, submissions } from "@/lib/db/schema";
import { rollUpAll } from "@/lib/outcomes";
import { forgetStatsCache, getStats, refreshStats } from "@/lib/stats";
import { statsResponseSchema } from "@/lib/schemas/stats";
import * as statsRoute from "@/app/api/stats/route";
import { addEndpoint } from "./outcomes-fixtures";

const one = async <T,>(t: TestDb, q: ReturnType<typeof sql>) => (await queryRows<T>(t.db, q))[0];

describe("GET /api/stats on the demo data", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb({ seed: "demo" });
  });
  afterAll(async () => t?.close());

  it("answers 200 with every field of the contract, publicly cacheable", async () => {
    const res = await call(statsRoute.GET, "/api/stats?unknown=ignored");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const parsed = statsResponseSchema.strict().parse(res.body);
    expect(Object.keys(parsed).sort()).toEqual(
      ["capabilities", "categories", "discover", "endpoints", "generated_at", "hourly", "imports", "outcomes", "providers", "submissions", "top_capabilities"].sort(),
    );
    expect(Date.parse(parsed.generated_at)).not.toBeNaN();
  });

  it("counts the registry as the tables hold it", async () => {
    const s = await getStats(t.db, { fresh: true });
    const c = await one<Record<string, number>>(
      t,
      sql`select (select count(*) from capabilities)::int as caps,
                 (select count(distinct capability_id) from endpoints where status = 'listed')::int as with_endpoints,
                 (select count(*) from endpoints where status = 'listed')::int as endpoints,
                 (select count(*) from endpoints where status = 'listed' and check_state = 'verified')::int as verified,
                 (select count(*) from endpoints where status = 'listed' and check_state = 'failing')::int as failing,
                 (select count(distinct provider_id) from endpoints where status = 'listed')::int as providers`,
    );
    expect(s.capabilities).toEqual({ total: c.caps, with_endpoints: c.with_endpoints });
    expect(s.endpoints).toEqual({ total: c.endpoints, verified: c.verified, failing: c.failing });
    expect(s.endpoints.verified).toBeGreaterThan(0);
    expect(s.endpoints.failing).toBeGreaterThan(0);
    expect(s.providers.total).toBe(c.providers);
    const cats = await queryRows<{ id: string }>(t.db, sql`select id from categories order by position, id`);
    expect(s.categories.map((x) => x.id)).toEqual(cats.map((x) => x.id));
    expect(s.categories.reduce((n, x) => n + x.capabilities, 0)).toBe(c.caps);
    expect(s.categories.reduce((n, x) => n + x.endpoints, 0)).toBe(c.endpoints);
    const weather = await one<{ caps: number; eps: number }>(
      t,
      sql`select (select count(*) from capabilities where category_id = 'weather')::int as caps,
                 (select count(*) from endpoints e join capabilities c on c.id = e.capability_id
                  where c.category_id = 'weather' and e.status = 'listed')::int as eps`,
    );
    expect(s.categories.find((x) => x.id === "weather")).toEqual({ id: "weather", capabilities: weather.caps, endpoints: weather.eps });
  });

  it("sums discover requests and outcome reports over the last 24 hours and 7 days", async () => {
    await rollUpAll(t.db);
    const s = await getStats(t.db, { fresh: true });
    const d = await one<Record<string, number>>(
      t,
      sql`select coalesce(sum(requests) filter (where hour > now() - interval '24 hours'), 0)::int as d24,
                 coalesce(sum(requests), 0)::int as d7, coalesce(sum(intent_requests), 0)::int as i7
          from discover_counters where hour > now() - interval '7 days'`,
    );
    expect(s.discover.requests_24h).toBe(d.d24);
    expect(s.discover.requests_7d).toBe(d.d7);
    expect(s.discover.intent_share_7d).toBeCloseTo(d.i7 / d.d7, 4);
    const o = await one<Record<string, number>>(
      t,
      sql`select (count(*) filter (where date_trunc('hour', created_at) > now() - interval '24 hours'))::int as r24,
                 (count(*) filter (where date_trunc('hour', created_at) > now() - interval '7 days'))::int as r7
          from outcome_reports`,
    );
    expect(s.outcomes.reports_24h).toBe(o.r24);
    expect(s.outcomes.reports_7d).toBe(o.r7);
    expect(s.outcomes.success_rate_7d).toBeGreaterThan(0.5);
    expect(s.outcomes.success_rate_7d).toBeLessThan(1);
    expect(s.outcomes.p95_latency_ms_7d).toBeGreaterThan(40);
  });

  it("lists the ten most discovered capabilities of the week, most first", async () => {
    const s = await getStats(t.db, { fresh: true });
    const top = await queryRows<{ capability_id: string; n: number }>(
      t.db,
      sql`select capability_id, sum(requests)::int as n from discover_counters where hour > now() - interval '7 days'
          group by 1 order by 2 desc, 1 limit 10`,
    );
    expect(s.top_capabilities).toEqual(top.map((x) => ({ capability_id: x.capability_id, discover_requests_7d: x.n })));
    expect(s.top_capabilities).toHaveLength(10);
  });

  it("keeps one answer per instance for a few seconds, and a snapshot in the database", async () => {
    const a = await getStats(t.db);
    const b = await getStats(t.db);
    expect(b).toBe(a);
    const fresh = await refreshStats(t.db);
    const [row] = await queryRows<{ value: { generated_at: string } }>(t.db, sql`select value from stats_snapshots where name = 'public'`);
    expect(row.value.generated_at).toBe(fresh.generated_at);
    // Another instance (no copy of its own) reads the snapshot instead of recomputing.
    forgetStatsCache(t.db);
    expect((await getStats(t.db)).generated_at).toBe(fresh.generated_at);
    // A snapshot left by a stopped job is not served: the statistics are computed again.
    await t.db.execute(sql`update stats_snapshots set computed_at = now() - interval '1 hour'`);
    forgetStatsCache(t.db);
    expect((await getStats(t.db)).generated_at).not.toBe(fresh.generated_at);
  });

  it("answers 405 to other methods", async () => {
    const res = await call(statsRoute.POST, "/api/stats", { method: "POST", json: {} });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe("method_not_allowed");
  });
});

describe("stats of a quiet network", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb({ seed: "catalogue" });
  });
  afterAll(async () => t?.close());

  it("has 48 hourly entries ending with the current hour, empty hours as zeros", async () => {
    const s = await getStats(t.db, { fresh: true });
    expect(s.hourly).toHaveLength(48);
    const { now_hour } = await one<{ now_hour: string }>(t, sql`select date_trunc('hour', now())::timestamptz as now_hour`);
    expect(s.hourly[47].hour).toBe(new Date(now_hour).toISOString());
    for (let i = 1; i < 48; i++) expect(Date.parse(s.hourly[i].hour) - Date.parse(s.hourly[i - 1].hour)).toBe(3_600_000);
    expect(s.hourly.every((h) => h.discover_requests === 0 && h.outcome_reports === 0 && h.success_rate === null)).toBe(true);
    expect(s.outcomes).toEqual({ reports_24h: 0, reports_7d: 0, success_rate_7d: null, p95_latency_ms_7d: null, paid_reports_7d: 0, paid_usd_7d: 0, payers_7d: 0 });
    expect(s.discover).toEqual({ requests_24h: 0, requests_7d: 0, intent_share_7d: 0 });
    expect(s.endpoints).toEqual({ total: 0, verified: 0, failing: 0 });
    expect(s.top_capabilities).toEqual([]);
  });

  it("fills the hours that had traffic and leaves the others at zero", async () => {
    const ep = await addEndpoint(t.db, { checkState: "failing" });
    const at = (hoursAgo: number) => sql`date_trunc('hour', now()) - ${hoursAgo} * interval '1 hour' + interval '1 minute'`;
    const rows = [
      ...Array.from({ length: 3 }, () => ({ success: true, hoursAgo: 0 })),
      ...Array.from({ length: 4 }, (_, i) => ({ success: i < 1, hoursAgo: 5 })),
      { success: true, hoursAgo: 30 },
    ];
    await t.db.insert(outcomeReports).values(
      rows.map((r) => ({
        endpointId: ep,
        success: r.success,
        latencyMs: 100,
        reporterKind: "probe",
        reporterKey: "probe",
        weight: 3,
        createdAt: at(r.hoursAgo) as never,
      })),
    );
    await rollUpAll(t.db);
    await t.db.execute(
      sql`insert into discover_counters (capability_id, hour, requests, intent_requests)
          values ('weather.current', date_trunc('hour', now()) - interval '5 hours', 7, 2)`,
    );
    await t.db.insert(submissions).values([
      { status: "pending_verification", endpointUrl: "https://a.example/x", host: "a.example", domain: "a.example", capabilityId: "weather.current", contactEmail: "a@a.example", providerName: "A", pricePerCall: 0, token: "t1", expiresAt: new Date(Date.now() + 86_400_000) },
      { status: "verified", endpointUrl: "https://b.example/x", host: "b.example", domain: "b.example", capabilityId: "weather.current", contactEmail: "b@b.example", providerName: "B", pricePerCall: 0, token: "t2", expiresAt: new Date(Date.now() + 86_400_000), checkedAt: new Date() },
      { status: "verified", endpointUrl: "https://c.example/x", host: "c.example", domain: "c.example", capabilityId: "weather.current", contactEmail: "c@c.example", providerName: "C", pricePerCall: 0, token: "t3", expiresAt: new Date(Date.now() + 86_400_000), checkedAt: new Date(Date.now() - 8 * 86_400_000), updatedAt: new Date(Date.now() - 8 * 86_400_000) },
    ]);
    const s = await getStats(t.db, { fresh: true });
    const busy = s.hourly.filter((h) => h.outcome_reports > 0 || h.discover_requests > 0);
    expect(busy.map((h) => [h.outcome_reports, h.success_rate, h.discover_requests])).toEqual([
      [1, 1, 0],
      [4, 0.25, 7],
      [3, 1, 0],
    ]);
    expect(s.hourly.filter((h) => h.outcome_reports === 0 && h.discover_requests === 0)).toHaveLength(45);
    expect(s.outcomes).toMatchObject({ reports_24h: 7, reports_7d: 8, success_rate_7d: 0.625 });
    expect(Math.abs(s.outcomes.p95_latency_ms_7d! - 100)).toBeLessThanOrEqual(5);
    expect(s.discover).toEqual({ requests_24h: 7, requests_7d: 7, intent_share_7d: 0.2857 });
    expect(s.top_capabilities).toEqual([{ capability_id: "weather.current", discover_requests_7d: 7 }]);
    expect(s.endpoints).toEqual({ total: 1, verified: 0, failing: 1 });
    expect(s.capabilities.with_endpoints).toBe(1);
    expect(s.providers.total).toBe(1);
    expect(s.submissions).toEqual({ pending: 1, verified_7d: 1 });
  });

  it("counts the paid calls callers reported in 7 days, what they paid and how many paid", async () => {
    const ep = await addEndpoint(t.db, {});
    const report = (reporterKey: string, paidAmount: number | null, daysAgo = 0, reporterKind = "authenticated") => ({
      endpointId: ep,
      success: true,
      reporterKind,
      reporterKey,
      weight: 1,
      paidAmount,
      createdAt: sql`now() - ${daysAgo} * interval '1 day'` as never,
    });
    await t.db.insert(outcomeReports).values([
      report("key:a", 0.002),
      report("key:a", 0.003),
      report("key:b", 0.01),
      report("key:c", 0),
      report("key:d", null),
      report("key:e", 0.5, 8),
      report("probe", 0.1, 0, "probe"),
    ]);
    const s = await getStats(t.db, { fresh: true });
    expect(s.outcomes).toMatchObject({ paid_reports_7d: 3, paid_usd_7d: 0.015, payers_7d: 2 });
  });
});
