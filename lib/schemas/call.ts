// How to call an endpoint (API.md, "Additions of version 0.2"): what Capdex shows agents, and the
// optional description a provider without the x402 bazaar extension can submit instead.
import { z } from "zod";
import { timestampSchema } from "./common";

export const CALL_INPUT_KINDS = ["query", "body", "mcp"] as const;
export const BODY_TYPES = ["json", "form-data", "text"] as const;

/** A JSON Schema (an object; its contents are checked by the official bazaar validator, not here). */
const jsonSchemaObject = z.record(z.string(), z.unknown());

export const callInputSchema = z.object({
  kind: z.enum(CALL_INPUT_KINDS),
  schema: jsonSchemaObject.optional(),
  example: z.unknown().optional(),
  body_type: z.enum(BODY_TYPES).optional(),
  tool: z.string().optional(),
});

export const callOutputSchema = z.object({
  type: z.string(),
  example: z.unknown().optional(),
  schema: jsonSchemaObject.optional(),
});

export const endpointCallSchema = z
  .object({
    source: z.enum(["declared", "submitted"]),
    method: z.string(),
    input: callInputSchema,
    output: callOutputSchema.optional(),
    updated_at: timestampSchema,
  })
  .meta({ id: "EndpointCall" });
export type EndpointCall = z.output<typeof endpointCallSchema>;

/**
 * What a provider may submit (POST /submit `call`, and the wizard): the input as query parameters or
 * a body, with a JSON Schema and an example, and the output's type, example and schema. MCP tools
 * declare themselves through the bazaar extension.
 */
export const submittedCallSchema = z
  .strictObject({
    input: z.strictObject({
      kind: z.enum(["query", "body"], { message: "Use query (parameters in the URL) or body." }),
      schema: jsonSchemaObject.optional(),
      example: z.record(z.string(), z.unknown(), { message: "An object of example values." }).optional(),
      body_type: z.enum(BODY_TYPES, { message: `Use one of ${BODY_TYPES.join(", ")}.` }).optional(),
    }),
    output: z
      .strictObject({
        type: z.string().trim().min(1, "Required, e.g. json.").max(50, "At most 50 characters."),
        example: z.unknown().optional(),
        schema: jsonSchemaObject.optional(),
      })
      .optional(),
  })
  .meta({ id: "SubmittedCall" });
export type SubmittedCall = z.output<typeof submittedCallSchema>;
