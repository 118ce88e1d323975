import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { getEndpointFacts } from "@/lib/portal/endpoints";
import { getEndpointPage, getProviderPage, providerPagePath } from "@/lib/portal/endpoint-page";
import { listRankedEndpoints, discover } from "@/lib/discovery";
import { paySnippet } from "@/lib/portal/pay-snippet";
import { createTestDb, type TestDb } from "../helpers/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "demo" });
});
afterAll(async () => {
  await t?.close();
});

describe("the portal's endpoint facts", () => {
  it("label demo listings and give the reason a failing endpoint fails", async () => {
    const rows = await queryRows<{ id: string; check_state: string }>(
      t.db,
      sql`select id, check_state from endpoints where check_state in ('failing', 'verified') order by id limit 40`,
    );
    const facts = await getEndpointFacts(t.db, rows.map((r) => r.id));
    expect(facts.size).toBe(rows.length);
    for (const r of rows) {
      const f = facts.get(r.id)!;
      expect(f.isDemo).toBe(true);
      expect(f.checkState).toBe(r.check_state);
      if (r.check_state === "failing") expect(f.lastCheckReason).toMatch(/\w/);
    }
    expect(rows.some((r) => r.check_state === "failing")).toBe(true);
  });

  it("knows a real listing is not a demo, and asks nothing for no ids", async () => {
    const [{ id }] = await queryRows<{ id: string }>(t.db, sql`select id from endpoints order by id limit 1`);
    await t.db.execute(sql`update endpoints set is_demo = false where id = ${id}`);
    expect((await getEndpointFacts(t.db, [id])).get(id)?.isDemo).toBe(false);
    expect((await getEndpointFacts(t.db, [])).size).toBe(0);
    expect((await getEndpointFacts(t.db, ["00000000-0000-4000-8000-000000000000"])).size).toBe(0);
  });
});

describe("endpoint and provider pages", () => {
  it("show an endpoint as discover ranks it: payment, figures, place per preset, probes, reports, the last 402", async () => {
    const [top] = await listRankedEndpoints(t.db, "weather.forecast");
    expect(top.page).toBe(`/endpoints/${top.endpoint_id}`);
    await t.db.execute(sql`insert into endpoint_checks (endpoint_id, ok, reason, status_code, latency_ms) values
      (${top.endpoint_id}::uuid, false, 'probe_no_402', 200, 120), (${top.endpoint_id}::uuid, true, 'ok', 402, 95)`);
    await t.db.execute(sql`insert into outcome_reports (endpoint_id, success, failure, paid_amount, reporter_kind, reporter_key, weight) values
      (${top.endpoint_id}::uuid, false, 'timeout', 0.002, 'authenticated', 'k:one', 4), (${top.endpoint_id}::uuid, false, 'timeout', null, 'authenticated', 'k:two', 4),
      (${top.endpoint_id}::uuid, true, null, 0.002, 'probe', 'probe', 3)`);
    const page = (await getEndpointPage(t.db, top.endpoint_id))!;
    expect(page.ranked).toMatchObject({ endpoint_id: top.endpoint_id, score: top.score, observed: top.observed });
    expect(page.positions.find((p) => p.preset === "default")?.position).toBe(1);
    const res = await discover(t.db, { capability_id: "weather.forecast", preferences: { ranking_preset: "budget", limit: 20 } }, { kind: "anonymous", key: "t", ip: "127.0.0.1" });
    const budgetAt = res.ranked_endpoints.findIndex((e) => e.endpoint_id === top.endpoint_id);
    expect(page.positions.find((p) => p.preset === "budget")?.position).toBe(budgetAt + 1);
    expect(page.probes.map((p) => p.reason)).toEqual(expect.arrayContaining(["ok", "probe_no_402"]));
    expect(page.reports.failures).toEqual({ timeout: 2 });
    expect(page.reports.distinctReporters).toBeGreaterThanOrEqual(2);
    expect(page.reports.reports - page.reports.distinctReporters).toBeGreaterThanOrEqual(0);
    if (top.payment.price_per_call > 0) expect(page.lastChallenge?.seen.accepts.length).toBe(top.payment.networks.length);
    expect(await getEndpointPage(t.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await getEndpointPage(t.db, "not-a-uuid")).toBeNull();
  });

  it("list a provider's endpoints at /providers/<name>-<id prefix>, and nothing for a wrong slug", async () => {
    const [row] = await queryRows<{ id: string; name: string; n: number }>(
      t.db,
      sql`select p.id::text, p.name, count(e.id)::int as n from providers p join endpoints e on e.provider_id = p.id group by 1, 2 order by 1 limit 1`,
    );
    const path = providerPagePath(row);
    expect(path).toMatch(/^\/providers\/[a-z0-9-]+-[0-9a-f]{8}$/);
    const page = (await getProviderPage(t.db, path.slice("/providers/".length)))!;
    expect(page.provider.name).toBe(row.name);
    expect(page.endpoints).toHaveLength(row.n);
    expect(await getProviderPage(t.db, `someone-else-${row.id.slice(0, 8)}`)).toBeNull();
    expect(await getProviderPage(t.db, "submit")).toBeNull();
  });

  it("write a paying @x402/fetch snippet with the call's example", () => {
    const call = { source: "declared" as const, method: "POST", input: { kind: "body" as const, body_type: "json" as const, example: { city: "Oslo" } }, updated_at: "2026-01-01T00:00:00.000Z" };
    const evm = paySnippet("https://api.x.example/f", "POST", call, ["base"]);
    expect(evm).toContain('from "@x402/fetch"');
    expect(evm).toContain("registerExactEvmScheme");
    expect(evm).toContain('JSON.stringify({"city":"Oslo"})');
    expect(paySnippet("https://api.x.example/f", "GET", { ...call, method: "GET", input: { kind: "query", example: { city: "Oslo" } } }, ["solana"])).toContain("https://api.x.example/f?city=Oslo");
  });
});
