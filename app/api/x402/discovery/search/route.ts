import { methods, route } from "@/lib/http/route";
import { searchDiscoveryQuerySchema } from "@/lib/schemas/x402-discovery";
import { searchDiscoveryResources } from "@/lib/x402-discovery";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    policy: "capabilities",
    query: searchDiscoveryQuerySchema,
    handler: ({ read, query }) => searchDiscoveryResources(read, query),
  }),
});
