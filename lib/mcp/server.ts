// POST /api/mcp: a stateless Streamable HTTP MCP server (JSON answers, no sessions), built per
// request around the caller's principal, so any instance can answer any request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { problemBody, toApiError } from "@/lib/http/problem";
import { checkRateLimit } from "@/lib/ratelimit";
import { API_VERSION } from "@/lib/schemas/descriptor";
import { summarizeError } from "./summary";
import { TOOLS, type McpTool } from "./tools";
import { errorFields, logger } from "@/lib/log";

export const MCP_SERVER_INFO = { name: "capdex", title: "Capdex", version: API_VERSION };

export const MCP_INSTRUCTIONS =
  "Capdex finds callable HTTP APIs (many paid per call with x402) for a capability. " +
  "Call discover with an intent in plain words (or a capability_id from list_capabilities) to get endpoints ranked " +
  "by observed success rate, latency and price; call the best one yourself; then call report_outcome with its " +
  "endpoint_id, the discovery_id, success, latency_ms and status_code so the ranking learns. " +
  "Ranked endpoints carry `call` when known: the parameters or body (JSON Schema and example) and an output example. " +
  "x402 clients can also read Capdex as a facilitator catalogue: GET /api/x402/discovery/resources and " +
  "/api/x402/discovery/search (facilitator URL {origin}/api/x402). " +
  "Errors carry a stable code (capability_not_found, intent_unresolved, intent_refused, validation_failed, rate_limited, ...).";

export function toolByName(name: string): McpTool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** The tools/list entry of a tool (also the server card's). */
export function toolListing(t: McpTool) {
  return { name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations };
}

type McpContext = { req: Request; db: Db; principal: Principal; requestId: string; origin: string };

// The low-level Server rather than McpServer: McpServer validates arguments itself and reduces a
// failure to a bare message, while agents need the HTTP API's codes and pointers (unknown_field,
// validation_failed with #/constraints/max_price, ...). So the tools parse with lib/http/validate.
export function createMcpServer(ctx: Omit<McpContext, "req">, onLimitHeaders: (h: Record<string, string>) => void) {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = toolByName(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"; tools: ${TOOLS.map((t) => t.name).join(", ")}.`);
    }
    try {
      const limit = await checkRateLimit(ctx.db, tool.policy, ctx.principal);
      onLimitHeaders(limit.headers);
      if (!limit.allowed) throw limit.error;
      const { structured, text } = await tool.call({ db: ctx.db, principal: ctx.principal }, request.params.arguments);
      return { content: [{ type: "text", text }], structuredContent: structured };
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) logger().error({ request_id: ctx.requestId, tool: tool.name, ...errorFields(err) }, "mcp tool failed");
      return {
        isError: true,
        content: [{ type: "text", text: summarizeError(apiError) }],
        structuredContent: problemBody(apiError, ctx.requestId, ctx.origin),
      };
    }
  });
  return server;
}

/** Answers one HTTP request to /api/mcp (the route wrapper has already resolved the principal). */
export async function handleMcpRequest(ctx: McpContext): Promise<Response> {
  let limitHeaders: Record<string, string> = {};
  const server = createMcpServer(ctx, (h) => (limitHeaders = h));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(ctx.req);
    // The RateLimit headers of the last tool call in this request, as the HTTP operation sends them.
    for (const [k, v] of Object.entries(limitHeaders)) res.headers.set(k, v);
    res.headers.set("Cache-Control", "no-store");
    return res;
  } finally {
    await server.close();
  }
}
