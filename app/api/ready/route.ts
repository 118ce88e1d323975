import { ApiError } from "@/lib/http/errors";
import { methods, route } from "@/lib/http/route";
import { checkReadiness } from "@/lib/db/readiness";
import { isDraining } from "@/lib/server/http-drain";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /ready",
    handler: ({ db }) => {
      // A stopping instance says so first, so that balancers take it out before it stops listening.
      if (isDraining()) throw new ApiError("unavailable", "This instance is shutting down.", { headers: { "Retry-After": "1" } });
      return checkReadiness(db);
    },
  }),
});
