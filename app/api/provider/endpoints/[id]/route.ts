import { methods, route } from "@/lib/http/route";
import { parseOrThrow } from "@/lib/http/validate";
import { describeOwnedEndpoint, ownerOfPrincipal, updateOwnedEndpoint } from "@/lib/provider";
import { providerEndpointParamsSchema, providerEndpointPatchSchema } from "@/lib/schemas/provider";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /provider/endpoints/{id}",
    policy: "submission",
    handler: async ({ db, principal, params, origin }) =>
      describeOwnedEndpoint(db, await ownerOfPrincipal(db, principal), parseOrThrow(providerEndpointParamsSchema, params).id, origin),
  }),
  PATCH: route({
    operation: "PATCH /provider/endpoints/{id}",
    policy: "submission",
    body: providerEndpointPatchSchema,
    handler: async ({ db, principal, params, body, origin }) =>
      updateOwnedEndpoint(db, await ownerOfPrincipal(db, principal), parseOrThrow(providerEndpointParamsSchema, params).id, body, { origin }),
  }),
});
