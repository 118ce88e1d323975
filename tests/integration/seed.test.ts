import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { seedScale } from "@/lib/seed";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { seedDemoEndpoints } from "@/lib/seed/demo";
import { HISTORY_DAYS } from "@/lib/seed/history";
import { getObservedFigures } from "@/lib/outcomes/figures";

const opened: TestDb[] = [];
afterAll(async () => Promise.all(opened.map((t) => t.close())));

async function fingerprint(t: TestDb) {
  return queryRows<{ id: string; url: string; price: number; network: string; method: string }>(
    t.db,
    sql`select e.id::text, e.url, e.price_per_call as price, e.network, e.method from endpoints e order by e.id`,
  );
}

describe("the demo seed", () => {
  it("lists the catalogue with 2 to 6 demo providers per capability on .example domains, the same every time", async () => {
    // One copy of the test run's demo template, one seeded here from scratch: they must agree.
    const a = await createTestDb({ seed: "demo", install: false });
    const b = await createTestDb({ seed: "catalogue", install: false });
    opened.push(a, b);
    await seedDemoEndpoints(b.db, CATALOGUE.capabilities.map((c) => ({ id: c.id })));
    const perCap = await queryRows<{ capability_id: string; n: number }>(
      a.db,
      sql`select c.id as capability_id, count(e.id)::int as n from capabilities c left join endpoints e on e.capability_id = c.id group by 1`,
    );
    expect(perCap).toHaveLength(CATALOGUE.capabilities.length);
    expect(perCap.every((r) => r.n >= 2 && r.n <= 6)).toBe(true);
    const eps = await fingerprint(a);
    expect(eps.every((e) => new URL(e.url).hostname.endsWith(".example"))).toBe(true);
    expect(new Set(eps.map((e) => e.network)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(eps.map((e) => e.method))).toEqual(new Set(["GET", "POST"]));
    expect(new Set(eps.map((e) => e.price)).size).toBeGreaterThan(20);
    expect(await fingerprint(b)).toEqual(eps);
  });

  it("ranks endpoints for the README's discover example, and lists paid endpoints on several networks", async () => {
    const t = opened[0];
    const { discover } = await import("@/lib/discovery");
    const body = { intent: "will it rain in Oslo tomorrow", constraints: { max_price: 0.01, network: "base" as const }, preferences: { ranking_preset: "reliability" as const } };
    const res = await discover(t.db, body, { kind: "anonymous", key: "test:seed", ip: "127.0.0.1" });
    expect(res.resolved.capability_id).toBe("weather.forecast");
    expect(res.ranked_endpoints.length).toBeGreaterThanOrEqual(2);
    for (const e of res.ranked_endpoints) {
      expect(e.payment.price_per_call).toBeLessThanOrEqual(0.01);
      if (e.payment.price_per_call > 0) expect(e.payment.networks).toContain("base");
    }
    const [multi] = await queryRows<{ paid: number; several: number; free_with_seen: number }>(
      t.db,
      sql`select count(*) filter (where price_per_call > 0)::int as paid,
                 count(*) filter (where price_per_call > 0 and cardinality(networks) > 1
                                  and jsonb_array_length(payment_seen->'accepts') = cardinality(networks))::int as several,
                 count(*) filter (where price_per_call = 0 and payment_seen is not null)::int as free_with_seen
          from endpoints`,
    );
    expect(multi.several / multi.paid).toBeGreaterThan(0.3);
    expect(multi.several / multi.paid).toBeLessThan(0.8);
    expect(multi.free_with_seen).toBe(0);
  });

  it("is call-ready: most demo endpoints declare how to call them, callable: true finds them, and the x402 catalogue's bazaar filter answers", async () => {
    const t = opened[0];
    const [n] = await queryRows<{ total: number; declared: number; caps: number }>(
      t.db,
      sql`select count(*)::int as total, count(*) filter (where call is not null and declaration is not null)::int as declared,
                 count(distinct capability_id) filter (where call is not null)::int as caps
          from endpoints`,
    );
    expect(n.declared / n.total).toBeGreaterThan(0.65);
    expect(n.declared / n.total).toBeLessThan(0.95);
    expect(n.caps).toBeGreaterThan(90);
    const { discover } = await import("@/lib/discovery");
    const who = { kind: "anonymous" as const, key: "test:seed", ip: "127.0.0.1" };
    const res = await discover(t.db, { capability_id: "weather.forecast", constraints: { callable: true } }, who);
    expect(res.ranked_endpoints.length).toBeGreaterThan(0);
    for (const e of res.ranked_endpoints) {
      expect(e.call?.source).toBe("declared");
      expect(e.call?.input.example).toMatchObject({ city: "Oslo" });
      expect(e.call?.output?.example).toBeTruthy();
      expect(e.call?.input.kind).toBe(e.method === "GET" ? "query" : "body");
    }
    const { listDiscoveryResources } = await import("@/lib/x402-discovery");
    const bazaar = await listDiscoveryResources(t.db, { extensions: "bazaar", limit: 100, offset: 0 } as never);
    expect(bazaar.items.length).toBeGreaterThan(20);
    expect(bazaar.items.every((r) => r.extensions.bazaar && (r.extensions.bazaar as { info: unknown }).info)).toBe(true);
  });

  it("fills 8 days of believable history into the rollups, so figures and charts exist at first start", async () => {
    const t = opened[0];
    const [span] = await queryRows<{ hours: number; pending: number; future: number }>(
      t.db,
      sql`select (extract(epoch from max(hour) - min(hour)) / 3600)::int as hours,
                 (select count(*)::int from outcome_reports where not rolled_up) as pending,
                 (select count(*)::int from outcome_reports where created_at > now()) as future
          from outcome_rollups`,
    );
    expect(span.hours).toBeGreaterThanOrEqual(HISTORY_DAYS * 24 - 1);
    expect(span.hours).toBeLessThanOrEqual(HISTORY_DAYS * 24 + 2);
    expect(span.pending).toBe(0);
    expect(span.future).toBe(0);
    // Not flat: the hours of the last two days differ, in reports, success rate and discover requests.
    const hourly = await queryRows<{ reports: number; rate: number; discovers: number }>(
      t.db,
      sql`select n.reports, round((n.w_success / nullif(n.w_total, 0))::numeric, 4)::float8 as rate,
                 (select coalesce(sum(requests), 0)::int from discover_counters d where d.hour = n.hour) as discovers
          from network_rollups n where n.hour > now() - interval '49 hours' and n.hour < date_trunc('hour', now()) - interval '1 hour'`,
    );
    expect(hourly.length).toBeGreaterThanOrEqual(44);
    // (The flat history had one value each.)
    expect(new Set(hourly.map((h) => h.reports)).size).toBeGreaterThan(hourly.length / 2);
    expect(new Set(hourly.map((h) => h.rate)).size).toBeGreaterThan(hourly.length / 2);
    expect(new Set(hourly.map((h) => h.discovers)).size).toBeGreaterThan(hourly.length / 2);
    const counts = hourly.map((h) => h.reports);
    expect(Math.max(...counts) / Math.min(...counts)).toBeGreaterThan(1.5);
    const ids = (await fingerprint(t)).slice(0, 20).map((e) => e.id);
    const figures = await getObservedFigures(t.db, ids);
    // Anonymous reports weigh nothing (docs/ranking.md): an endpoint only they reported on has no rate.
    const withData = [...figures.values()].filter((f) => f.sample_size_7d > 0 && f.success_rate_7d !== null);
    expect(withData.length).toBeGreaterThanOrEqual(10);
    const mean = withData.reduce((s, f) => s + (f.success_rate_7d ?? 0), 0) / withData.length;
    expect(mean).toBeGreaterThan(0.5);
    for (const f of withData) {
      expect(f.success_rate_7d).toBeGreaterThanOrEqual(0);
      expect(f.success_rate_7d).toBeLessThanOrEqual(1);
      expect(f.p95_latency_ms).toBeGreaterThan(0);
    }
  });

  it("shows the failing endpoints going bad: poor in the last hours, good earlier in the week", async () => {
    const [row] = await queryRows<{ recent: number; earlier: number }>(
      opened[0].db,
      sql`select sum(r.successes) filter (where r.hour > now() - interval '7 hours')::float8
                   / nullif(sum(r.reports) filter (where r.hour > now() - interval '7 hours'), 0) as recent,
                 sum(r.successes) filter (where r.hour < now() - interval '4 days')::float8
                   / nullif(sum(r.reports) filter (where r.hour < now() - interval '4 days'), 0) as earlier
          from outcome_rollups r join endpoints e on e.id = r.endpoint_id where e.check_state = 'failing'`,
    );
    expect(row.recent).toBeLessThan(0.5);
    expect(row.earlier).toBeGreaterThan(0.85);
  });
});

describe("the benchmark seed", () => {
  it("makes N capabilities with the requested endpoints and reports, all rolled up", async () => {
    const t = await createTestDb({ seed: "none", install: false });
    opened.push(t);
    // The whole catalogue, then synthetic variants up to N.
    const n = CATALOGUE.capabilities.length + 50;
    const counts = await seedScale(t.db, n, { endpointsPerCapability: 3, reportsPerCapability: 20 });
    expect(counts).toMatchObject({ capabilities: n, endpoints: 3 * n, reports: 20 * n });
    const [row] = await queryRows<{ caps: number; rolled: number }>(
      t.db,
      sql`select (select count(*)::int from capabilities) as caps, (select coalesce(sum(reports), 0)::int from outcome_rollups) as rolled`,
    );
    expect(row).toEqual({ caps: n, rolled: 20 * n });
  });

  it("writes reports straight into hourly rollups (shard 1), network rollups and figures agreeing", async () => {
    const t = await createTestDb({ seed: "none", install: false });
    opened.push(t);
    const counts = await seedScale(t.db, 120, { endpointsPerCapability: 2, reportsPerCapability: 5, rollupReportsPerEndpoint: 40 });
    expect(counts).toMatchObject({ capabilities: 120, endpoints: 240, reports: 600, rollupReports: 9600 });
    const [row] = await queryRows<{ direct: number; rows: number; all: number; network: number; with_figures: number; weighted: number }>(
      t.db,
      sql`select (select coalesce(sum(reports), 0)::int from outcome_rollups where shard = 1) as direct,
                 (select count(*)::int from outcome_rollups where shard = 1) as rows,
                 (select coalesce(sum(reports), 0)::int from outcome_rollups) as all,
                 (select coalesce(sum(reports), 0)::int from network_rollups) as network,
                 (select count(*)::int from endpoint_figures where reports > 0 and not dirty) as with_figures,
                 (select count(*)::int from endpoint_figures where success_rate is not null and p95_latency_ms is not null) as weighted`,
    );
    // About 40 reports per endpoint over about 42 hours of the week (random per row).
    expect(row.direct).toBeGreaterThan(240 * 25);
    expect(row.direct).toBeLessThan(240 * 60);
    expect(row.rows).toBeGreaterThan(240 * 30);
    expect(row.all).toBe(row.direct + 600);
    expect(row.network).toBe(row.all);
    expect(row.with_figures).toBe(240);
    expect(row.weighted).toBe(240);
  });
});
