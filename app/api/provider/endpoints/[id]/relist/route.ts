import { methods, route } from "@/lib/http/route";
import { parseOrThrow } from "@/lib/http/validate";
import { relistOwnedEndpoint, ownerOfPrincipal } from "@/lib/provider";
import { providerEndpointParamsSchema } from "@/lib/schemas/provider";

// No body is read: the endpoint id is all it takes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /provider/endpoints/{id}/relist",
    policy: "submission",
    handler: async ({ db, principal, params, origin }) =>
      relistOwnedEndpoint(db, await ownerOfPrincipal(db, principal), parseOrThrow(providerEndpointParamsSchema, params).id, { origin }),
  }),
});
