// The MCP tools. Each is the twin of an HTTP operation: parsed by the same zod schema (so the same
// problem codes and pointers), limited by the same policy, answered by the same lib function.
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";
import { checkJsonValue } from "@/lib/http/body";
import { parseOrThrow } from "@/lib/http/validate";
import type { PolicyName } from "@/lib/ratelimit/policies";
import { discover } from "@/lib/discovery";
import { recordOutcome } from "@/lib/outcomes";
import { listCapabilities } from "@/lib/registry";
import { getCapabilityDetail } from "@/lib/registry/detail";
import { listCapabilitiesQuerySchema } from "@/lib/schemas/capabilities";
import { discoverBodySchema, PRESET_NAMES } from "@/lib/schemas/discover";
import { NETWORK_NAMES } from "@/lib/schemas/networks";
import { reportOutcomeBodySchema } from "@/lib/schemas/outcomes";
import { toolInputSchema, type JsonSchema } from "./json-schema";
import { summarizeCapability, summarizeCapabilityList, summarizeDiscover, summarizeOutcome } from "./summary";

export type ToolContext = { db: Db; principal: Principal };

export type McpTool = {
  name: string;
  title: string;
  description: string;
  /** Rate-limit policy of the HTTP operation this tool mirrors. */
  policy: PolicyName;
  annotations: ToolAnnotations;
  inputSchema: JsonSchema;
  /** Validates the raw arguments and runs the tool; throws ApiError like the HTTP operation. */
  call(ctx: ToolContext, rawArgs: unknown): Promise<{ structured: Record<string, unknown>; text: string }>;
};

type ToolSpec<S extends z.ZodType, R extends object> = Omit<McpTool, "inputSchema" | "call"> & {
  schema: S;
  descriptions?: Record<string, string>;
  run(ctx: ToolContext, args: z.output<S>): Promise<R>;
  summarize(result: R): string;
};

function defineTool<S extends z.ZodType, R extends object>(spec: ToolSpec<S, R>): McpTool {
  const { schema, descriptions, run, summarize, ...meta } = spec;
  return {
    ...meta,
    inputSchema: toolInputSchema(schema, descriptions),
    async call(ctx, rawArgs) {
      const raw = rawArgs ?? {};
      checkJsonValue(raw);
      const result = await run(ctx, parseOrThrow(schema, raw));
      return { structured: result as Record<string, unknown>, text: summarize(result) };
    },
  };
}

// GET /capabilities takes query-string forms ("true", "50"); a tool takes JSON, so the same
// fields with their JSON types. Unknown arguments are refused, as in a JSON body.
export const listCapabilitiesArgsSchema = z.strictObject({
  search: listCapabilitiesQuerySchema.shape.search,
  category: listCapabilitiesQuerySchema.shape.category,
  with_endpoints: z.boolean().optional(),
  limit: z.number().int("Must be a whole number.").min(1, "Must be at least 1.").max(500, "Must be at most 500.").optional(),
  cursor: listCapabilitiesQuerySchema.shape.cursor,
});

// Any string, as in the path of GET /capabilities/{id}: an unknown or malformed id gets
// capability_not_found with suggestions, not a validation error.
export const getCapabilityArgsSchema = z.strictObject({
  id: z.string().min(1, "The id is empty.").max(200, "At most 200 characters."),
  with_endpoints: z.boolean().optional(),
});

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const listCapabilitiesTool = defineTool({
  name: "list_capabilities",
  title: "List capabilities",
  description:
    "Browse the Capdex registry of capabilities (what an API can do, with ids like weather.forecast), " +
    "by keyword and category. Use it to find the capability_id to pass to discover or get_capability.",
  policy: "capabilities",
  annotations: READ_ONLY,
  schema: listCapabilitiesArgsSchema,
  descriptions: {
    search: "Keywords matched against id, title, description and tags (all must match), e.g. \"forecast\".",
    category: "Category tag, e.g. weather, finance, crypto, maps.",
    with_endpoints: "Include endpoint_count, the number of listed endpoints per capability.",
    limit: "Page size, 1 to 500 (default 100).",
    cursor: "next_cursor of the previous page.",
  },
  run: ({ db }, args) => listCapabilities(db, args),
  summarize: summarizeCapabilityList,
});

export const getCapabilityTool = defineTool({
  name: "get_capability",
  title: "Get a capability",
  description:
    "One capability of the registry by id: title, description, aliases and example requests; " +
    "with with_endpoints=true also its listed endpoints in default-rank order (use discover to rank them for your needs).",
  policy: "capabilities",
  annotations: READ_ONLY,
  schema: getCapabilityArgsSchema,
  descriptions: {
    id: "Capability id, <category>.<name>, e.g. weather.forecast. An unknown id gets suggestions.",
    with_endpoints: "Also list the capability's endpoints (default false).",
  },
  run: ({ db }, args) => getCapabilityDetail(db, args.id, args.with_endpoints ?? false),
  summarize: summarizeCapability,
});

export const discoverTool = defineTool({
  name: "discover",
  title: "Discover ranked API endpoints",
  description:
    "Find callable HTTP API endpoints for a need, ranked by observed success rate, latency and price. " +
    "Send intent (what you need, in plain words) or capability_id (from list_capabilities); if both, capability_id wins. " +
    "Each endpoint comes with url, method, x402 payment terms (price per call in USD, network, assets), 7-day " +
    "success rate and p95 latency, and an endpoint_id; where known, `call` says how to call it (query parameters or " +
    "JSON body with a schema and an example, or an MCP tool, and an output example). The answer has a discovery_id. " +
    "Call the endpoint yourself, then report how it went with report_outcome.",
  policy: "discover",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  schema: discoverBodySchema,
  descriptions: {
    capability_id: "Capability id, <category>.<name> in lower snake_case, e.g. weather.forecast.",
    intent: "What you need in plain words, e.g. \"7-day weather forecast for a city\" (1 to 500 characters).",
    constraints: "Filters: endpoints that miss one are not ranked (they may appear as fallbacks).",
    "constraints.max_price": "Highest acceptable price per call, in USD.",
    "constraints.network": `Payment network: ${NETWORK_NAMES.join(", ")}, or a CAIP-2 id such as eip155:8453.`,
    "constraints.verified_only": "Only endpoints whose last health probe passed within the hour and whose provider proved the domain.",
    "constraints.asset": "Payment asset the endpoint must accept: a symbol such as USDC, or a contract address.",
    "constraints.scheme": "x402 payment scheme the endpoint must offer, e.g. exact.",
    "constraints.callable": "Only endpoints whose call (input and output) is known.",
    preferences: "How to rank.",
    "preferences.ranking_preset": `Weighting of success, latency, price and stability: ${PRESET_NAMES.join(", ")} (default: default).`,
    "preferences.limit": "How many ranked endpoints to return, 1 to 20 (default 5).",
    "preferences.include_fallbacks": "Also return up to 5 alternatives with the reason each was not ranked (default true).",
    "preferences.weights": "Custom weights of success, latency, price and stability (non-negative, normalised); replace the preset's.",
  },
  run: ({ db, principal }, args) => discover(db, args, principal),
  summarize: summarizeDiscover,
});

export const reportOutcomeTool = defineTool({
  name: "report_outcome",
  title: "Report how a call went",
  description:
    "Tell Capdex how a call to a discovered endpoint went, so the ranking learns which endpoints work. " +
    "Pass the endpoint_id and, when you have it, the discovery_id from discover (such reports weigh more).",
  policy: "report_outcome",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  schema: reportOutcomeBodySchema,
  descriptions: {
    endpoint_id: "endpoint_id of the endpoint you called (from discover or get_capability).",
    success: "Whether the call did what you needed.",
    latency_ms: "How long the call took, in milliseconds (0 to 600000).",
    status_code: "HTTP status the endpoint answered with (100 to 599).",
    discovery_id: "discovery_id of the discover answer you acted on.",
    failure: "When success is false, what went wrong: timeout, payment_failed, http_error, wrong_output or other.",
    paid_amount: "What the call cost you, in USD (0 when nothing was paid).",
    payment: "The x402 payment you made for the call (from the PAYMENT-RESPONSE header): a payment Capdex verifies on chain weighs more.",
    "payment.network": "Network the payment settled on, e.g. base or eip155:8453.",
    "payment.transaction": "The settlement's transaction hash.",
    "payment.payer": "Your paying wallet address.",
    "payment.receipt": "The signed receipt, when the server gave one (offer-and-receipt extension).",
    "payment.payment_identifier": "The payment-identifier extension's id, when used.",
  },
  run: ({ db, principal }, args) => recordOutcome(db, args, principal),
  summarize: summarizeOutcome,
});

export const TOOLS: McpTool[] = [discoverTool, listCapabilitiesTool, getCapabilityTool, reportOutcomeTool];
