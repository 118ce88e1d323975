import { json, methods, route } from "@/lib/http/route";
import { submitBodySchema } from "@/lib/schemas/submit";
import { createSubmission } from "@/lib/submissions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /submit",
    policy: "submit",
    body: submitBodySchema,
    // 202: a new submission; 200: the same contact's pending one, returned again (resubmitted: true).
    handler: async ({ db, body, principal }) => {
      const out = await createSubmission(db, body, principal);
      return json(out, out.resubmitted ? 200 : 202);
    },
  }),
});
