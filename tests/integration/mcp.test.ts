// The MCP endpoint in-process: the SDK's own client, through the route handlers, against a real
// database. Every tool answer is checked against the HTTP operation's answer for the same input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestDb, type TestDb } from "../helpers/db";
import { BASE, call } from "../helpers/http";
import { callTool, connectMcp, routeFetch } from "../helpers/mcp";
import * as mcp from "@/app/api/mcp/route";
import * as list from "@/app/api/capabilities/route";
import * as one from "@/app/api/capabilities/[id]/route";
import * as discoverRoute from "@/app/api/discover/route";
import * as report from "@/app/api/report_outcome/route";
import { queryRows } from "@/lib/db/client";
import { flushDiscoveryLog } from "@/lib/discovery";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { seedDemoEndpoints, seedDemoHistory } from "@/lib/seed/demo";

let t: TestDb;
let client: Client;
beforeAll(async () => {
  // No exploration, so that the same question gets the same ranking twice.
  process.env.DISCOVERY_EXPLORATION_RATE = "0";
  // The catalogue, demo endpoints for the weather capabilities and two days of their history:
  // enough to rank, far quicker than the whole demo seed.
  t = await createTestDb({ seed: "catalogue" });
  await seedDemoEndpoints(t.db, CATALOGUE.capabilities.filter((c) => c.id.startsWith("weather.")));
  await seedDemoHistory(t.db, { days: 2 });
  client = await connectMcp({ fetch: routeFetch(mcp) });
}, 300_000);
afterAll(async () => {
  delete process.env.DISCOVERY_EXPLORATION_RATE;
  await client?.close();
  if (t) await flushDiscoveryLog(t.db);
  await t?.close();
});

const reportCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from outcome_reports`))[0].n;
const withoutId = ({ discovery_id: _id, ...rest }: Record<string, unknown>) => rest;
type Problem = { code: string; status: number; errors?: Array<{ pointer: string }>; suggestions?: string[] };

/** Posts raw JSON-RPC to the route, as a client that does not use the SDK would. */
async function rawPost(body: unknown, headers: Record<string, string> = {}) {
  return mcp.POST(
    new Request(`${BASE}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": "203.0.113.99", ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

describe("the MCP endpoint", () => {
  it("initialises statelessly (no session id) with Capdex's name and instructions", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "capdex", title: "Capdex" });
    expect(client.getInstructions()).toContain("report_outcome");
    const res = await rawPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-06-18");
  });

  it("lists four tools whose input schemas are the HTTP bodies' schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(["discover", "list_capabilities", "get_capability", "report_outcome"]);
    const discover = tools.find((x) => x.name === "discover")!;
    expect(discover.inputSchema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: {
        capability_id: { type: "string", pattern: expect.any(String) },
        intent: { type: "string", maxLength: 500 },
        constraints: { type: "object", properties: { max_price: { type: "number", minimum: 0 } } },
        preferences: { type: "object", properties: { ranking_preset: { enum: ["default", "reliability", "speed", "budget", "balanced"] } } },
      },
    });
    expect(JSON.stringify(discover.inputSchema)).not.toContain("$ref");
    const outcome = tools.find((x) => x.name === "report_outcome")!;
    expect(outcome.inputSchema.required).toEqual(["endpoint_id", "success"]);
    expect(outcome.annotations?.readOnlyHint).toBe(false);
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(80);
  });

  it("answers GET and DELETE with 405 problem+json (no stream, no sessions)", async () => {
    for (const [handler, method] of [[mcp.GET, "GET"], [mcp.DELETE, "DELETE"]] as const) {
      const res = await call(handler, "/api/mcp", { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
      expect(res.body.code).toBe("method_not_allowed");
    }
  });

  it("refuses an invalid API key on the HTTP request with 401 problem+json", async () => {
    const res = await rawPost({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: "Bearer cdx_0000000000000000000000000000000000000000" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    expect(((await res.json()) as Problem).code).toBe("invalid_api_key");
    await expect(connectMcp({ fetch: routeFetch(mcp), apiKey: "cdx_0000000000000000000000000000000000000000" })).rejects.toThrow();
  });

  it("answers an unknown tool with a JSON-RPC invalid-params error", async () => {
    await expect(client.callTool({ name: "submit", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("list_capabilities", () => {
  it("answers what GET /api/capabilities answers, with a readable summary", async () => {
    const res = await callTool(client, "list_capabilities", { search: "forecast", with_endpoints: true });
    const http = await call(list.GET, "/api/capabilities?search=forecast&with_endpoints=true");
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual(http.body);
    expect(res.text).toMatch(/^\d+ of \d+ matching capabilities:/);
    expect(res.text).toContain("- weather.forecast: ");
  });

  it("pages with limit and cursor like the HTTP operation", async () => {
    const res = await callTool(client, "list_capabilities", { category: "weather", limit: 2 });
    const http = await call(list.GET, "/api/capabilities?category=weather&limit=2");
    expect(res.structuredContent).toEqual(http.body);
    expect(res.text).toContain(`cursor "${http.body.next_cursor}"`);
  });

  it.each([
    [{ limit: 0 }, "validation_failed", "#/limit"],
    [{ with_endpoints: "yes" }, "validation_failed", "#/with_endpoints"],
    [{ tag: "weather" }, "unknown_field", "#/tag"],
    [{ search: "a\u0000b" }, "validation_failed", "#/search"],
  ])("refuses %j as a tool error with code %s", async (args, code, pointer) => {
    const res = await callTool(client, "list_capabilities", args);
    expect(res.isError).toBe(true);
    const problem = res.structuredContent as Problem;
    expect(problem).toMatchObject({ code, status: 422 });
    expect(problem.errors?.[0].pointer).toBe(pointer);
    expect(res.text).toMatch(new RegExp(`^Error ${code} \\(422\\)`));
  });
});

describe("get_capability", () => {
  it("answers what GET /api/capabilities/{id} answers, endpoint ids in the text", async () => {
    const res = await callTool(client, "get_capability", { id: "weather.current", with_endpoints: true });
    const http = await call(one.GET, "/api/capabilities/weather.current?with_endpoints=true", { params: { id: "weather.current" } });
    expect(res.structuredContent).toEqual(http.body);
    for (const e of http.body.endpoints as Array<{ endpoint_id: string }>) expect(res.text).toContain(e.endpoint_id);
  });

  it("gives capability_not_found with the same suggestions as the HTTP API", async () => {
    const res = await callTool(client, "get_capability", { id: "weather.curent" });
    const http = await call(one.GET, "/api/capabilities/weather.curent", { params: { id: "weather.curent" } });
    expect(http.status).toBe(404);
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: "capability_not_found", status: 404, suggestions: http.body.suggestions });
    expect(res.text).toMatch(/^Error capability_not_found \(404\)/);
    expect(res.text).toContain("Did you mean: weather.current");
  });

  it("refuses a missing id as validation_failed", async () => {
    const res = await callTool(client, "get_capability", {});
    expect(res.structuredContent).toMatchObject({ code: "validation_failed", errors: [{ pointer: "#/id" }] });
  });
});

describe("discover", () => {
  it("ranks what POST /api/discover ranks for the same body", async () => {
    const body = { capability_id: "weather.forecast", preferences: { ranking_preset: "reliability", limit: 3 } };
    const res = await callTool(client, "discover", body);
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: body });
    expect(http.status).toBe(200);
    expect(res.isError).toBeFalsy();
    expect(withoutId(res.structuredContent)).toEqual(withoutId(http.body));
    expect(res.structuredContent.discovery_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.structuredContent.discovery_id).not.toBe(http.body.discovery_id);
    const ranked = http.body.ranked_endpoints as Array<{ endpoint_id: string; provider_name: string; url: string }>;
    expect(ranked.length).toBeGreaterThan(0);
    expect(res.text.split("\n")[0]).toBe(`weather.forecast (confidence 1.00), discovery_id ${res.structuredContent.discovery_id}`);
    expect(res.text).toContain(`1. ${ranked[0].provider_name}: `);
    for (const e of ranked) expect(res.text).toContain(`endpoint_id ${e.endpoint_id}`);
  });

  it("resolves an intent like the HTTP API", async () => {
    const body = { intent: "weather forecast for the next days", constraints: { network: "base" } };
    const res = await callTool(client, "discover", body);
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: body });
    expect(res.structuredContent.resolved).toEqual(http.body.resolved);
    expect(res.text).toMatch(/^\w+\.\w+ \(confidence \d\.\d\d\)/);
  });

  it.each([
    [{}, "validation_failed", "#/capability_id"],
    [{ capability_id: "Weather" }, "validation_failed", "#/capability_id"],
    [{ capability_id: "weather.forecast", max_prize: 1 }, "unknown_field", "#/max_prize"],
    [{ capability_id: "weather.forecast", constraints: { max_price: -1 } }, "validation_failed", "#/constraints/max_price"],
    [{ capability_id: "weather.forecast", constraints: { network: "dogecoin" } }, "validation_failed", "#/constraints/network"],
    [{ capability_id: "weather.forecast", preferences: { ranking_preset: "fastest" } }, "validation_failed", "#/preferences/ranking_preset"],
  ])("refuses %j with the HTTP API's code and pointer", async (body, code, pointer) => {
    const res = await callTool(client, "discover", body);
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: body });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code, status: 422, errors: http.body.errors });
    expect(http.body.code).toBe(code);
    expect((res.structuredContent as Problem).errors?.[0].pointer).toBe(pointer);
  });

  it("gives capability_not_found with suggestions for an unknown capability", async () => {
    const res = await callTool(client, "discover", { capability_id: "weather.forcast" });
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: { capability_id: "weather.forcast" } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: "capability_not_found", suggestions: http.body.suggestions });
    expect(res.structuredContent.suggestions).toContain("weather.forecast");
  });

  it("gives intent_unresolved for an intent nothing matches", async () => {
    const body = { intent: "zqxj vbnm wplk" };
    const res = await callTool(client, "discover", body);
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: body });
    expect(http.body.code).toBe("intent_unresolved");
    expect(res.structuredContent).toMatchObject({ code: "intent_unresolved", status: 404 });
  });
});

describe("report_outcome", () => {
  it("stores a report like POST /api/report_outcome", async () => {
    const d = await callTool(client, "discover", { capability_id: "weather.current" });
    const endpointId = (d.structuredContent.ranked_endpoints as Array<{ endpoint_id: string }>)[0].endpoint_id;
    const before = await reportCount();
    const res = await callTool(client, "report_outcome", {
      endpoint_id: endpointId,
      success: true,
      latency_ms: 180,
      status_code: 200,
      discovery_id: d.structuredContent.discovery_id,
      paid_amount: 0.002,
    });
    const failed = await callTool(client, "report_outcome", { endpoint_id: endpointId, success: false, failure: "payment_failed", paid_amount: 0 });
    expect(failed.isError).toBeFalsy();
    const http = await call(report.POST, "/api/report_outcome", { method: "POST", json: { endpoint_id: endpointId, success: false, status_code: 500 } });
    expect(http.status).toBe(202);
    expect(res.isError).toBeFalsy();
    expect(Object.keys(res.structuredContent).sort()).toEqual(Object.keys(http.body).sort());
    expect(res.structuredContent).toMatchObject({ accepted: true, report_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.text).toContain(String(res.structuredContent.report_id));
    expect(await reportCount()).toBe(before + 3);
    const [row] = await queryRows<{ endpoint_id: string; success: boolean; latency_ms: number; discovery_id: string; paid_amount: number }>(
      t.db,
      sql`select endpoint_id, success, latency_ms, discovery_id, paid_amount from outcome_reports where id = ${res.structuredContent.report_id}`,
    );
    expect(row).toMatchObject({ endpoint_id: endpointId, success: true, latency_ms: 180, discovery_id: d.structuredContent.discovery_id, paid_amount: 0.002 });
    const [bad] = await queryRows<{ failure: string }>(t.db, sql`select failure from outcome_reports where id = ${failed.structuredContent.report_id}`);
    expect(bad.failure).toBe("payment_failed");
  });

  it.each([
    [{ endpoint_id: "00000000-0000-4000-8000-000000000000", success: true }, "endpoint_not_found", 404],
    [{ endpoint_id: "not-a-uuid", success: true }, "validation_failed", 422],
    [{ endpoint_id: "00000000-0000-4000-8000-000000000000", success: "yes" }, "validation_failed", 422],
    [{ endpoint_id: "00000000-0000-4000-8000-000000000000", success: true, latency_ms: 700_000 }, "validation_failed", 422],
    [{ endpoint_id: "00000000-0000-4000-8000-000000000000", success: true, rating: 5 }, "unknown_field", 422],
  ])("refuses %j with %s and stores nothing", async (body, code, status) => {
    const before = await reportCount();
    const res = await callTool(client, "report_outcome", body);
    const http = await call(report.POST, "/api/report_outcome", { method: "POST", json: body });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code, status });
    expect(http.body.code).toBe(code);
    if (code === "unknown_field") {
      expect(res.structuredContent.accepted_fields).toEqual(expect.arrayContaining(["failure", "paid_amount"]));
      expect(http.body.accepted_fields).toEqual(res.structuredContent.accepted_fields);
    }
    expect(await reportCount()).toBe(before);
  });
});
