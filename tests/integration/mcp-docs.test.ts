// The agents' documents: /llms.txt, /.well-known/capdex.json, the MCP server card and the client
// configuration snippets, all generated from what is actually served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestDb, type TestDb } from "../helpers/db";
import { BASE, call } from "../helpers/http";
import { connectMcp, routeFetch } from "../helpers/mcp";
import * as llms from "@/app/llms.txt/route";
import * as capdexJson from "@/app/.well-known/capdex.json/route";
import * as card from "@/app/.well-known/mcp/server-card/route";
import * as cardJson from "@/app/.well-known/mcp/server-card.json/route";
import * as mcpJson from "@/app/.well-known/mcp.json/route";
import * as mcp from "@/app/api/mcp/route";
import * as descriptor from "@/app/api/route";
import * as openapi from "@/app/api/openapi.json/route";
import { mcpClientConfig, API_KEY_PLACEHOLDER } from "@/lib/mcp/client-config";
import { POLICY_OPERATIONS } from "@/lib/mcp/llms";
import { POLICIES } from "@/lib/ratelimit/policies";
import { OPERATIONS } from "@/lib/schemas/descriptor";

let t: TestDb;
let client: Client;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  client = await connectMcp({ fetch: routeFetch(mcp) });
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

async function text(handler: typeof llms.GET, path: string) {
  const res = await handler(new Request(BASE + path), { params: Promise.resolve({}) });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe("/llms.txt", () => {
  it("explains Capdex in llms.txt form with every operation, limit and MCP tool", async () => {
    const res = await text(llms.GET, "/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.body).toMatch(/^# Capdex\n\n> .+\n/);
    for (const label of Object.keys(OPERATIONS)) {
      const [method, path] = label.split(" ");
      expect(res.body).toContain(`\`${method} /api${path}\`: ${OPERATIONS[label]}`);
    }
    expect(res.body).toContain("| `POST /api/discover` | 60 / minute | 600 / minute |");
    expect(res.body).toContain("| `POST /api/submit`, `POST /api/capabilities/proposals` | 10 / hour | 100 / hour |");
    for (const name of ["discover", "list_capabilities", "get_capability", "report_outcome"]) expect(res.body).toContain(`- \`${name}\``);
    expect(res.body).toContain(`${BASE}/api/mcp`);
    expect(res.body).toContain(`[OpenAPI 3.1](${BASE}/api/openapi.json)`);
  });

  it("maps every rate-limit policy to operations the descriptor lists", () => {
    expect(Object.keys(POLICY_OPERATIONS).sort()).toEqual(Object.keys(POLICIES).sort());
    for (const labels of Object.values(POLICY_OPERATIONS)) for (const l of labels) expect(OPERATIONS).toHaveProperty([l]);
  });

  it("answers POST with 405", async () => {
    expect((await call(llms.POST, "/llms.txt", { method: "POST" })).status).toBe(405);
  });
});

describe("/.well-known/capdex.json", () => {
  it("points at the API, its OpenAPI document, the MCP endpoint and llms.txt, all of which answer", async () => {
    const res = await call(capdexJson.GET, "/.well-known/capdex.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.body).toMatchObject({
      name: "Capdex",
      api: { base_url: `${BASE}/api`, descriptor: `${BASE}/api`, openapi: `${BASE}/api/openapi.json` },
      mcp: { url: `${BASE}/api/mcp`, transport: "streamable-http", tools: ["discover", "list_capabilities", "get_capability", "report_outcome"] },
      llms_txt: `${BASE}/llms.txt`,
      authentication: { required: false, scheme: "bearer" },
    });
    expect((await call(descriptor.GET, "/api")).body.version).toBe(res.body.version);
    expect((await call(openapi.GET, "/api/openapi.json")).body.openapi).toBe("3.1.0");
    expect((await text(llms.GET, "/llms.txt")).status).toBe(200);
  });
});

describe("the MCP server card", () => {
  it("describes the Streamable HTTP remote and lists exactly the tools tools/list gives", async () => {
    const res = await call(card.GET, "/.well-known/mcp/server-card");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.body).toMatchObject({
      name: "localhost/capdex",
      title: "Capdex",
      remotes: [{ type: "streamable-http", url: `${BASE}/api/mcp`, authentication: { required: false, schemes: ["bearer"] } }],
      capabilities: { tools: { listChanged: false } },
    });
    expect(res.body.version).toBe(client.getServerVersion()?.version);
    const { tools } = await client.listTools();
    expect(res.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
  });

  it("is served at the earlier drafts' paths too", async () => {
    const first = await call(card.GET, "/.well-known/mcp/server-card");
    for (const [handler, path] of [[cardJson.GET, "/.well-known/mcp/server-card.json"], [mcpJson.GET, "/.well-known/mcp.json"]] as const) {
      const res = await call(handler, path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first.body);
    }
  });
});

describe("mcpClientConfig", () => {
  it("gives mcpServers JSON with the endpoint URL and the Bearer header", () => {
    const config = mcpClientConfig("https://capdex.example/");
    expect(config.url).toBe("https://capdex.example/api/mcp");
    const generic = JSON.parse(config.snippets.find((s) => s.id === "generic")!.code);
    expect(generic).toEqual({
      mcpServers: { capdex: { type: "http", url: "https://capdex.example/api/mcp", headers: { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` } } },
    });
    const cursor = JSON.parse(config.snippets.find((s) => s.id === "cursor")!.code);
    expect(cursor.mcpServers.capdex.url).toBe(config.url);
    const vscode = JSON.parse(config.snippets.find((s) => s.id === "vscode")!.code);
    expect(vscode.servers.capdex).toMatchObject({ type: "http", url: config.url });
    const desktop = JSON.parse(config.snippets.find((s) => s.id === "claude-desktop")!.code);
    expect(desktop.mcpServers.capdex.args).toEqual(["-y", "mcp-remote", config.url, "--header", "Authorization:${CAPDEX_AUTH}"]);
    expect(desktop.mcpServers.capdex.env.CAPDEX_AUTH).toBe(`Bearer ${API_KEY_PLACEHOLDER}`);
    expect(config.snippets.find((s) => s.id === "claude-code")!.code).toBe(
      `claude mcp add --transport http capdex ${config.url} \\\n  --header "Authorization: Bearer ${API_KEY_PLACEHOLDER}"`,
    );
  });

  it("leaves the key out for anonymous use and fills in a real one when given", () => {
    const anon = mcpClientConfig("https://capdex.example", { withKey: false });
    for (const s of anon.snippets) expect(s.code).not.toContain("Bearer");
    const mine = mcpClientConfig("https://capdex.example", { apiKey: "cdx_abc" });
    expect(mine.snippets.every((s) => s.code.includes("cdx_abc"))).toBe(true);
  });
});
