// The docs page's content, generated from the OpenAPI document (operations, parameters, body fields)
// plus a hand-written curl example per operation; tests check that no operation goes undocumented.
import type { ErrorCode } from "@/lib/http/errors";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { POLICY_OPERATIONS } from "@/lib/ratelimit/policies";
import { curlGet, curlPostJson } from "./examples";

type JsonSchema = { $ref?: string; type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; description?: string; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema };
type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string }>;
  security?: unknown[];
};
type OpenApiDoc = { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, JsonSchema> } };

export type DocField = { name: string; where: "path" | "query" | "body"; type: string; required: boolean; description?: string };
export type DocOperation = {
  key: string;
  method: string;
  path: string;
  anchor: string;
  summary: string;
  rateLimit?: string;
  fields: DocField[];
  responses: Array<{ status: string; description: string }>;
  curl: string;
};

const EXAMPLE_SUBMISSION = "00000000-0000-4000-8000-000000000000";
const EXAMPLE_ENDPOINT = "11111111-1111-4111-8111-111111111111";

/** One curl per operation, keyed "METHOD /path" as in the OpenAPI document. */
export function curlExamples(api: string): Record<string, string> {
  return {
    "GET /": curlGet(`${api}`),
    "GET /capabilities": curlGet(`${api}/capabilities?search=weather&with_endpoints=true&limit=5`),
    "GET /capabilities/{id}": curlGet(`${api}/capabilities/weather.current?with_endpoints=true`),
    "POST /discover": curlPostJson(`${api}/discover`, {
      intent: "current temperature in Lisbon",
      constraints: { max_price: 0.01, network: "base", verified_only: true },
      preferences: { ranking_preset: "reliability", limit: 3 },
    }),
    "POST /submit": curlPostJson(`${api}/submit`, {
      endpoint_url: "https://api.example.com/v1/weather/current",
      capability_id: "weather.current",
      provider_name: "Example Weather",
      contact_email: "ops@example.com",
      price_per_call: 0.002,
      network: "base",
      accepted_assets: ["USDC"],
    }),
    "GET /capabilities/proposals": curlGet(`${api}/capabilities/proposals`),
    "POST /capabilities/proposals": curlPostJson(
      `${api}/capabilities/proposals`,
      {
        id: "astro.moon_phase",
        title: "Moon phase",
        description: "The moon's phase and illumination for a date and place",
        category: "astro",
        example_intents: ["is it a full moon tonight"],
        endpoint_url: "https://api.example.com/v1/moon",
      },
      { auth: true },
    ),
    "GET /submit/{id}": curlGet(`${api}/submit/${EXAMPLE_SUBMISSION}`),
    "POST /submit/{id}/verify": `curl -s -X POST '${api}/submit/${EXAMPLE_SUBMISSION}/verify'`,
    "GET /provider/endpoints": `curl -s '${api}/provider/endpoints' \\\n  -H "Authorization: Bearer $CAPDEX_API_KEY"`,
    "GET /provider/endpoints/{id}": `curl -s '${api}/provider/endpoints/${EXAMPLE_ENDPOINT}' \\\n  -H "Authorization: Bearer $CAPDEX_API_KEY"`,
    "PATCH /provider/endpoints/{id}": [
      `curl -s -X PATCH '${api}/provider/endpoints/${EXAMPLE_ENDPOINT}'`,
      `  -H 'Content-Type: application/json'`,
      `  -H "Authorization: Bearer $CAPDEX_API_KEY"`,
      `  -d '${JSON.stringify({ price_per_call: 0.003, networks: ["base", "polygon"] })}'`,
    ].join(" \\\n"),
    "POST /provider/endpoints/{id}/delist": `curl -s -X POST '${api}/provider/endpoints/${EXAMPLE_ENDPOINT}/delist' \\\n  -H "Authorization: Bearer $CAPDEX_API_KEY"`,
    "POST /provider/endpoints/{id}/relist": `curl -s -X POST '${api}/provider/endpoints/${EXAMPLE_ENDPOINT}/relist' \\\n  -H "Authorization: Bearer $CAPDEX_API_KEY"`,
    "POST /report_outcome": curlPostJson(
      `${api}/report_outcome`,
      { endpoint_id: EXAMPLE_ENDPOINT, success: true, latency_ms: 412, status_code: 200, discovery_id: "<discovery_id from discover>" },
      { auth: true },
    ),
    "GET /x402/discovery/resources": curlGet(`${api}/x402/discovery/resources?network=base&extensions=bazaar&limit=5`),
    "GET /x402/discovery/search": curlGet(`${api}/x402/discovery/search?query=${encodeURIComponent("current weather in Lisbon")}&limit=3`),
    "GET /listing_status": curlGet(`${api}/listing_status?url=${encodeURIComponent("https://api.example.com/v1/weather/current")}`),
    "GET /stats": curlGet(`${api}/stats`),
    "GET /openapi.json": curlGet(`${api}/openapi.json`),
    "GET /health": curlGet(`${api}/health`),
    "GET /ready": curlGet(`${api}/ready`),
  };
}

export { POLICY_OPERATIONS };

/** When each error happens and what to do about it. */
export const ERROR_HELP: Record<ErrorCode, string> = {
  invalid_json: "The body is not valid JSON. Check quoting and commas; send UTF-8.",
  bad_request: "The request is malformed, e.g. an API key in the query string. Send keys only in the Authorization header.",
  invalid_api_key: "An Authorization header was sent with a key that is unknown, malformed or revoked. Fix or drop the key; it never falls back to anonymous.",
  unauthorized: "GET /api/metrics without the operator's METRICS_TOKEN as `Authorization: Bearer <token>`.",
  forbidden: "The caller may not do this (e.g. someone else's resource).",
  not_found: "No such path or resource.",
  capability_not_found:
    "The capability id is well formed but unknown. The body lists `suggestions`: the closest ids. When none fits, POST /api/submit takes `proposed_capability` instead of `capability_id` (or propose one at POST /api/capabilities/proposals).",
  endpoint_not_found: "No listed endpoint has this endpoint_id. Use an id from ranked_endpoints or fallback_endpoints.",
  submission_not_found: "No submission has this id.",
  proposal_not_found: "No capability proposal has this id (operators may also name an open proposal by its proposed capability id).",
  intent_refused:
    "The need asks for harm (taking over someone else's account, stalking or exposing a private person, illegal purchases, malware, phishing, spam, fake documents, non-consensual imagery, evading sanctions), so Capdex answers with no endpoints. `category` says which kind. Legitimate needs that share the words (checking your own domain or e-mail, screening a wallet for sanctions) resolve as usual; if yours was refused wrongly, rephrase it or send a capability_id.",
  intent_unresolved: "No capability matched the intent confidently enough. The body lists `candidates`; retry with one as capability_id or rephrase.",
  method_not_allowed: "This path does not take this HTTP method. The `Allow` header lists the ones it takes.",
  already_listed: "The same endpoint URL is already listed for this capability.",
  relist_refused: "The endpoint was delisted by an operator (or its submission was rejected), not by you: the dashboard and the API relist only what its provider delisted.",
  verification_failed: "The DNS TXT record was not found or does not match. The body says what was found; publish the record and try again.",
  conflict: "The request conflicts with the current state of the resource.",
  capability_exists:
    "POST /api/capabilities/proposals (or POST /api/submit `proposed_capability`) named a capability that is already in the registry. Use it: send `capability_id` instead. `suggestions` starts with that id.",
  proposal_exists: "An open proposal of this capability id already waits for an operator (`proposal_id`). GET /api/capabilities/proposals shows it; a submission with the same `proposed_capability.id` joins it.",
  proposal_not_open: "The proposal was already accepted, merged or rejected; its `decision` says how.",
  payload_too_large: "The body is over 64 KiB.",
  unsupported_media_type: "A POST without Content-Type: application/json.",
  validation_failed: "A field has a wrong value. `errors` lists each field as a JSON pointer with what is wrong.",
  unknown_field: "The body has a field this operation does not take (a typo such as max_prize must not silently change results). `errors` points at it, and `accepted_fields` (also in the detail) lists the fields the operation takes.",
  rate_limited: "Over the rate limit of your tier. Wait `Retry-After` seconds (also `retry_after` in the body); `violated_policy` names the limit.",
  internal_error: "A fault on our side. Quote the request_id if you report it.",
  unavailable: "The database cannot be reached for a moment. Retry after `Retry-After` seconds.",
};

function typeOf(s: JsonSchema | undefined, doc: OpenApiDoc): string {
  if (!s) return "any";
  if (s.$ref) return s.$ref.split("/").pop() ?? "object";
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf) return s.anyOf.map((x) => typeOf(x, doc)).join(" | ");
  if (s.type === "array") return `${typeOf(s.items, doc)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
}

function resolve(s: JsonSchema, doc: OpenApiDoc): JsonSchema {
  return s.$ref ? (doc.components.schemas[s.$ref.split("/").pop() ?? ""] ?? s) : s;
}

export function buildDocOperations(origin: string): DocOperation[] {
  const doc = buildOpenApiDocument(origin) as unknown as OpenApiDoc;
  const examples = curlExamples(`${origin}/api`);
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const fields: DocField[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        where: p.in === "path" ? "path" : "query",
        type: typeOf(p.schema, doc),
        required: Boolean(p.required),
        description: p.description,
      }));
      const body = op.requestBody?.content["application/json"]?.schema;
      if (body) {
        const s = resolve(body, doc);
        for (const [name, prop] of Object.entries(s.properties ?? {})) {
          fields.push({ name, where: "body", type: typeOf(prop, doc), required: (s.required ?? []).includes(name), description: prop.description });
        }
      }
      out.push({
        key,
        method: method.toUpperCase(),
        path,
        anchor: `op-${op.operationId}`,
        summary: op.summary,
        rateLimit: op.description?.startsWith("Rate limit:") ? op.description.slice("Rate limit:".length).trim() : undefined,
        fields,
        responses: Object.entries(op.responses).map(([status, r]) => ({ status, description: r.description })),
        curl: examples[key] ?? (method === "get" ? curlGet(`${origin}/api${path}`) : `curl -s -X ${method.toUpperCase()} '${origin}/api${path}'`),
      });
    }
  }
  return out;
}
