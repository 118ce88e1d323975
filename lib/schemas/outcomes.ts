// POST /report_outcome.
import { z } from "zod";
import { uuidSchema } from "./common";

export const reportOutcomeBodySchema = z
  .strictObject({
    endpoint_id: uuidSchema,
    success: z.boolean({ message: "Must be true or false." }),
    latency_ms: z.number({ message: "Must be a number of milliseconds." }).min(0, "Must be 0 or more.").max(600_000, "At most 600000 (10 minutes).").optional(),
    status_code: z.number().int("Must be a whole number.").min(100, "An HTTP status from 100 to 599.").max(599, "An HTTP status from 100 to 599.").optional(),
    discovery_id: uuidSchema.optional(),
  })
  .meta({ id: "OutcomeReport" });
export type ReportOutcomeBody = z.output<typeof reportOutcomeBodySchema>;

export const reportOutcomeResponseSchema = z
  .object({ accepted: z.literal(true), report_id: uuidSchema })
  .meta({ id: "OutcomeAccepted" });
