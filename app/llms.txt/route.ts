import { methods, route } from "@/lib/http/route";
import { buildLlmsTxt } from "@/lib/mcp/llms";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /llms.txt",
    handler: ({ origin }) =>
      new Response(buildLlmsTxt(origin), { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" } }),
  }),
});
