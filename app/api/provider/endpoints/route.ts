import { methods, route } from "@/lib/http/route";
import { listOwnedEndpoints, ownerOfPrincipal } from "@/lib/provider";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /provider/endpoints",
    policy: "submission",
    handler: async ({ db, principal, origin }) => ({ endpoints: await listOwnedEndpoints(db, await ownerOfPrincipal(db, principal), origin) }),
  }),
});
