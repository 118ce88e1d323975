// The MCP endpoint over real HTTP: the production server (`next start`) and the SDK's own client,
// each tool's answer checked against the HTTP API on the same server; limits enforced per address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";
import { callTool, connectMcp } from "../helpers/mcp";

let server: TestServer;
let client: Client;
let database: { url: string; drop: () => Promise<void> } | undefined;
beforeAll(async () => {
  // With DATABASE_URL, a fresh database on that server (never the one DATABASE_URL names).
  if (process.env.DATABASE_URL) database = await createServerDatabase();
  // A fresh in-memory database with the demo seed; no exploration so rankings repeat exactly; one
  // trusted proxy hop, so that a test can speak for a client address of its own (X-Forwarded-For).
  server = await startServer(
    { CAPDEX_SEED: "demo", DISCOVERY_EXPLORATION_RATE: "0", CAPDEX_WORKER: "off", TRUST_PROXY_HOPS: "1", DATABASE_URL: database?.url },
    { timeoutMs: 240_000 },
  );
  client = await connectMcp({ url: `${server.url}/api/mcp` });
}, 300_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
  await database?.drop();
});

async function http(path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe("MCP over HTTP against the production server", () => {
  it("lists the four tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["discover", "list_capabilities", "get_capability", "report_outcome"]);
  });

  it("answers list_capabilities and get_capability as the HTTP API does", async () => {
    const listed = await callTool(client, "list_capabilities", { category: "weather", with_endpoints: true });
    expect(listed.structuredContent).toEqual((await http("/api/capabilities?category=weather&with_endpoints=true")).body);
    const detail = await callTool(client, "get_capability", { id: "weather.forecast", with_endpoints: true });
    expect(detail.structuredContent).toEqual((await http("/api/capabilities/weather.forecast?with_endpoints=true")).body);
    const missing = await callTool(client, "get_capability", { id: "weather.forcast" });
    const missingHttp = await http("/api/capabilities/weather.forcast");
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: "capability_not_found", suggestions: missingHttp.body.suggestions });
  });

  it("discovers what POST /api/discover discovers and records the outcome report", async () => {
    const body = { capability_id: "weather.forecast", preferences: { limit: 3 } };
    const res = await callTool(client, "discover", body);
    const viaHttp = await http("/api/discover", body);
    const strip = ({ discovery_id: _d, ...rest }: Record<string, unknown>) => rest;
    expect(res.isError).toBeFalsy();
    expect(strip(res.structuredContent)).toEqual(strip(viaHttp.body));
    const best = (res.structuredContent.ranked_endpoints as Array<{ endpoint_id: string }>)[0];
    expect(res.text).toContain(`endpoint_id ${best.endpoint_id}`);

    const reported = await callTool(client, "report_outcome", {
      endpoint_id: best.endpoint_id,
      success: true,
      latency_ms: 120,
      status_code: 200,
      discovery_id: res.structuredContent.discovery_id,
    });
    expect(reported.structuredContent).toMatchObject({ accepted: true, report_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it("returns bad arguments and unknown ids as tool errors with the HTTP API's codes", async () => {
    for (const [args, code] of [
      [{ capability_id: "weather.forecast", max_prize: 1 }, "unknown_field"],
      [{ capability_id: "weather.forecast", constraints: { max_price: "cheap" } }, "validation_failed"],
      [{ capability_id: "weather.forcast" }, "capability_not_found"],
    ] as const) {
      const res = await callTool(client, "discover", args);
      const viaHttp = await http("/api/discover", args);
      expect(res.isError).toBe(true);
      expect(res.structuredContent.code).toBe(code);
      expect(viaHttp.body.code).toBe(code);
      expect(res.structuredContent.status).toBe(viaHttp.status);
    }
    const report = await callTool(client, "report_outcome", { endpoint_id: "00000000-0000-4000-8000-000000000000", success: false });
    expect(report.structuredContent).toMatchObject({ code: "endpoint_not_found", status: 404 });
  });

  it("refuses an invalid key with 401 problem+json before any MCP handling", async () => {
    const res = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer cdx_not_a_real_key_at_all_0000000000000" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("invalid_api_key");
  });

  it("answers GET with 405, as a stateless server without a stream may", async () => {
    const res = await fetch(`${server.url}/api/mcp`, { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("gives the 61st anonymous discover call in a minute a rate_limited tool error, shared with HTTP", async () => {
    const address = "198.51.100.77";
    const anon = await connectMcp({ url: `${server.url}/api/mcp`, headers: { "x-forwarded-for": address } });
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await callTool(anon, "discover", { capability_id: "weather.current" }));
    await anon.close();
    expect(results.slice(0, 60).filter((r) => r.isError)).toEqual([]);
    expect(results[60].isError).toBe(true);
    expect(results[60].structuredContent).toMatchObject({ code: "rate_limited", status: 429, violated_policy: "discover" });
    const viaHttp = await fetch(`${server.url}/api/discover`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ capability_id: "weather.current" }),
    });
    expect(viaHttp.status).toBe(429);
    expect(Number(viaHttp.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another address still has its whole budget.
    expect((await callTool(client, "discover", { capability_id: "weather.current" })).isError).toBeFalsy();
  });
});
