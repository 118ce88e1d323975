// GET /listing_status?url=: what Capdex knows of one URL, for providers asking why an endpoint is or
// is not listed. Reasons are stable codes (lib/listings/reasons.ts), documented at /docs/errors.
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./common";
import { deliverySchema } from "./discover";

export const LISTING_STATES = ["listed", "failing", "delisted", "unmapped", "held_back", "ignored", "pending_verification", "pending_capability", "expired", "rejected"] as const;

export const listingStatusQuerySchema = z.object({
  url: z
    .string({ message: "Required: the endpoint's URL." })
    .trim()
    .min(1, "Required: the endpoint's URL.")
    .max(2048, "At most 2048 characters.")
    .refine((v) => {
      if (!v) return true; // reported once, by min
      try {
        return ["http:", "https:"].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, "An absolute http(s) URL, e.g. https://api.example.com/v1/weather."),
});

export const listingSchema = z.object({
  endpoint_id: uuidSchema.nullable(),
  submission_id: uuidSchema.nullable(),
  capability_id: z.string().nullable(),
  state: z.enum(LISTING_STATES),
  source: z.string(),
  domain_verified: z.boolean(),
  /** When the state began to apply as far as Capdex can tell (listed, submitted, first seen in the catalogue). */
  since: timestampSchema,
  last_probe: z
    .object({ at: timestampSchema, passed: z.boolean(), reason: z.string(), status: z.number().int().nullable(), consecutive_failures: z.number().int() })
    .nullable(),
  last_seen_in_source: timestampSchema.nullable(),
  call_declared: z.boolean(),
  delivery: deliverySchema,
  reasons: z.array(z.string()),
  next_steps: z.array(z.string()),
});
export type Listing = z.output<typeof listingSchema>;

export const listingStatusSchema = z
  .object({ url: z.string(), known: z.boolean(), listings: z.array(listingSchema) })
  .meta({ id: "ListingStatus" });
export type ListingStatus = z.output<typeof listingStatusSchema>;
