// JSON Schema of a tool's arguments, from the same zod schema the HTTP operation parses with,
// inlined (MCP wants `type: "object"` at the top, not a $ref) and annotated for language models.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * `descriptions` maps a dotted property path ("constraints.max_price") to the text a model reads;
 * the HTTP schemas carry no descriptions of their own, and a model choosing arguments needs them.
 */
export function toolInputSchema(schema: z.ZodType, descriptions: Record<string, string> = {}): JsonSchema {
  const raw = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  const defs = (raw.$defs ?? {}) as Record<string, JsonSchema>;
  const top = inlineRefs(raw, defs) as JsonSchema;
  delete top.$defs;
  delete top.$schema;
  for (const [path, text] of Object.entries(descriptions)) {
    const node = path.split(".").reduce<JsonSchema | undefined>(
      (at, key) => (at?.properties as Record<string, JsonSchema> | undefined)?.[key],
      top,
    );
    if (!node) throw new Error(`toolInputSchema: no property ${path} to describe`);
    node.description = text;
  }
  return top;
}

/** Replaces `{ $ref: "#/$defs/X" }` by a copy of X (our schemas name a few types, none recursive). */
function inlineRefs(value: unknown, defs: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 32) throw new Error("toolInputSchema: schema nested too deeply (recursive $ref?)");
  if (Array.isArray(value)) return value.map((v) => inlineRefs(v, defs, depth + 1));
  if (!value || typeof value !== "object") return value;
  const obj = value as JsonSchema;
  const ref = typeof obj.$ref === "string" ? obj.$ref.match(/^#\/\$defs\/(.+)$/) : null;
  if (ref && defs[ref[1]]) {
    const { $ref: _ref, ...rest } = obj;
    return { ...(inlineRefs(defs[ref[1]], defs, depth + 1) as JsonSchema), ...rest };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, k === "$defs" ? v : inlineRefs(v, defs, depth + 1)]));
}
