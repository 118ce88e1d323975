// Provider self-service (GET /provider/endpoints, PATCH /provider/endpoints/{id}, POST .../delist and
// .../relist): the owner of a listing edits what it sells and how it is called, and takes it out of
// discover or back in. Field shapes are the submission's own (lib/schemas/submit.ts).
import { z } from "zod";
import { submittedCallSchema } from "./call";
import { timestampSchema, uuidSchema } from "./common";
import { networkInputSchema } from "./discover";
import { HTTP_METHODS } from "./submit";

export const providerEndpointParamsSchema = z.object({ id: uuidSchema });

export const providerEndpointPatchSchema = z
  .strictObject({
    price_per_call: z.number({ message: "Must be a number (USD per call)." }).min(0, "Must be 0 or more.").max(1000, "At most 1000 USD per call.").optional(),
    networks: z
      .array(networkInputSchema)
      .min(1, "Name at least one network.")
      .max(9, "At most 9 networks.")
      .optional()
      .describe("Every payment network the endpoint accepts, the one to list first first."),
    accepted_assets: z
      .array(z.string().regex(/^[A-Za-z0-9.]{1,20}$/, "An asset symbol such as USDC."))
      .min(1)
      .max(10)
      .optional(),
    method: z.enum(HTTP_METHODS, { message: `Use one of ${HTTP_METHODS.join(", ")}.` }).optional(),
    description: z.string().max(500, "At most 500 characters.").optional(),
    call: submittedCallSchema.nullable().optional().describe("How to call it (as in POST /submit); null removes a submitted description. The endpoint's own bazaar declaration, when its 402 has one, still wins."),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one field to change." })
  .meta({ id: "ProviderEndpointPatch" });
export type ProviderEndpointPatch = z.output<typeof providerEndpointPatchSchema>;

export const providerEndpointSchema = z
  .object({
    endpoint_id: uuidSchema,
    capability_id: z.string(),
    url: z.string(),
    method: z.string(),
    description: z.string(),
    price_per_call: z.number(),
    network: z.string(),
    networks: z.array(z.string()),
    accepted_assets: z.array(z.string()),
    status: z.enum(["listed", "delisted"]).or(z.string()),
    delisted_by: z.string().nullable().describe("provider (you may relist it) or operator; null while listed"),
    check_state: z.string().describe("verified | unverified | failing; every change makes it unverified until the next probe passes"),
    consecutive_failures: z.number().int(),
    last_check: z
      .object({ at: timestampSchema, ok: z.boolean().nullable(), reason: z.string().nullable(), status: z.number().int().nullable(), latency_ms: z.number().int().nullable() })
      .nullable(),
    next_check_at: timestampSchema.nullable(),
    call: z.record(z.string(), z.unknown()).nullable(),
    rank: z
      .object({ position: z.number().int().nullable(), of: z.number().int(), score: z.number().nullable() })
      .describe("Place among the endpoints discover ranks for the capability (default preset); position null when not ranked"),
    impressions_24h: z.number().int().describe("Discover answers of the last 24 hours that returned this endpoint"),
    average_position_24h: z.number().nullable().describe("Its average place (1 = first) in those answers"),
    reports_7d: z.object({ reports: z.number().int(), failures: z.number().int(), distinct_reporters: z.number().int() }),
    failing_checks_7d: z.number().int().describe("Probes of the last 7 days that failed"),
    page: z.string(),
  })
  .meta({ id: "ProviderEndpoint" });
export type ProviderEndpointOut = z.output<typeof providerEndpointSchema>;

export const providerEndpointListSchema = z.object({ endpoints: z.array(providerEndpointSchema) }).meta({ id: "ProviderEndpointList" });
