// The x402 `bazaar` declaration of a 402 answer: how to call the endpoint (query parameters, a JSON
// body, or an MCP tool) and what comes back. Validated with the official @x402/extensions helpers
// (protocol rules, then the declared info against its own JSON Schema), bounded in size, and reduced
// to the `call` Capdex shows. Version 1 challenges carry it as `outputSchema`, read the official way.
import {
  declareDiscoveryExtension,
  extractDiscoveryInfoV1,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
} from "@x402/extensions/bazaar";
import type { PaymentRequirementsV1 } from "@x402/core/types";
import type { EndpointCall, SubmittedCall } from "@/lib/schemas/call";

/** Declarations larger than this (as JSON) are ignored, with a reason. */
export const MAX_DECLARATION_BYTES = 32 * 1024;

/** As the provider declared it: `info` and the JSON Schema `info` validates against. */
export type Declaration = { info: Record<string, unknown>; schema?: Record<string, unknown>; routeTemplate?: string };

export type DeclarationIssue = "declaration_invalid" | "declaration_too_large";

export type DeclarationResult =
  | { status: "absent" }
  | { status: "valid"; declaration: Declaration; call: CallShape }
  | { status: "rejected"; reason: DeclarationIssue; problem: string };

/** A call without its provenance and time, which the writer adds. */
export type CallShape = Omit<EndpointCall, "source" | "updated_at">;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function tooLarge(value: unknown): boolean {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8") > MAX_DECLARATION_BYTES;
  } catch {
    return true; // not serialisable (cannot come from JSON, but never trust it)
  }
}

/** Version 2: `extensions.bazaar` of the PAYMENT-REQUIRED answer. */
export function readDeclarationV2(extensions: unknown, listedMethod: string): DeclarationResult {
  if (!isObj(extensions) || extensions.bazaar === undefined || extensions.bazaar === null) return { status: "absent" };
  const bazaar = extensions.bazaar;
  if (tooLarge(bazaar)) return { status: "rejected", reason: "declaration_too_large", problem: `larger than ${MAX_DECLARATION_BYTES / 1024} KiB` };
  if (!isObj(bazaar) || !isObj(bazaar.info) || !isObj(bazaar.schema)) {
    return { status: "rejected", reason: "declaration_invalid", problem: "bazaar must hold an info object and its schema" };
  }
  const spec = validateDiscoveryExtensionSpec(bazaar);
  if (!spec.valid) return { status: "rejected", reason: "declaration_invalid", problem: firstError(spec.errors) };
  const checked = validateDiscoveryExtension(bazaar as unknown as DiscoveryExtension);
  if (!checked.valid) return { status: "rejected", reason: "declaration_invalid", problem: firstError(checked.errors) };
  const declaration: Declaration = { info: bazaar.info, schema: bazaar.schema };
  if (typeof bazaar.routeTemplate === "string") declaration.routeTemplate = bazaar.routeTemplate;
  return { status: "valid", declaration, call: callOfDeclaration(declaration, listedMethod) };
}

/** Version 1: the first offer's `outputSchema`, normalised by the official extractor. */
export function readDeclarationV1(requirements: PaymentRequirementsV1 | undefined, listedMethod: string): DeclarationResult {
  const outputSchema = requirements?.outputSchema;
  if (!requirements || outputSchema === undefined || outputSchema === null) return { status: "absent" };
  if (tooLarge(outputSchema)) return { status: "rejected", reason: "declaration_too_large", problem: `larger than ${MAX_DECLARATION_BYTES / 1024} KiB` };
  let info: Obj | null = null;
  try {
    info = extractDiscoveryInfoV1(requirements) as unknown as Obj | null;
  } catch {
    info = null;
  }
  if (!info) {
    // An outputSchema without an input description is only a response schema: nothing to call with.
    return isObj(outputSchema) && isObj(outputSchema.input)
      ? { status: "rejected", reason: "declaration_invalid", problem: "outputSchema.input has no usable method" }
      : { status: "absent" };
  }
  const spec = validateDiscoveryExtensionSpec({ info });
  if (!spec.valid) return { status: "rejected", reason: "declaration_invalid", problem: firstError(spec.errors) };
  const declaration: Declaration = { info };
  return { status: "valid", declaration, call: callOfDeclaration(declaration, listedMethod) };
}

/** The call an agent needs, from a valid declaration (schemas taken from where the bazaar builder puts them). */
export function callOfDeclaration(d: Declaration, listedMethod: string): CallShape {
  const input = (d.info.input ?? {}) as Obj;
  const inputProps = path(d.schema, ["properties", "input", "properties"]);
  let call: CallShape;
  if (input.type === "mcp") {
    call = {
      method: "POST",
      input: compact({ kind: "mcp" as const, tool: String(input.toolName), schema: objOrUndefined(input.inputSchema), example: input.example }),
    };
  } else if (input.bodyType !== undefined) {
    call = {
      method: typeof input.method === "string" ? input.method : listedMethod,
      input: compact({
        kind: "body" as const,
        body_type: input.bodyType as "json" | "form-data" | "text",
        schema: objOrUndefined(inputProps?.body),
        example: input.body,
      }),
    };
  } else {
    call = {
      method: typeof input.method === "string" ? input.method : listedMethod,
      input: compact({ kind: "query" as const, schema: objOrUndefined(inputProps?.queryParams), example: input.queryParams }),
    };
  }
  const output = d.info.output;
  if (isObj(output)) {
    call.output = compact({
      type: typeof output.type === "string" && output.type ? output.type : "json",
      example: output.example,
      schema: objOrUndefined(path(d.schema, ["properties", "output", "properties", "example"])),
    });
  }
  return call;
}

/**
 * A submitted description, as the bazaar declaration the official builder would make of it, checked
 * by the same validators as a declared one (so an example that contradicts its schema is refused).
 */
export function declarationOfSubmitted(
  call: SubmittedCall,
  method: string,
  // Off only for data checked elsewhere (the demo seed's fixed calls, tests/unit/demo-calls.test.ts): validating costs ~30 ms a call.
  opts: { validate?: boolean } = {},
): { ok: true; declaration: Declaration; call: CallShape } | { ok: false; problem: string } {
  const bodyMethod = method === "POST" || method === "PUT" || method === "PATCH";
  if (call.input.kind === "body" && !bodyMethod) return { ok: false, problem: `A body needs POST, PUT or PATCH, not ${method}.` };
  if (call.input.kind === "query" && bodyMethod) return { ok: false, problem: `${method} takes a body: use kind body.` };
  if (tooLarge(call)) return { ok: false, problem: `The description is larger than ${MAX_DECLARATION_BYTES / 1024} KiB.` };
  const output = call.output ? { example: call.output.example ?? {}, ...(call.output.schema ? { schema: call.output.schema } : {}) } : undefined;
  const built =
    call.input.kind === "body"
      ? declareDiscoveryExtension({ bodyType: call.input.body_type ?? "json", input: call.input.example ?? {}, inputSchema: call.input.schema ?? { properties: {} }, output })
      : declareDiscoveryExtension({ input: call.input.example ?? {}, inputSchema: call.input.schema ?? { properties: {} }, output });
  const ext = built.bazaar as unknown as { info: Obj; schema: Obj };
  (ext.info.input as Obj).method = method;
  if (call.output && isObj(ext.info.output)) ext.info.output.type = call.output.type;
  if (opts.validate !== false) {
    const spec = validateDiscoveryExtensionSpec(ext);
    if (!spec.valid) return { ok: false, problem: firstError(spec.errors) };
    const checked = validateDiscoveryExtension(ext as unknown as DiscoveryExtension);
    if (!checked.valid) return { ok: false, problem: firstError(checked.errors) };
  }
  const declaration: Declaration = { info: ext.info, schema: ext.schema };
  const shape = callOfDeclaration(declaration, method);
  // The provider's own words win over the builder's defaults.
  if (!call.input.schema) delete shape.input.schema;
  if (call.output && !call.output.schema && shape.output) delete shape.output.schema;
  if (call.output && call.output.example === undefined && shape.output) delete shape.output.example;
  return { ok: true, declaration, call: shape };
}

function firstError(errors: string[] | undefined): string {
  return (errors?.[0] ?? "does not validate").slice(0, 300);
}

function path(value: unknown, keys: string[]): Obj | undefined {
  let at: unknown = value;
  for (const k of keys) {
    if (!isObj(at)) return undefined;
    at = at[k];
  }
  return isObj(at) ? at : undefined;
}

function objOrUndefined(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

function compact<T extends Obj>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
