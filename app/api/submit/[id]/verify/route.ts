import { methods, route } from "@/lib/http/route";
import { parseOrThrow } from "@/lib/http/validate";
import { submissionParamsSchema } from "@/lib/schemas/submit";
import { verifySubmissionNow } from "@/lib/submissions";

// No body is read: the check takes nothing from the caller but the submission id.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /submit/{id}/verify",
    policy: "submission",
    // The DNS lookups (3.5 s at most) and, once the record is found, the first probe (5 s at most).
    deadlineMs: 15_000,
    handler: ({ db, params }) => verifySubmissionNow(db, parseOrThrow(submissionParamsSchema, params).id),
  }),
});
