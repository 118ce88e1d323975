import { methods, route } from "@/lib/http/route";
import { listDiscoveryQuerySchema } from "@/lib/schemas/x402-discovery";
import { listDiscoveryResources } from "@/lib/x402-discovery";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    policy: "capabilities",
    query: listDiscoveryQuerySchema,
    handler: ({ read, query }) => listDiscoveryResources(read, query),
  }),
});
