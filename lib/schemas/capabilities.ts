// GET /capabilities and GET /capabilities/{id}.
import { z } from "zod";
import { capabilityIdSchema, queryBooleanSchema, queryIntSchema } from "./common";
import { rankedEndpointSchema } from "./discover";

export const listCapabilitiesQuerySchema = z.object({
  search: z.string().max(200, "At most 200 characters.").optional(),
  category: z.string().max(50).optional(),
  tag: z.string().max(50).optional(),
  with_endpoints: queryBooleanSchema.optional(),
  limit: queryIntSchema(1, 500).optional(),
  cursor: z.string().max(200).optional(),
});
export type ListCapabilitiesQuery = z.output<typeof listCapabilitiesQuerySchema>;

export const capabilitySchema = z
  .object({
    id: capabilityIdSchema,
    title: z.string(),
    description: z.string(),
    category: z.string(),
    tags: z.array(z.string()),
    endpoint_count: z.number().int().optional(),
  })
  .meta({ id: "Capability" });
export type CapabilityOut = z.output<typeof capabilitySchema>;

export const listCapabilitiesResponseSchema = z
  .object({
    version: z.string(),
    capabilities: z.array(capabilitySchema),
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "CapabilityList" });

export const getCapabilityQuerySchema = z.object({ with_endpoints: queryBooleanSchema.optional() });

export const capabilityDetailSchema = capabilitySchema
  .extend({
    aliases: z.array(z.string()),
    examples: z.array(z.string()),
    endpoints: z.array(rankedEndpointSchema).optional(),
  })
  .meta({ id: "CapabilityDetail" });
