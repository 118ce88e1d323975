// Call-ready results: probes read the bazaar declaration that real x402 servers (the official Hono
// middleware) put in their 402, keep the last valid one, and discover, the capability detail and
// the MCP summary show how to call each endpoint; the asset, scheme and callable constraints.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { probeEndpoint } from "@/lib/probes";
import { POST as discoverRoute } from "@/app/api/discover/route";
import { GET as capabilityRoute } from "@/app/api/capabilities/[id]/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { discoverTool } from "@/lib/mcp/tools";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { HONO_PAY_TO, startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let t: TestDb;
let hono: HonoX402Server;
let capability: string;
let providerId: string;

const weather = {
  input: { city: "Oslo", units: "metric" },
  inputSchema: { properties: { city: { type: "string", description: "City name" }, units: { type: "string" } }, required: ["city"] },
  output: { example: { city: "Oslo", temperature_c: 4.5 } },
};

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.DISCOVERY_CACHE_MS = "0";
  hono = await startHonoX402Server([
    { method: "GET", path: "/weather", price: "$0.001", bazaar: weather },
    {
      method: "POST",
      path: "/translate",
      price: "$0.002",
      bazaar: { bodyType: "json", input: { text: "hello", to: "fr" }, inputSchema: { properties: { text: { type: "string" }, to: { type: "string" } }, required: ["text", "to"] }, output: { example: { text: "bonjour" } } },
    },
    {
      method: "POST",
      path: "/mcp",
      price: "$0.003",
      bazaar: { toolName: "analyse_ticker", description: "Analyse a ticker", inputSchema: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] }, example: { ticker: "AAPL" } },
    },
    { method: "GET", path: "/plain", price: "$0.001" },
    // info that contradicts its own schema
    { method: "GET", path: "/lying", price: "$0.001", rawBazaar: { info: { input: { type: "http", method: "GET", queryParams: { city: 42 } } }, schema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { input: { type: "object", properties: { type: { const: "http" }, method: { enum: ["GET"] }, queryParams: { type: "object", properties: { city: { type: "string" } } } } } }, required: ["input"] } } },
    {
      method: "GET",
      path: "/huge",
      price: "$0.001",
      bazaar: { input: { blob: "x".repeat(40 * 1024) }, inputSchema: { properties: { blob: { type: "string" } } } },
    },
  ]);
  [{ id: capability }] = await queryRows<{ id: string }>(t.db, sql`select id from capabilities order by id limit 1`);
  [{ id: providerId }] = await t.db.insert(providers).values({ name: "Hono Labs" }).returning({ id: providers.id });
});

afterAll(async () => {
  await hono.close();
  await flushDiscoveryLog(t.db);
  await t.close();
});

async function listing(path: string, opts: { method?: string; price?: number; capability?: string } = {}) {
  const [row] = await t.db
    .insert(endpoints)
    .values({
      capabilityId: opts.capability ?? capability,
      providerId,
      url: hono.url(path),
      method: opts.method ?? "GET",
      host: "127.0.0.1",
      domain: "127.0.0.1",
      pricePerCall: opts.price ?? 0.01,
      network: "base",
    })
    .returning({ id: endpoints.id });
  return row.id;
}

async function row(id: string) {
  const [e] = await t.db.select().from(endpoints).where(eq(endpoints.id, id));
  return e;
}

describe("probes of an x402 server declaring the bazaar extension", () => {
  let weatherId: string;
  let translateId: string;
  let mcpId: string;
  let plainId: string;

  beforeAll(async () => {
    weatherId = await listing("/weather");
    translateId = await listing("/translate", { method: "POST" });
    mcpId = await listing("/mcp", { method: "POST" });
    plainId = await listing("/plain");
    for (const id of [weatherId, translateId, mcpId, plainId]) expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: true });
  });

  it("keeps how to call a GET endpoint: its query parameters' schema and example, and the output example", async () => {
    const e = await row(weatherId);
    expect(e.call).toMatchObject({
      source: "declared",
      method: "GET",
      input: { kind: "query", example: { city: "Oslo", units: "metric" }, schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      output: { type: "json", example: { city: "Oslo", temperature_c: 4.5 } },
    });
    expect(e.declaration).toMatchObject({ info: { input: { type: "http", method: "GET" } }, schema: { $schema: "https://json-schema.org/draft/2020-12/schema" } });
    expect(e.declarationIssue).toBeNull();
  });

  it("keeps a JSON body and an MCP tool", async () => {
    expect((await row(translateId)).call).toMatchObject({
      method: "POST",
      input: { kind: "body", body_type: "json", example: { text: "hello", to: "fr" }, schema: { required: ["text", "to"] } },
      output: { example: { text: "bonjour" } },
    });
    expect((await row(mcpId)).call).toMatchObject({ method: "POST", input: { kind: "mcp", tool: "analyse_ticker", example: { ticker: "AAPL" }, schema: { required: ["ticker"] } } });
  });

  it("stores the payment requirements it saw (pay-to, asset, scheme, timeout, extra)", async () => {
    const e = await row(weatherId);
    expect(e.paymentSeen).toMatchObject({
      x402_version: 2,
      via: "probe",
      accepts: [{ scheme: "exact", network: "eip155:8453", amount: "1000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: HONO_PAY_TO, maxTimeoutSeconds: expect.any(Number), extra: { name: "USD Coin" } }],
      resource: { description: "test resource /weather", mimeType: "application/json" },
    });
    expect(e.paymentSeenAt).toBeInstanceOf(Date);
    expect((await row(plainId)).call).toBeNull();
  });

  it("keeps the last valid declaration when a later one does not validate, and says why", async () => {
    const id = await listing("/weather?v=2");
    await probeEndpoint(t.db, id);
    const before = await row(id);
    await t.db.update(endpoints).set({ url: hono.url("/lying") }).where(eq(endpoints.id, id));
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: true, detail: { declaration: { status: "declaration_invalid" } } });
    const after = await row(id);
    expect(after.call).toEqual(before.call);
    expect(after.declarationIssue).toMatchObject({ reason: "declaration_invalid", problem: expect.stringContaining("queryParams") });
  });

  it("ignores a declaration over 32 KiB, with a reason, and the probe still passes", async () => {
    const id = await listing("/huge");
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: true, detail: { declaration: { status: "declaration_too_large" } } });
    const e = await row(id);
    expect(e.call).toBeNull();
    expect(e.declarationIssue).toMatchObject({ reason: "declaration_too_large" });
  });

  it("does not move the call's updated_at when the same declaration is read again", async () => {
    const first = (await row(weatherId)).call;
    await probeEndpoint(t.db, weatherId);
    expect((await row(weatherId)).call).toEqual(first);
  });

  describe("discover", () => {
    const ranked = async (constraints: Record<string, unknown> = {}) => {
      const res = await call(discoverRoute, "/api/discover", {
        method: "POST",
        json: { capability_id: capability, constraints, preferences: { limit: 20, include_fallbacks: true } },
      });
      expect(res.status).toBe(200);
      return res.body as { ranked_endpoints: Array<Record<string, unknown>>; fallback_endpoints: Array<Record<string, unknown> & { exclusion_reasons: string[] }> };
    };

    it("gives each endpoint its call, source and domain_verified", async () => {
      const body = await ranked();
      const byId = new Map(body.ranked_endpoints.map((e) => [e.endpoint_id, e]));
      expect(byId.get(weatherId)).toMatchObject({ source: "submission", domain_verified: true, call: { source: "declared", input: { kind: "query" } } });
      expect(byId.get(plainId)).not.toHaveProperty("call");
    });

    it("keeps only endpoints with a known call when callable is set", async () => {
      const body = await ranked({ callable: true });
      const ids = body.ranked_endpoints.map((e) => e.endpoint_id);
      expect(ids).toEqual(expect.arrayContaining([weatherId, translateId, mcpId]));
      expect(ids).not.toContain(plainId);
      expect(body.ranked_endpoints.every((e) => e.call)).toBe(true);
    });

    it("filters by asset symbol or contract address, and by scheme", async () => {
      expect((await ranked({ asset: "usdc" })).ranked_endpoints.map((e) => e.endpoint_id)).toContain(weatherId);
      expect((await ranked({ asset: "0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913" })).ranked_endpoints.map((e) => e.endpoint_id)).toContain(weatherId);
      const dai = await ranked({ asset: "DAI" });
      expect(dai.ranked_endpoints).toEqual([]);
      expect(dai.fallback_endpoints[0].exclusion_reasons).toContain("asset_mismatch");
      expect((await ranked({ scheme: "exact" })).ranked_endpoints.map((e) => e.endpoint_id)).toContain(weatherId);
      const upto = await ranked({ scheme: "upto" });
      expect(upto.ranked_endpoints).toEqual([]);
      expect(upto.fallback_endpoints[0].exclusion_reasons).toContain("scheme_mismatch");
    });

    it("refuses a malformed scheme with 422", async () => {
      const res = await call(discoverRoute, "/api/discover", { method: "POST", json: { capability_id: capability, constraints: { scheme: "ex act" } } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ pointer: "#/constraints/scheme", detail: expect.any(String) }]);
    });

    it("shows the call in the capability detail too", async () => {
      const res = await call(capabilityRoute, `/api/capabilities/${capability}?with_endpoints=true`, { params: { id: capability } });
      const detail = (res.body.endpoints as Array<Record<string, unknown>>).find((e) => e.endpoint_id === weatherId);
      expect(detail).toMatchObject({ call: { input: { kind: "query", example: { city: "Oslo" } } } });
    });

    it("names the parameters in the MCP discover tool's text", async () => {
      const out = await discoverTool.call({ db: t.db, principal: { kind: "anonymous", key: "ip:203.0.113.9", ip: "203.0.113.9" } }, { capability_id: capability, constraints: { callable: true } });
      expect(out.text).toContain("call GET with query parameters city (string, required), units (string)");
      expect(out.text).toContain('e.g. {"city":"Oslo","units":"metric"}');
      expect(out.text).toContain("call MCP tool analyse_ticker with arguments ticker (string, required)");
      expect(out.text).toContain('returns json, e.g. {"text":"bonjour"}');
    });
  });
});
