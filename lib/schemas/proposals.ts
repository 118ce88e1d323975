// POST /capabilities/proposals, GET /capabilities/proposals, and `proposed_capability` of POST /submit.
import { z } from "zod";
import { capabilityIdSchema, queryIntSchema, timestampSchema, uuidSchema } from "./common";

export const PROPOSAL_SOURCES = ["unmapped_queue", "provider"] as const;
export const PROPOSAL_STATES = ["open", "accepted", "rejected", "merged"] as const;

const categoryIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{1,39}$/, "A category id is lower snake_case, e.g. weather.");

const proposalFields = {
  id: capabilityIdSchema.describe("The new capability's id, `<category>.<slug>` in lower snake_case"),
  title: z.string().trim().min(3, "At least 3 characters.").max(100, "At most 100 characters."),
  description: z.string().trim().min(10, "At least 10 characters: say what the job is.").max(500, "At most 500 characters."),
  category: categoryIdSchema,
  example_intents: z
    .array(z.string().trim().min(3, "At least 3 characters.").max(200, "At most 200 characters."))
    .max(10, "At most 10 examples.")
    .optional()
    .describe("Needs in plain words this capability serves (the accepted capability's examples)"),
};

function idInCategory(v: { id: string; category: string }, ctx: z.RefinementCtx) {
  if (!v.id.startsWith(`${v.category}.`)) {
    ctx.addIssue({ code: "custom", path: ["id"], message: `The id must start with its category: ${v.category}.<slug>.` });
  }
}

/** The capability a provider would add (POST /submit `proposed_capability`); `id` starts with `category.`. */
export const proposedCapabilitySchema = z.strictObject(proposalFields).superRefine(idInCategory).meta({ id: "ProposedCapability" });
export type ProposedCapabilityBody = z.output<typeof proposedCapabilitySchema>;

export const createProposalBodySchema = z
  .strictObject({
    ...proposalFields,
    endpoint_url: z.string().min(1).max(2048, "At most 2048 characters.").optional().describe("Your endpoint that does this job (https, a public host)"),
  })
  .superRefine(idInCategory)
  .meta({ id: "CreateProposalRequest" });
export type CreateProposalBody = z.output<typeof createProposalBodySchema>;

export const proposalListingSchema = z.object({
  url: z.string(),
  host: z.string(),
  description: z.string(),
  source: z.enum(["unmapped_queue", "submission", "provider"]).describe("An unmapped import item, a submission waiting for the capability, or the proposer's endpoint_url"),
});

export const proposalSchema = z
  .object({
    proposal_id: uuidSchema,
    id: z.string().describe("The proposed capability id"),
    title: z.string(),
    description: z.string(),
    category: z.string(),
    example_intents: z.array(z.string()),
    source: z.enum(PROPOSAL_SOURCES),
    status: z.enum(PROPOSAL_STATES),
    listings: z.array(proposalListingSchema).describe("The listings that would join the capability once accepted"),
    decision: z
      .object({ capability_id: z.string().nullable(), decided_at: timestampSchema.nullable(), note: z.string().nullable() })
      .nullable()
      .describe("Set once an operator decided: accepted as (or merged into) capability_id"),
    created_at: timestampSchema,
  })
  .meta({ id: "CapabilityProposal" });
export type ProposalOut = z.output<typeof proposalSchema>;

export const listProposalsResponseSchema = z
  .object({ proposals: z.array(proposalSchema), total: z.number().int() })
  .meta({ id: "CapabilityProposalList" });

export const listProposalsQuerySchema = z.object({ limit: queryIntSchema(1, 500).optional() });
