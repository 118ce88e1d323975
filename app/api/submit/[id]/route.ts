import { methods, route } from "@/lib/http/route";
import { parseOrThrow } from "@/lib/http/validate";
import { submissionParamsSchema } from "@/lib/schemas/submit";
import { getSubmission } from "@/lib/submissions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /submit/{id}",
    policy: "submission",
    handler: ({ db, params }) => getSubmission(db, parseOrThrow(submissionParamsSchema, params).id),
  }),
});
