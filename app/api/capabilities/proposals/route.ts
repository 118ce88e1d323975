import { ApiError } from "@/lib/http/errors";
import { methods, route } from "@/lib/http/route";
import { sessionUserOfRequest } from "@/lib/auth/request-session";
import { createProposal, listProposals } from "@/lib/proposals";
import { createProposalBodySchema, listProposalsQuerySchema } from "@/lib/schemas/proposals";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /capabilities/proposals",
    policy: "capabilities",
    query: listProposalsQuerySchema,
    handler: ({ db, query }) => listProposals(db, { limit: query.limit }),
  }),
  POST: route({
    operation: "POST /capabilities/proposals",
    policy: "submit",
    body: createProposalBodySchema,
    status: 201,
    // An API key, or the session of someone signed in to the portal (same-origin requests only).
    handler: async ({ db, req, body, principal }) => {
      const userId = principal.kind === "authenticated" ? principal.userId : (await sessionUserOfRequest(db, req))?.userId;
      if (!userId) {
        throw new ApiError("unauthorized", "Proposing a capability needs an account: send `Authorization: Bearer cdx_...` (create a key at /account).", {
          headers: { "WWW-Authenticate": 'Bearer realm="capdex"' },
        });
      }
      return createProposal(db, body, userId);
    },
  }),
});
