// The OpenAPI 3.1 document, built from the same zod schemas the handlers parse with.
import { z } from "zod";
import { getCapabilityQuerySchema, capabilityDetailSchema, listCapabilitiesQuerySchema, listCapabilitiesResponseSchema } from "@/lib/schemas/capabilities";
import { problemSchema } from "@/lib/schemas/common";
import { API_VERSION, descriptorSchema } from "@/lib/schemas/descriptor";
import { discoverBodySchema, discoverResponseSchema } from "@/lib/schemas/discover";
import { reportOutcomeBodySchema, reportOutcomeResponseSchema } from "@/lib/schemas/outcomes";
import { statsResponseSchema } from "@/lib/schemas/stats";
import { submissionSchema, submitBodySchema, submitResponseSchema } from "@/lib/schemas/submit";
import { createProposalBodySchema, listProposalsQuerySchema, listProposalsResponseSchema, proposalSchema } from "@/lib/schemas/proposals";
import { providerEndpointListSchema, providerEndpointPatchSchema, providerEndpointSchema } from "@/lib/schemas/provider";
import { listingStatusQuerySchema, listingStatusSchema } from "@/lib/schemas/listing-status";
import { discoveryResourcesResponseSchema, listDiscoveryQuerySchema, searchDiscoveryQuerySchema, searchDiscoveryResponseSchema } from "@/lib/schemas/x402-discovery";
import { POLICIES, type PolicyName } from "@/lib/ratelimit/policies";

type JsonSchema = Record<string, unknown>;
type Operation = {
  method: "get" | "post" | "patch";
  /** Needs an API key (no anonymous access). */
  keyRequired?: boolean;
  path: string;
  summary: string;
  policy?: PolicyName;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: { status: number; schema: z.ZodType; description: string };
  /** Another success status with the same body (e.g. a pending submission returned again). */
  alsoStatus?: { status: number; description: string };
  errors: number[];
  pathParams?: Record<string, string>;
};

const OPERATIONS: Operation[] = [
  { method: "get", path: "/", summary: "Service descriptor", response: { status: 200, schema: descriptorSchema, description: "The descriptor" }, errors: [400, 401, 503] },
  {
    method: "get", path: "/capabilities", summary: "List capabilities (keyword search, category filter, endpoint counts)", policy: "capabilities",
    query: listCapabilitiesQuerySchema, response: { status: 200, schema: listCapabilitiesResponseSchema, description: "A page of capabilities, ordered by id" }, errors: [401, 422, 429],
  },
  {
    method: "get", path: "/capabilities/{id}", summary: "One capability, with its ranked endpoints on request", policy: "capabilities",
    query: getCapabilityQuerySchema, pathParams: { id: "Capability id, e.g. weather.current" },
    response: { status: 200, schema: capabilityDetailSchema, description: "The capability" }, errors: [401, 404, 422, 429],
  },
  {
    method: "get", path: "/capabilities/proposals", summary: "Open capability proposals, with the listings that would join each and where it came from (unmapped_queue or provider)", policy: "capabilities",
    query: listProposalsQuerySchema, response: { status: 200, schema: listProposalsResponseSchema, description: "Open proposals, newest first" }, errors: [401, 422, 429],
  },
  {
    method: "post", path: "/capabilities/proposals", summary: "Propose a capability the registry lacks (an API key or a portal session); an operator accepts, merges or rejects it", policy: "submit",
    body: createProposalBodySchema, response: { status: 201, schema: proposalSchema, description: "The open proposal" }, errors: [400, 401, 409, 413, 415, 422, 429],
  },
  {
    method: "post", path: "/discover", summary: "Ranked endpoints for a capability id or a natural-language intent", policy: "discover",
    body: discoverBodySchema, response: { status: 200, schema: discoverResponseSchema, description: "Ranked and fallback endpoints" }, errors: [400, 401, 404, 413, 415, 422, 429],
  },
  {
    method: "post", path: "/submit", summary: "Submit an endpoint for listing; answers with the DNS TXT record to publish", policy: "submit",
    body: submitBodySchema, response: { status: 202, schema: submitResponseSchema, description: "Submission accepted, pending verification" },
    alsoStatus: { status: 200, description: "The same URL and capability from the same contact e-mail while its submission is pending: that submission again (same submission_id and record, details updated), with resubmitted: true" },
    errors: [400, 401, 404, 409, 413, 415, 422, 429],
  },
  {
    method: "get", path: "/submit/{id}", summary: "State of a submission", policy: "submission", pathParams: { id: "Submission id (UUID)" },
    response: { status: 200, schema: submissionSchema, description: "The submission" }, errors: [401, 404, 422, 429],
  },
  {
    method: "post", path: "/submit/{id}/verify", summary: "Look the DNS TXT record up now", policy: "submission", pathParams: { id: "Submission id (UUID)" },
    response: { status: 200, schema: submissionSchema, description: "The submission after the check" }, errors: [401, 404, 409, 422, 429],
  },
  {
    method: "post", path: "/report_outcome", summary: "Report how a call to an endpoint went", policy: "report_outcome",
    body: reportOutcomeBodySchema, response: { status: 202, schema: reportOutcomeResponseSchema, description: "Report accepted" }, errors: [400, 401, 404, 413, 415, 422, 429],
  },
  {
    method: "get", path: "/provider/endpoints", summary: "Your endpoints (the API key's account): state, impressions in discover answers, rank, reports, failing checks", policy: "submission", keyRequired: true,
    response: { status: 200, schema: providerEndpointListSchema, description: "Every endpoint the account owns" }, errors: [400, 401, 429],
  },
  {
    method: "get", path: "/provider/endpoints/{id}", summary: "One of your endpoints, with its figures", policy: "submission", keyRequired: true,
    pathParams: { id: "Endpoint id (UUID)" }, response: { status: 200, schema: providerEndpointSchema, description: "The endpoint" }, errors: [400, 401, 404, 422, 429],
  },
  {
    method: "patch", path: "/provider/endpoints/{id}", summary: "Change your endpoint's price, networks, assets, method, description or call; it is unverified and probed again at once", policy: "submission", keyRequired: true,
    pathParams: { id: "Endpoint id (UUID)" }, body: providerEndpointPatchSchema,
    response: { status: 200, schema: providerEndpointSchema, description: "The endpoint after the change and its probe" }, errors: [400, 401, 404, 413, 415, 422, 429],
  },
  {
    method: "post", path: "/provider/endpoints/{id}/delist", summary: "Take your endpoint out of discover (idempotent)", policy: "submission", keyRequired: true,
    pathParams: { id: "Endpoint id (UUID)" }, response: { status: 200, schema: providerEndpointSchema, description: "The endpoint, delisted" }, errors: [400, 401, 404, 422, 429],
  },
  {
    method: "post", path: "/provider/endpoints/{id}/relist", summary: "Put back an endpoint you delisted; unverified until its probe passes", policy: "submission", keyRequired: true,
    pathParams: { id: "Endpoint id (UUID)" }, response: { status: 200, schema: providerEndpointSchema, description: "The endpoint, listed again" }, errors: [400, 401, 404, 409, 422, 429],
  },
  {
    method: "get", path: "/x402/discovery/resources", summary: "x402 discovery API: payable endpoints, capability then rank (the official client's listResources)", policy: "capabilities",
    query: listDiscoveryQuerySchema, response: { status: 200, schema: discoveryResourcesResponseSchema, description: "A page of resources with the total" }, errors: [401, 422, 429],
  },
  {
    method: "get", path: "/x402/discovery/search", summary: "x402 discovery API: search in plain words through the intent resolver and the ranking (the official client's search)", policy: "capabilities",
    query: searchDiscoveryQuerySchema, response: { status: 200, schema: searchDiscoveryResponseSchema, description: "Matching resources, best first (possibly none)" }, errors: [401, 422, 429],
  },
  {
    method: "get", path: "/listing_status", summary: "What Capdex knows of one endpoint URL: each listing's state, stable reason codes and next steps", policy: "capabilities",
    query: listingStatusQuerySchema, response: { status: 200, schema: listingStatusSchema, description: "The URL's listings (known: false when Capdex knows none)" }, errors: [401, 422, 429],
  },
  { method: "get", path: "/stats", summary: "Public network statistics", policy: "stats", response: { status: 200, schema: statsResponseSchema, description: "Statistics" }, errors: [401, 429] },
  { method: "get", path: "/openapi.json", summary: "This document", response: { status: 200, schema: z.object({}).catchall(z.unknown()), description: "OpenAPI 3.1" }, errors: [400, 401, 503] },
  {
    method: "get", path: "/health", summary: "Process liveness (no database)",
    response: { status: 200, schema: z.object({ status: z.literal("ok") }), description: "Up" }, errors: [400],
  },
  {
    method: "get", path: "/ready", summary: "Readiness: database reachable, migrations applied",
    response: { status: 200, schema: z.object({ status: z.string() }).catchall(z.unknown()), description: "Ready" }, errors: [400, 401, 503],
  },
];

const components: Record<string, JsonSchema> = {};

function convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  const defs = (out.$defs ?? {}) as Record<string, JsonSchema>;
  delete out.$defs;
  delete out.$schema;
  for (const [id, def] of Object.entries(defs)) components[id] = rewriteRefs(def);
  return rewriteRefs(out);
}

function rewriteRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Malformed request (invalid JSON, key in the query string)",
  401: "Invalid API key (or, where a key is required, none sent: `unauthorized`)",
  404: "Not found (for your endpoints: none of yours has this id, `endpoint_not_found`)",
  409: "Conflict (already_listed, verification_failed, relist_refused, capability_exists with suggestions, proposal_exists)",
  413: "Body over 64 KiB",
  415: "Not JSON",
  422: "Validation failed, unknown field, or (discover) an intent refused because it asks for harm (`intent_refused`)",
  429: "Rate limited",
  503: "Unavailable (database unreachable or migrations pending); Retry-After says when to try again",
};

/** The licence under which the API is offered: the project's (package.json `license`), no licence granted. */
export const API_LICENSE = { name: "UNLICENSED (proprietary: no licence is granted)" };

let cached: Record<string, unknown> | null = null;

export function buildOpenApiDocument(origin: string): Record<string, unknown> {
  if (!cached) cached = build();
  return { ...cached, servers: [{ url: `${origin}/api` }] };
}

function build(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const problemRef = { $ref: "#/components/schemas/Problem" };
  convert(problemSchema, "output");
  for (const op of OPERATIONS) {
    const parameters: unknown[] = [];
    for (const [name, description] of Object.entries(op.pathParams ?? {})) {
      parameters.push({ name, in: "path", required: true, description, schema: { type: "string" } });
    }
    if (op.query) {
      const shape = op.query.shape as Record<string, z.ZodType>;
      for (const [name, s] of Object.entries(shape)) {
        parameters.push({ name, in: "query", required: !s.safeParse(undefined).success, schema: convert(s, "input") });
      }
    }
    const responses: Record<string, unknown> = {
      [op.response.status]: { description: op.response.description, content: { "application/json": { schema: convert(op.response.schema, "output") } } },
    };
    if (op.alsoStatus) {
      responses[op.alsoStatus.status] = { description: op.alsoStatus.description, content: { "application/json": { schema: convert(op.response.schema, "output") } } };
    }
    for (const status of op.errors) {
      responses[status] = { description: STATUS_TEXT[status] ?? "Error", content: { "application/problem+json": { schema: problemRef } } };
    }
    const policy = op.policy ? POLICIES[op.policy] : null;
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        operationId: `${op.method}${op.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
        summary: op.summary,
        ...(policy
          ? { description: `Rate limit: ${policy.anonymous} anonymous / ${policy.authenticated} authenticated per ${policy.windowSeconds === 60 ? "minute" : "hour"}.` }
          : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: convert(op.body, "input") } } } } : {}),
        responses,
        security: op.keyRequired ? [{ apiKey: [] }] : op.policy ? [{}, { apiKey: [] }] : [],
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Capdex API",
      version: API_VERSION,
      description: "Discovery of callable HTTP APIs: capabilities, ranked endpoints, submissions, outcome reports and statistics.",
      license: API_LICENSE,
    },
    paths,
    components: {
      schemas: components,
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "Authorization: Bearer cdx_..." } },
    },
  };
}
