// GET /x402/discovery/resources and /x402/discovery/search: the discovery API of x402 facilitators
// (x402-foundation/x402 specs/extensions/bazaar.md), in the shapes of the official client's types
// (`DiscoveryResourcesResponse`, `SearchDiscoveryResourcesResponse` of @x402/extensions/bazaar).
import { z } from "zod";
import { queryIntSchema, timestampSchema, uuidSchema } from "./common";
import { NETWORK_NAMES, NETWORKS, normalizeNetwork } from "./networks";

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

/** A network by friendly name or CAIP-2 id, as the CAIP-2 id the requirements carry (lower case for matching). */
const discoveryNetworkSchema = z
  .string()
  .max(100)
  .transform((v, ctx) => {
    const name = normalizeNetwork(v);
    if (name) return NETWORKS[name].toLowerCase();
    const t = v.trim();
    if (CAIP2.test(t)) return t.toLowerCase();
    ctx.addIssue({ code: "custom", message: `Unknown network; use a CAIP-2 id such as eip155:8453, or one of ${NETWORK_NAMES.join(", ")}.` });
    return z.NEVER;
  });

const filters = {
  type: z.string().regex(/^[a-z0-9-]{1,20}$/, "A resource type such as http or mcp.").optional(),
  payTo: z.string().trim().min(1, "The address is empty.").max(200).optional(),
  scheme: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,50}$/, "An x402 scheme such as exact.")
    .transform((v) => v.toLowerCase())
    .optional(),
  network: discoveryNetworkSchema.optional(),
  extensions: z.string().regex(/^[A-Za-z0-9_-]{1,50}$/, "An extension key such as bazaar.").optional(),
};

export const listDiscoveryQuerySchema = z.object({
  ...filters,
  limit: queryIntSchema(1, 100).optional(),
  offset: queryIntSchema(0, 1_000_000_000).optional(),
  /** The previous page's pagination.cursor (keyset paging; wins over offset). */
  cursor: z.string().max(400).optional(),
});
export type ListDiscoveryQuery = z.output<typeof listDiscoveryQuerySchema>;

export const searchDiscoveryQuerySchema = z.object({
  query: z.string({ message: "Required: what you need, in plain words." }).trim().min(1, "The query is empty.").max(400, "At most 400 characters."),
  ...filters,
  limit: queryIntSchema(1, 50).optional(),
  cursor: z.string().max(100).optional(),
});
export type SearchDiscoveryQuery = z.output<typeof searchDiscoveryQuerySchema>;

export type DiscoveryFilters = Pick<ListDiscoveryQuery, "type" | "payTo" | "scheme" | "network" | "extensions">;

export const paymentRequirementsSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const capdexFiguresSchema = z.object({
  endpoint_id: uuidSchema,
  capability_id: z.string(),
  score: z.number(),
  verified: z.boolean(),
  domain_verified: z.boolean(),
  source: z.string(),
  page: z.string().describe("The endpoint's page in the portal: /endpoints/<endpoint_id>."),
  observed: z.object({
    success_rate_7d: z.number().nullable(),
    p95_latency_ms: z.number().nullable(),
    sample_size_7d: z.number().int(),
    distinct_reporters_7d: z.number().int(),
    paid_reports_7d: z.number().int().describe("Reports in 7 days backed by a payment verified on chain."),
    distinct_payers_7d: z.number().int().describe("Different wallets that paid for those reports."),
    last_verified_at: timestampSchema.nullable(),
  }),
});

export const discoveryResourceSchema = z
  .object({
    resource: z.string(),
    type: z.enum(["http", "mcp"]),
    x402Version: z.number().int(),
    accepts: z.array(paymentRequirementsSchema),
    lastUpdated: timestampSchema,
    description: z.string(),
    mimeType: z.string().optional(),
    serviceName: z.string(),
    tags: z.array(z.string()),
    extensions: z.object({
      bazaar: z.object({ info: z.record(z.string(), z.unknown()), schema: z.record(z.string(), z.unknown()).optional() }).optional(),
      capdex: capdexFiguresSchema,
    }),
  })
  .meta({ id: "DiscoveryResource" });
export type DiscoveryResourceOut = z.output<typeof discoveryResourceSchema>;

export const discoveryResourcesResponseSchema = z
  .object({
    x402Version: z.literal(2),
    items: z.array(discoveryResourceSchema),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int(), cursor: z.string().nullable().optional() }),
  })
  .meta({ id: "DiscoveryResourcesResponse" });

export const searchDiscoveryResponseSchema = z
  .object({
    x402Version: z.literal(2),
    resources: z.array(discoveryResourceSchema),
    partialResults: z.boolean(),
    pagination: z.object({ limit: z.number().int(), cursor: z.string().nullable() }).nullable(),
  })
  .meta({ id: "SearchDiscoveryResourcesResponse" });
