import { methods, route } from "@/lib/http/route";
import { buildServiceDescriptor, publicJson } from "@/lib/mcp/well-known";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ operation: "GET /.well-known/capdex.json", handler: ({ origin }) => publicJson(buildServiceDescriptor(origin)) }),
});
