// POST /discover: request and response.
import { z } from "zod";
import { endpointCallSchema } from "./call";
import { capabilityIdSchema, timestampSchema, uuidSchema } from "./common";
import { NETWORK_NAMES, normalizeNetwork } from "./networks";

export const RANKING_PRESETS = {
  default: { success: 0.45, latency: 0.25, price: 0.2, stability: 0.1 },
  reliability: { success: 0.6, latency: 0.2, price: 0.1, stability: 0.1 },
  speed: { success: 0.3, latency: 0.5, price: 0.1, stability: 0.1 },
  budget: { success: 0.3, latency: 0.1, price: 0.5, stability: 0.1 },
  balanced: { success: 0.3, latency: 0.25, price: 0.25, stability: 0.2 },
} as const;
export type RankingPreset = keyof typeof RANKING_PRESETS;
export const PRESET_NAMES = Object.keys(RANKING_PRESETS) as RankingPreset[];

export const EXCLUSION_REASONS = [
  "failed_recent_checks",
  "unverified",
  "over_max_price",
  "network_mismatch",
  "asset_mismatch",
  "scheme_mismatch",
  "not_callable",
  "beyond_limit",
] as const;

export const networkInputSchema = z
  .string()
  .max(100)
  .transform((v, ctx) => {
    const n = normalizeNetwork(v);
    if (!n) {
      ctx.addIssue({ code: "custom", message: `Unknown network; use one of ${NETWORK_NAMES.join(", ")} or a CAIP-2 id.` });
      return z.NEVER;
    }
    return n;
  });

export const weightsSchema = z
  .strictObject({
    success: z.number().min(0).max(1000).optional(),
    latency: z.number().min(0).max(1000).optional(),
    price: z.number().min(0).max(1000).optional(),
    stability: z.number().min(0).max(1000).optional(),
  })
  .refine((w) => Object.values(w).some((v) => (v ?? 0) > 0), { message: "At least one weight must be above 0." });

export const discoverBodySchema = z
  .strictObject({
    capability_id: capabilityIdSchema.optional(),
    intent: z.string().trim().min(1, "The intent is empty.").max(500, "At most 500 characters.").optional(),
    constraints: z
      .strictObject({
        max_price: z.number().min(0, "Must be 0 or more.").max(1e6).optional(),
        network: networkInputSchema.optional(),
        verified_only: z.boolean().optional(),
        asset: z
          .string()
          .trim()
          .min(1, "The asset is empty.")
          .max(100, "At most 100 characters.")
          .transform((v) => v.toLowerCase())
          .optional(),
        scheme: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_-]{1,50}$/, "An x402 scheme such as exact.")
          .transform((v) => v.toLowerCase())
          .optional(),
        callable: z.boolean().optional(),
      })
      .optional(),
    preferences: z
      .strictObject({
        ranking_preset: z.enum(PRESET_NAMES, { message: `Unknown preset; use one of ${PRESET_NAMES.join(", ")}.` }).optional(),
        limit: z.number().int("Must be a whole number.").min(1).max(20).optional(),
        include_fallbacks: z.boolean().optional(),
        weights: weightsSchema.optional(),
      })
      .optional(),
  })
  .refine((b) => b.capability_id !== undefined || b.intent !== undefined, {
    message: "Send capability_id or intent.",
    path: ["capability_id"],
  })
  .meta({ id: "DiscoverRequest" });
export type DiscoverBody = z.output<typeof discoverBodySchema>;

export const paymentSchema = z.object({
  type: z.string(),
  price_per_call: z.number().describe("USD per call; 0: free (no payment, so no network)."),
  network: z.string().describe("The first network it accepts (kept for 0.1 clients); the listed one for a free endpoint."),
  networks: z
    .array(z.string())
    .describe("Every payment network it accepts, network first (its listing and what its 402 offered); empty when free. A network constraint keeps an endpoint that accepts that network, and never excludes a free one."),
  accepted_assets: z.array(z.string()),
});

export const PAID_CHECK_VERDICT_VALUES = ["delivered", "wrong_output", "paid_not_delivered"] as const;

export const deliverySchema = z
  .object({
    checks: z.number().int().describe("Paid test calls Capdex made to it in the 7 days before the last one (calls it paid for)."),
    delivered_share: z.number().describe("Share of those calls that delivered: a 2xx answer of the declared type, valid against the declared output schema."),
    last_check_at: timestampSchema,
    last_verdict: z.enum(PAID_CHECK_VERDICT_VALUES),
  })
  .nullable()
  .describe("What Capdex's own paid test calls found (docs/paid-checks.md); null when Capdex has not paid for a call to it.")
  .meta({ id: "Delivery" });

export const observedSchema = z.object({
  success_rate_7d: z.number().nullable(),
  p95_latency_ms: z.number().nullable(),
  sample_size_7d: z.number().int(),
  distinct_reporters_7d: z.number().int(),
  paid_reports_7d: z.number().int().describe("Reports in 7 days backed by a payment Capdex verified on chain (the provider's own wallets left out)."),
  distinct_payers_7d: z.number().int().describe("Different wallets that paid for those reports."),
  last_verified_at: timestampSchema.nullable(),
  delivery: deliverySchema,
});

export const scoreBreakdownSchema = z.object({
  success: z.number(),
  latency: z.number(),
  price: z.number(),
  stability: z.number(),
});

export const rankedEndpointSchema = z
  .object({
    endpoint_id: uuidSchema,
    provider_name: z.string(),
    url: z.string(),
    method: z.string(),
    score: z.number(),
    verified: z.boolean(),
    domain_verified: z.boolean(),
    source: z.string(),
    payment: paymentSchema,
    observed: observedSchema,
    score_breakdown: scoreBreakdownSchema,
    exploration: z
      .literal(true)
      .optional()
      .describe(
        "Present (true) when exploration placed this new endpoint higher than its score would: it has a short record. " +
          "Its score and score_breakdown are its real ones. Never on the first entry while an endpoint with an established record is ranked.",
      ),
    call: endpointCallSchema.optional(),
    page: z.string().describe("The endpoint's page in the portal, relative to the site: /endpoints/<endpoint_id>."),
  })
  .meta({ id: "RankedEndpoint" });
export type RankedEndpoint = z.output<typeof rankedEndpointSchema>;

export const fallbackEndpointSchema = rankedEndpointSchema
  .extend({ exclusion_reasons: z.array(z.enum(EXCLUSION_REASONS)) })
  .meta({ id: "FallbackEndpoint" });
export type FallbackEndpoint = z.output<typeof fallbackEndpointSchema>;

export const candidateSchema = z.object({ capability_id: z.string(), confidence: z.number() });

export const discoverResponseSchema = z
  .object({
    resolved: z.object({
      capability_id: z.string(),
      confidence: z.number(),
      candidates: z.array(candidateSchema),
      also_needed: z
        .array(candidateSchema)
        .optional()
        .describe("The other jobs of a need that asks for several (\"find the CFO's email and check it is deliverable\"), in order; discover them with their own requests."),
    }),
    ranked_endpoints: z.array(rankedEndpointSchema),
    fallback_endpoints: z.array(fallbackEndpointSchema),
    ranking_info: z.object({
      preset: z.string(),
      preset_from_intent: z
        .enum(PRESET_NAMES)
        .optional()
        .describe("Present when the preset was taken from the intent's words (cheapest -> budget, fastest -> speed, most reliable -> reliability) because the request named none."),
      weights: scoreBreakdownSchema,
      candidates_considered: z.number().int(),
      explored: z.number().int().describe("How many entries of this answer (ranked or fallback) carry exploration: true (0 or 1)."),
    }),
    ttl_seconds: z.number().int(),
    discovery_id: uuidSchema,
  })
  .meta({ id: "DiscoverResponse" });
export type DiscoverResponse = z.output<typeof discoverResponseSchema>;
