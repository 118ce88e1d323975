// POST /report_outcome.
import { z } from "zod";
import { uuidSchema } from "./common";
import { networkInputSchema } from "./discover";
import { NETWORKS } from "./networks";

export const OUTCOME_FAILURES = ["timeout", "payment_failed", "http_error", "wrong_output", "other"] as const;

/** The settlement an x402 resource server returned (its PAYMENT-RESPONSE), plus receipt or payment identifier when used. */
export const paymentClaimSchema = z
  .strictObject({
    network: networkInputSchema.describe("Network the payment settled on: a friendly name (base) or a CAIP-2 id (eip155:8453), as PAYMENT-RESPONSE names it."),
    transaction: z
      .string({ message: "Must be the transaction hash or signature." })
      .min(1, "Must not be empty.")
      .max(128, "At most 128 characters.")
      .describe("The settlement's transaction (an 0x hash of 64 hex digits on EVM networks)."),
    payer: z
      .string()
      .max(128, "At most 128 characters.")
      .optional()
      .describe("The paying wallet, as PAYMENT-RESPONSE names it (an 0x address on EVM networks)."),
    receipt: z.unknown().optional().describe("The signed receipt of the offer-and-receipt extension, when the server gave one (stored, not yet checked)."),
    payment_identifier: z
      .string()
      .min(16, "16 to 128 characters.")
      .max(128, "16 to 128 characters.")
      .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, _ and - only.")
      .optional()
      .describe("The payment-identifier extension's id, when the payment used one."),
  })
  .superRefine((p, ctx) => {
    if (!NETWORKS[p.network].startsWith("eip155:")) return;
    if (!/^0x[0-9a-fA-F]{64}$/.test(p.transaction)) ctx.addIssue({ code: "custom", path: ["transaction"], message: "On an EVM network: 0x and 64 hex digits." });
    if (p.payer !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(p.payer)) ctx.addIssue({ code: "custom", path: ["payer"], message: "On an EVM network: 0x and 40 hex digits." });
  })
  .meta({ id: "PaymentEvidence" });

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
    payment: paymentClaimSchema
      .optional()
      .describe("The x402 payment made for the call. A payment Capdex verifies on chain makes the report weigh more (docs/ranking.md)."),
  })
  .meta({ id: "OutcomeReport" });
export type ReportOutcomeBody = z.output<typeof reportOutcomeBodySchema>;

export const reportOutcomeResponseSchema = z
  .object({
    accepted: z.literal(true),
    report_id: uuidSchema,
    payment_evidence: z
      .enum(["verified", "unverified", "rejected"])
      .optional()
      .describe("With payment: verified (the chain shows it), unverified (Capdex could not check it) or rejected (the chain shows it does not back this report)."),
    payment_reason: z
      .string()
      .optional()
      .describe("Why the payment was not verified: tx_not_found, tx_failed, tx_reused, not_a_transfer, wrong_asset, wrong_recipient, wrong_payer, underpaid, wrong_network, too_old, too_new (rejected); no_rpc, rpc_unavailable, unsupported_network, no_payment_requirements (unverified)."),
  })
  .meta({ id: "OutcomeAccepted" });
