// /llms.txt (llmstxt.org): Capdex explained for language models, generated from the descriptor's
// operation list, the rate-limit table and the MCP tools, so it cannot drift from what is served.
import { OPERATIONS } from "@/lib/schemas/descriptor";
import { POLICIES, POLICY_OPERATIONS, type PolicyName } from "@/lib/ratelimit/policies";
import { SERVICE_DESCRIPTION } from "./well-known";
import { TOOLS } from "./tools";

export { POLICY_OPERATIONS };

function windowName(seconds: number): string {
  return seconds === 60 ? "minute" : seconds === 3600 ? "hour" : `${seconds} s`;
}

function firstSentence(text: string): string {
  const m = text.match(/^.*?\.(?=\s|$)/);
  return m ? m[0] : text;
}

export function buildLlmsTxt(origin: string): string {
  const api = `${origin}/api`;
  const ops = Object.entries(OPERATIONS).map(([label, text]) => {
    const [method, path] = label.split(" ");
    return `- \`${method} /api${path}\`: ${text}`;
  });
  const limits = (Object.keys(POLICIES) as PolicyName[]).map((name) => {
    const p = POLICIES[name];
    const labels = POLICY_OPERATIONS[name].map((l) => `\`${l.replace(" ", " /api")}\``).join(", ");
    return `| ${labels} | ${p.anonymous} / ${windowName(p.windowSeconds)} | ${p.authenticated} / ${windowName(p.windowSeconds)} |`;
  });
  const tools = TOOLS.map((t) => `- \`${t.name}\` (limited as ${POLICY_OPERATIONS[t.policy].join(", ")}): ${firstSentence(t.description)}`);
  return `# Capdex

> ${SERVICE_DESCRIPTION}

Base URL: ${api}. Request and response bodies are JSON. Errors are RFC 9457 problem details
(\`application/problem+json\`) with a stable snake_case \`code\` (e.g. \`capability_not_found\`,
\`intent_unresolved\`, \`intent_refused\`, \`validation_failed\`, \`unknown_field\`, \`rate_limited\`) and, for bad fields,
\`errors[].pointer\` such as \`#/constraints/max_price\`. Unknown body fields are refused (422).

Authentication is optional. Without credentials you are anonymous (limited per client address).
Send \`Authorization: Bearer <api key>\` (keys start with \`cdx_\`; create them at ${origin}/account)
for the authenticated tier. A wrong or revoked key gets 401 \`invalid_api_key\`, never the anonymous tier.

## How to use it

1. \`POST ${api}/discover\` with \`{"intent": "5-day weather forecast for a city"}\` or
   \`{"capability_id": "weather.forecast"}\`; optional \`constraints\` (\`max_price\`, \`network\`,
   \`verified_only\`) and \`preferences\` (\`ranking_preset\`: default, reliability, speed, budget,
   balanced; \`limit\` 1..20). The answer has \`resolved\` (capability_id, confidence),
   \`ranked_endpoints\` (best first: \`endpoint_id\`, \`provider_name\`, \`url\`, \`method\`, \`score\`,
   \`payment\` {type x402, price_per_call in USD, network, accepted_assets}, \`observed\`
   {success_rate_7d, p95_latency_ms, delivery: what Capdex's own paid test calls found, or null}), \`fallback_endpoints\`, \`ttl_seconds\` and \`discovery_id\`.
   An entry with \`exploration: true\` is a new endpoint with a short record that exploration placed
   there (never first while an endpoint with an established record is ranked); its score is its own.
2. Call the endpoint yourself (a paid one answers 402 with an x402 payment challenge).
3. \`POST ${api}/report_outcome\` with \`{"endpoint_id", "success", "latency_ms", "status_code",
   "discovery_id"}\` and, when it failed or cost money, \`"failure"\` (timeout, payment_failed, http_error,
   wrong_output, other) and \`"paid_amount"\` (USD) (202 \`{"accepted": true, "report_id"}\`). Reports sent with an API key improve the ranking.
   After an x402 payment, add \`"payment": {"network", "transaction", "payer"}\` from the PAYMENT-RESPONSE header: a payment
   verified on chain weighs most (the answer says \`"payment_evidence": "verified" | "unverified" | "rejected"\`).

Not sure of the capability id? \`GET ${api}/capabilities?search=forecast\` lists matching ones.

## Operations

${ops.join("\n")}

## Rate limits

| Operation | Anonymous | Authenticated |
|---|---|---|
${limits.join("\n")}

Every limited answer carries \`RateLimit-Policy\` and \`RateLimit\` headers. Over the limit:
429 \`rate_limited\` with \`Retry-After\` (seconds) and \`retry_after\` in the body.

## MCP

Capdex is also a remote MCP server: ${origin}/api/mcp (Streamable HTTP, stateless, JSON answers;
same optional Bearer key, same tiers and limits). Tools take the same arguments as the HTTP bodies
and answer with the same JSON as structured content plus a short text summary; errors are tool
errors carrying the same problem \`code\`.

${tools.join("\n")}

## Docs

- [OpenAPI 3.1](${api}/openapi.json): every operation with request and response schemas
- [Service descriptor](${api}): name, version and operations
- [Agent descriptor](${origin}/.well-known/capdex.json): where the API, OpenAPI, MCP and this file live
- [MCP server card](${origin}/.well-known/mcp/server-card): the MCP endpoint and its tools
- [Documentation](${origin}/docs): guides for people, including MCP client setup
`;
}
