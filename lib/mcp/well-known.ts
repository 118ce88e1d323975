// Machine-readable pointers for agents: /.well-known/capdex.json (where the API, its OpenAPI
// document, the MCP endpoint and llms.txt live) and the MCP server card (SEP-2127 draft).
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { json } from "@/lib/http/route";
import { API_VERSION } from "@/lib/schemas/descriptor";
import { MCP_SERVER_INFO, toolListing } from "./server";
import { TOOLS } from "./tools";

export const SERVICE_DESCRIPTION =
  "Discovery of callable HTTP APIs (many paid per call with x402): endpoints ranked by observed success rate, latency and price for a capability id or a plain-words intent, with outcome reporting.";

export function buildServiceDescriptor(origin: string) {
  return {
    name: "Capdex",
    version: API_VERSION,
    description: SERVICE_DESCRIPTION,
    docs: `${origin}/docs`,
    llms_txt: `${origin}/llms.txt`,
    api: { base_url: `${origin}/api`, descriptor: `${origin}/api`, openapi: `${origin}/api/openapi.json` },
    mcp: {
      url: `${origin}/api/mcp`,
      transport: "streamable-http",
      server_card: `${origin}/.well-known/mcp/server-card`,
      tools: TOOLS.map((t) => t.name),
    },
    authentication: {
      required: false,
      scheme: "bearer",
      header: "Authorization",
      description: "Optional. Without a key you are in the anonymous tier; keys (cdx_...) are created at /account.",
      keys: `${origin}/account`,
    },
  };
}

/** Reverse-DNS server name the card format asks for: api.capdex.dev -> dev.capdex.api/capdex. */
function serverName(origin: string): string {
  const host = new URL(origin).hostname;
  const reversed = /^[\d.]+$|:/.test(host) ? host : host.split(".").reverse().join(".");
  return `${reversed}/capdex`;
}

export function buildServerCard(origin: string) {
  return {
    $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
    name: serverName(origin),
    version: MCP_SERVER_INFO.version,
    title: MCP_SERVER_INFO.title,
    description: SERVICE_DESCRIPTION,
    websiteUrl: `${origin}/docs`,
    remotes: [
      {
        type: "streamable-http",
        url: `${origin}/api/mcp`,
        supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        headers: [
          {
            name: "Authorization",
            description: "Bearer <Capdex API key> for the authenticated tier; leave out to call anonymously.",
            isRequired: false,
            isSecret: true,
          },
        ],
        authentication: { required: false, schemes: ["bearer"] },
      },
    ],
    capabilities: { tools: { listChanged: false } },
    tools: TOOLS.map(toolListing),
  };
}

/** Public, cacheable JSON any origin may read (the card format asks for CORS). */
export function publicJson(data: unknown): Response {
  return json(data, 200, {
    "Cache-Control": "public, max-age=3600",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET",
    "Access-Control-Allow-Headers": "Content-Type",
  });
}
