import { methods, route } from "@/lib/http/route";
import { submitBodySchema } from "@/lib/schemas/submit";
import { createSubmission } from "@/lib/submissions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /submit",
    policy: "submit",
    body: submitBodySchema,
    status: 202,
    handler: ({ db, body, principal }) => createSubmission(db, body, principal),
  }),
});
