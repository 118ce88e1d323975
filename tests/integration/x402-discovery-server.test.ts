// The official x402 client (`withBazaar(new HTTPFacilitatorClient({ url }))`) against the production
// server, pointed at {origin}/api/x402 and nothing else: list, page through everything, filters,
// search in English, in another language and for nonsense. Every item must validate as the official
// types describe it. A provider journey on the same server (submit, DNS record, verify) lists a
// real x402 server built with the official Hono middleware, whose bazaar declaration is then served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTPFacilitatorClient } from "@x402/core/http";
import { PaymentRequirementsV2Schema } from "@x402/core/schemas";
import { withBazaar, type DiscoveryResource } from "@x402/extensions/bazaar";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { HONO_PAY_TO, startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let server: TestServer;
let dns: DnsTestServer;
let hono: HonoX402Server;
let database: { url: string; drop: () => Promise<void> } | undefined;
let client: ReturnType<typeof withBazaar<HTTPFacilitatorClient>>;
let listedUrl: string;

beforeAll(async () => {
  dns = await startDnsServer();
  hono = await startHonoX402Server([
    {
      method: "GET",
      path: "/v1/weather",
      price: "$0.001",
      description: "Current weather for a city",
      bazaar: { input: { city: "Oslo" }, inputSchema: { properties: { city: { type: "string" } }, required: ["city"] }, output: { example: { temperature_c: 4.5 } } },
    },
  ]);
  if (process.env.DATABASE_URL) database = await createServerDatabase();
  server = await startServer(
    {
      CAPDEX_SEED: "demo",
      DISCOVERY_EXPLORATION_RATE: "0",
      DISCOVERY_CACHE_MS: "0",
      CAPDEX_WORKER: "off",
      CAPDEX_RATE_LIMIT: "off",
      ALLOW_PRIVATE_TARGETS: "1",
      DNS_SERVERS: dns.address,
      DATABASE_URL: database?.url,
    },
    { timeoutMs: 240_000 },
  );
  client = withBazaar(new HTTPFacilitatorClient({ url: `${server.url}/api/x402` }));

  // A provider lists its x402 server: submit, publish the record, verify (which probes it at once).
  const port = new URL(hono.origin).port;
  listedUrl = `http://api.bazaar-weather.test:${port}/v1/weather`;
  dns.setA("api.bazaar-weather.test", ["127.0.0.1"]);
  const submitted = await post("/api/submit", {
    endpoint_url: listedUrl,
    capability_id: "weather.current",
    contact_email: "ops@bazaar-weather.test",
    provider_name: "Bazaar Weather",
    price_per_call: 0.001,
    network: "base",
  });
  expect(submitted.status).toBe(202);
  const v = submitted.body.verification as { record_value: string };
  dns.setTxt("_capdex-challenge.bazaar-weather.test", [v.record_value]);
  const verified = await post(`/api/submit/${submitted.body.submission_id}/verify`, {});
  expect(verified.body.status).toBe("verified");
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await hono?.close();
  await dns?.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What the official types promise of a DiscoveryResource, checked at run time. */
function expectOfficialResource(r: DiscoveryResource) {
  expect(typeof r.resource).toBe("string");
  expect(() => new URL(r.resource)).not.toThrow();
  expect(["http", "mcp"]).toContain(r.type);
  expect(Number.isInteger(r.x402Version)).toBe(true);
  expect(Number.isNaN(Date.parse(r.lastUpdated))).toBe(false);
  expect(r.accepts.length).toBeGreaterThan(0);
  for (const a of r.accepts) {
    const parsed = PaymentRequirementsV2Schema.safeParse(a);
    expect(parsed.success, JSON.stringify(a)).toBe(true);
    expect(a.payTo).not.toBe("");
    expect(a.maxTimeoutSeconds).toBeGreaterThan(0);
  }
  for (const k of ["description", "mimeType", "serviceName", "iconUrl"] as const) if (r[k] !== undefined) expect(typeof r[k]).toBe("string");
  if (r.tags !== undefined) expect(r.tags.every((t) => typeof t === "string")).toBe(true);
  expect(r.extensions?.capdex).toMatchObject({ endpoint_id: expect.any(String), capability_id: expect.any(String), score: expect.any(Number) });
}

const capdexOf = (r: DiscoveryResource) => r.extensions!.capdex as { endpoint_id: string; capability_id: string; score: number; observed: Record<string, number> };

describe("the official x402 client against Capdex", () => {
  it("lists resources with the default page", async () => {
    const page = await client.extensions.bazaar.listResources();
    expect(page.x402Version).toBe(2);
    expect(page.items).toHaveLength(20);
    expect(page.pagination).toMatchObject({ limit: 20, offset: 0 });
    expect(page.pagination.total).toBeGreaterThan(100);
    page.items.forEach(expectOfficialResource);
  });

  it("pages through everything: every resource once, capability then rank", async () => {
    const all: DiscoveryResource[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += 100) {
      const page = await client.extensions.bazaar.listResources({ limit: 100, offset });
      total = page.pagination.total;
      all.push(...page.items);
    }
    expect(all).toHaveLength(total);
    all.forEach(expectOfficialResource);
    expect(new Set(all.map((r) => capdexOf(r).endpoint_id)).size).toBe(total);
    const caps = all.map((r) => capdexOf(r).capability_id);
    expect(caps).toEqual([...caps].sort());
    for (let i = 1; i < all.length; i++) {
      if (caps[i] === caps[i - 1]) expect(capdexOf(all[i]).score).toBeLessThanOrEqual(capdexOf(all[i - 1]).score);
    }
    // demo figures: distinct callers, never more than the reports
    expect(all.some((r) => capdexOf(r).observed.distinct_reporters_7d > 0)).toBe(true);
    for (const r of all) expect(capdexOf(r).observed.distinct_reporters_7d).toBeLessThanOrEqual(capdexOf(r).observed.sample_size_7d);
    expect((await client.extensions.bazaar.listResources({ offset: total + 5 })).items).toEqual([]);
  });

  it("filters by network, by CAIP-2 id or friendly name alike", async () => {
    const caip = await client.extensions.bazaar.listResources({ network: "eip155:8453", limit: 100 });
    const name = await client.extensions.bazaar.listResources({ network: "base", limit: 100 });
    expect(caip.pagination.total).toBeGreaterThan(0);
    expect(name).toEqual(caip);
    for (const r of caip.items) expect(r.accepts.some((a) => a.network === "eip155:8453")).toBe(true);
    const all = await client.extensions.bazaar.listResources();
    expect(caip.pagination.total).toBeLessThan(all.pagination.total);
  });

  it("filters by scheme and payTo", async () => {
    const all = await client.extensions.bazaar.listResources();
    expect((await client.extensions.bazaar.listResources({ scheme: "exact" })).pagination.total).toBe(all.pagination.total);
    expect((await client.extensions.bazaar.listResources({ scheme: "upto" })).items).toEqual([]);
    const mine = await client.extensions.bazaar.listResources({ payTo: HONO_PAY_TO });
    expect(mine.items.map((r) => r.resource)).toEqual([listedUrl]);
  });

  it("serves the provider's bazaar declaration under extensions=bazaar", async () => {
    // Most demo endpoints declare a call too (as real sellers do): every item of the filtered list
    // carries a declaration, fewer items pass than without the filter, and the provider's is among them.
    const all = await client.extensions.bazaar.listResources({ limit: 1 });
    const first = await client.extensions.bazaar.listResources({ extensions: "bazaar", limit: 1 });
    expect(first.pagination.total).toBeGreaterThan(0);
    expect(first.pagination.total).toBeLessThan(all.pagination.total);
    const items: DiscoveryResource[] = [];
    for (let offset = 0; offset < first.pagination.total; offset += 100) {
      items.push(...(await client.extensions.bazaar.listResources({ extensions: "bazaar", limit: 100, offset })).items);
    }
    expect(items).toHaveLength(first.pagination.total);
    for (const item of items) expect(item.extensions?.bazaar).toBeDefined();
    const r = items.find((item) => item.resource === listedUrl)!;
    expect(r).toBeDefined();
    expectOfficialResource(r);
    expect(r).toMatchObject({
      type: "http",
      serviceName: "Bazaar Weather",
      accepts: [{ scheme: "exact", network: "eip155:8453", amount: "1000", payTo: HONO_PAY_TO }],
      extensions: { bazaar: { info: { input: { type: "http", method: "GET", queryParams: { city: "Oslo" } }, output: { example: { temperature_c: 4.5 } } } } },
    });
  });

  it("searches in English: the resolved capability first, best first", async () => {
    const res = await client.extensions.bazaar.search({ query: "what is the weather right now in Lisbon", limit: 5 });
    expect(res.x402Version).toBe(2);
    expect(res.resources.length).toBeGreaterThan(0);
    res.resources.forEach(expectOfficialResource);
    expect(capdexOf(res.resources[0]).capability_id).toBe("weather.current");
    const scores = res.resources.filter((r) => capdexOf(r).capability_id === "weather.current").map((r) => capdexOf(r).score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.pagination).toMatchObject({ limit: 5, cursor: expect.any(String) });
    const next = await client.extensions.bazaar.search({ query: "what is the weather right now in Lisbon", limit: 5, cursor: res.pagination!.cursor! });
    expect(next.resources.map((r) => capdexOf(r).endpoint_id)).not.toContain(capdexOf(res.resources[0]).endpoint_id);
  });

  it("searches in another language as the intent resolver reads it", async () => {
    const query = "¿qué tiempo hace ahora en Madrid?";
    const res = await client.extensions.bazaar.search({ query, limit: 5 });
    expect(res.x402Version).toBe(2);
    res.resources.forEach(expectOfficialResource);
    // Discover reads the same words with the same resolver: what it resolves comes first here too.
    const discovered = await post("/api/discover", { intent: query });
    if (discovered.status === 200) {
      expect(capdexOf(res.resources[0]).capability_id).toBe((discovered.body.resolved as { capability_id: string }).capability_id);
    } else {
      expect(discovered.body.code).toBe("intent_unresolved");
    }
  });

  it("answers nonsense with an empty list, not an error", async () => {
    const res = await client.extensions.bazaar.search({ query: "zzqx vlorp grindlewock" });
    expect(res).toEqual({ x402Version: 2, resources: [], partialResults: false, pagination: { limit: 10, cursor: null } });
  });

  it("refuses bad parameters with 422 problem+json, which the client reports as an error", async () => {
    await expect(client.extensions.bazaar.listResources({ limit: 500 })).rejects.toThrow(/\(422\)/);
    const res = await fetch(`${server.url}/api/x402/discovery/resources?network=narnia`);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });
});
