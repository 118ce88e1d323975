import { methods, route } from "@/lib/http/route";
import { listCapabilities } from "@/lib/registry";
import { listCapabilitiesQuerySchema } from "@/lib/schemas/capabilities";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /capabilities",
    policy: "capabilities",
    query: listCapabilitiesQuerySchema,
    handler: ({ read, query }) => listCapabilities(read, query),
  }),
});
