import { methods, route } from "@/lib/http/route";
import { recordOutcome } from "@/lib/outcomes";
import { reportOutcomeBodySchema } from "@/lib/schemas/outcomes";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /report_outcome",
    policy: "report_outcome",
    body: reportOutcomeBodySchema,
    status: 202,
    handler: ({ db, body, principal }) => recordOutcome(db, body, principal),
  }),
});
