import { methods, route } from "@/lib/http/route";
import { handleMcpRequest } from "@/lib/mcp/server";

// Stateless Streamable HTTP: POST only. GET (no server-initiated stream) and DELETE (no sessions)
// get 405, as the MCP transport spec allows.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({ operation: "POST /mcp", handler: (ctx) => handleMcpRequest(ctx) }),
});
