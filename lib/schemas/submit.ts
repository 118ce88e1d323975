// POST /submit, GET /submit/{id}, POST /submit/{id}/verify.
// Field shapes only; what a URL may point at (public host, no IP literal) is checked in lib/submissions.
import { z } from "zod";
import { submittedCallSchema } from "./call";
import { capabilityIdSchema, timestampSchema, uuidSchema } from "./common";
import { networkInputSchema } from "./discover";
import { proposedCapabilitySchema } from "./proposals";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const SUBMISSION_STATES = ["pending_verification", "pending_capability", "verified", "expired", "rejected"] as const;

export const submitBodySchema = z
  .strictObject({
    endpoint_url: z.string().min(1, "Required.").max(2048, "At most 2048 characters."),
    // One of the two: an existing capability, or (when none fits) the capability proposed for it.
    capability_id: capabilityIdSchema.optional().describe("The capability it serves (GET /api/capabilities); send proposed_capability instead when none fits"),
    proposed_capability: proposedCapabilitySchema
      .optional()
      .describe("When no capability fits: the one to add. The submission is verified as usual, then waits as pending_capability until an operator accepts (listed) or rejects it (docs/proposals.md)"),
    contact_email: z.email({ message: "Must be an e-mail address." }).max(254),
    provider_name: z.string().trim().min(1, "Required.").max(100, "At most 100 characters."),
    price_per_call: z.number({ message: "Must be a number (USD per call)." }).min(0, "Must be 0 or more.").max(1000, "At most 1000 USD per call."),
    method: z.enum(HTTP_METHODS, { message: `Use one of ${HTTP_METHODS.join(", ")}.` }).optional(),
    network: networkInputSchema.optional(),
    networks: z
      .array(networkInputSchema)
      .min(1, "Name at least one network, or leave networks out.")
      .max(9)
      .optional()
      .describe("Every payment network the endpoint accepts, when more than one; `network` (default: the first of these) is listed first."),
    accepted_assets: z
      .array(z.string().regex(/^[A-Za-z0-9.]{1,20}$/, "An asset symbol such as USDC."))
      .min(1)
      .max(10)
      .optional(),
    payment_type: z.enum(["x402"], { message: "Only x402 is supported." }).optional(),
    description: z.string().max(500, "At most 500 characters.").optional(),
    // How to call it, for providers whose 402 carries no bazaar declaration (a declaration wins).
    call: submittedCallSchema.optional(),
  })
  .meta({ id: "SubmitRequest" });
export type SubmitBody = z.output<typeof submitBodySchema>;

export const verificationSchema = z.object({
  method: z.literal("dns_txt"),
  record_type: z.literal("TXT"),
  record_name: z.string(),
  record_value: z.string(),
  expires_at: timestampSchema,
});

export const submitResponseSchema = z
  .object({
    submission_id: uuidSchema,
    status: z.enum(SUBMISSION_STATES),
    domain: z.string(),
    verification: verificationSchema,
    links: z.object({ self: z.string(), verify: z.string() }),
    resubmitted: z
      .literal(true)
      .optional()
      .describe("Present (200) when this is the pending submission the same contact made earlier of the same URL and capability: publish the same record."),
  })
  .meta({ id: "SubmitResponse" });

export const submissionSchema = z
  .object({
    submission_id: uuidSchema,
    status: z.enum(SUBMISSION_STATES),
    domain: z.string(),
    endpoint_url: z.string(),
    capability_id: z.string().describe("The capability, or the proposed capability's id while its proposal is open"),
    proposal_id: uuidSchema.nullable().optional().describe("The capability proposal it waits for (proposed_capability)"),
    verification: verificationSchema,
    endpoint_id: uuidSchema.nullable(),
    checked_at: timestampSchema.nullable(),
    last_check: z.object({ found_records: z.array(z.string()), reason: z.string() }).nullable(),
  })
  .meta({ id: "Submission" });

export const submissionParamsSchema = z.object({ id: uuidSchema });
