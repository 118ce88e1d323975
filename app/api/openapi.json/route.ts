import { json, methods, route } from "@/lib/http/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ operation: "GET /openapi.json", handler: ({ origin }) => json(buildOpenApiDocument(origin), 200, { "Cache-Control": "public, max-age=300" }) }),
});
