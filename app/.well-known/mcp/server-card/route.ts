import { methods, route } from "@/lib/http/route";
import { buildServerCard, publicJson } from "@/lib/mcp/well-known";

// The MCP server card at the path of the SEP-2127 draft.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ operation: "GET /.well-known/mcp/server-card", handler: ({ origin }) => publicJson(buildServerCard(origin)) }),
});
