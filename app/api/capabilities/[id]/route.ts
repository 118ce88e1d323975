import { methods, route } from "@/lib/http/route";
import { getCapabilityDetail } from "@/lib/registry/detail";
import { getCapabilityQuerySchema } from "@/lib/schemas/capabilities";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /capabilities/{id}",
    policy: "capabilities",
    query: getCapabilityQuerySchema,
    handler: ({ read, query, params }) => getCapabilityDetail(read, params.id, query.with_endpoints ?? false),
  }),
});
