// POST /report_outcome.
import { z } from "zod";
import { uuidSchema } from "./common";

export const OUTCOME_FAILURES = ["timeout", "payment_failed", "http_error", "wrong_output", "other"] as const;

export const reportOutcomeBodySchema = z
  .strictObject({
    endpoint_id: uuidSchema,
    success: z.boolean({ message: "Must be true or false." }),
    latency_ms: z.number({ message: "Must be a number of milliseconds." }).min(0, "Must be 0 or more.").max(600_000, "At most 600000 (10 minutes).").optional(),
    status_code: z.number().int("Must be a whole number.").min(100, "An HTTP status from 100 to 599.").max(599, "An HTTP status from 100 to 599.").optional(),
    discovery_id: uuidSchema.optional(),
    failure: z
      .enum(OUTCOME_FAILURES, { message: `Use one of ${OUTCOME_FAILURES.join(", ")}.` })
      .optional()
      .describe("What went wrong, when success is false: timeout, payment_failed (the x402 payment did not go through), http_error, wrong_output (an answer, but not what was asked), other."),
    paid_amount: z
      .number({ message: "Must be a number (USD)." })
      .min(0, "Must be 0 or more.")
      .max(1e6, "At most 1000000 USD.")
      .optional()
      .describe("What the call cost, in USD (0 when nothing was paid)."),
  })
  .meta({ id: "OutcomeReport" });
export type ReportOutcomeBody = z.output<typeof reportOutcomeBodySchema>;

export const reportOutcomeResponseSchema = z
  .object({ accepted: z.literal(true), report_id: uuidSchema })
  .meta({ id: "OutcomeAccepted" });
