import { ApiError } from "@/lib/http/errors";
import { route } from "@/lib/http/route";

// Every path under /api that no operation serves: problem+json 404, whatever the method.
const notFound = route({
  operation: "unmatched",
  handler: ({ url }) => {
    throw new ApiError("not_found", `There is no operation at ${url.pathname}; GET /api lists them.`);
  },
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
