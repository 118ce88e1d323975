// An MCP client (the SDK's own Client and Streamable HTTP transport) against /api/mcp: in-process
// through the route handlers, or over real HTTP against a running server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RouteHandler } from "@/lib/http/route";
import { BASE } from "./http";

type Handlers = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", RouteHandler>>;

/** A fetch that hands each request to the route file's handler, as Next would. */
export function routeFetch(handlers: Handlers, ip = "203.0.113.7"): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const headers = new Headers(req.headers);
    if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", ip);
    const method = req.method as keyof Handlers;
    const handler = handlers[method];
    if (!handler) return new Response(null, { status: 405 });
    const body = ["GET", "HEAD"].includes(method) ? undefined : await req.arrayBuffer();
    return handler(new Request(req.url, { method, headers, body }), { params: Promise.resolve({}) });
  };
}

export async function connectMcp(
  opts: { url?: string; fetch?: typeof fetch; apiKey?: string; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = new Client({ name: "capdex-tests", version: "1.0.0" });
  const headers = { ...opts.headers, ...(opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(opts.url ?? `${BASE}/api/mcp`), {
    fetch: opts.fetch,
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

export type ToolResult = CallToolResult & { structuredContent: Record<string, unknown> };

/** Calls a tool; the result always carries structured content and one text block. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === "text" ? first.text : "" };
}
