// Short text forms of tool results: what a language model reads when its client shows it only the
// text content. Every id a model must pass back (endpoint_id, discovery_id, cursor) is spelled out.
import type { z } from "zod";
import type { ApiError } from "@/lib/http/errors";
import type { capabilityDetailSchema, listCapabilitiesResponseSchema } from "@/lib/schemas/capabilities";
import type { DiscoverResponse, FallbackEndpoint, RankedEndpoint } from "@/lib/schemas/discover";
import { describeCallLine } from "@/lib/discovery/call";

type CapabilityList = z.output<typeof listCapabilitiesResponseSchema>;
type CapabilityDetail = z.output<typeof capabilityDetailSchema>;

const usd = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 6 });

export function formatPrice(price: number): string {
  return price === 0 ? "free" : `$${usd.format(price)}/call`;
}

/** "Nimbus Labs: GET https://... | $0.002/call on base (USDC) | 99.1% success 7d, p95 180 ms | verified | endpoint_id ..." */
export function describeEndpoint(e: RankedEndpoint | FallbackEndpoint): string {
  const o = e.observed;
  const record =
    o.success_rate_7d === null
      ? "no reports in 7d"
      : `${(o.success_rate_7d * 100).toFixed(1)}% success 7d (${o.sample_size_7d} reports)` +
        (o.p95_latency_ms === null ? "" : `, p95 ${Math.round(o.p95_latency_ms)} ms`);
  const assets = e.payment.accepted_assets.length ? ` (${e.payment.accepted_assets.join(", ")})` : "";
  const parts = [
    `${e.provider_name}: ${e.method} ${e.url}`,
    e.payment.price_per_call === 0
      ? "free (no payment)"
      : `${formatPrice(e.payment.price_per_call)} ${e.payment.type} on ${(e.payment.networks?.length ? e.payment.networks : [e.payment.network]).join(" or ")}${assets}`,
    record,
    e.verified ? "verified" : "not verified",
    `score ${e.score.toFixed(3)}`,
    `endpoint_id ${e.endpoint_id}`,
  ];
  if (e.exploration) parts.push("exploration: a new endpoint with a short record, placed here so it can earn one");
  // How to call it, so an agent can act on the answer without reading the provider's docs.
  if (e.call) parts.push(describeCallLine(e.call));
  if ("exclusion_reasons" in e && e.exclusion_reasons.length) parts.push(`not ranked: ${e.exclusion_reasons.join(", ")}`);
  return parts.join(" | ");
}

export function summarizeDiscover(r: DiscoverResponse): string {
  const lines = [`${r.resolved.capability_id} (confidence ${r.resolved.confidence.toFixed(2)}), discovery_id ${r.discovery_id}`];
  if (r.resolved.candidates.length) {
    lines.push(`Other readings: ${r.resolved.candidates.map((c) => `${c.capability_id} (${c.confidence.toFixed(2)})`).join(", ")}`);
  }
  lines.push(r.ranked_endpoints.length ? `Ranked endpoints (preset ${r.ranking_info.preset}, best first):` : "No endpoint meets every constraint.");
  r.ranked_endpoints.forEach((e, i) => lines.push(`${i + 1}. ${describeEndpoint(e)}`));
  if (r.fallback_endpoints.length) {
    lines.push("Fallbacks:");
    for (const e of r.fallback_endpoints) lines.push(`- ${describeEndpoint(e)}`);
  }
  lines.push(`Valid for ${r.ttl_seconds} s. After calling an endpoint, send report_outcome with its endpoint_id and this discovery_id.`);
  return lines.join("\n");
}

export function summarizeCapabilityList(r: CapabilityList): string {
  if (!r.capabilities.length) return `No capability matches (total ${r.total}). Try a broader search or no category.`;
  const lines = [`${r.capabilities.length} of ${r.total} matching capabilities:`];
  for (const c of r.capabilities) {
    const count = c.endpoint_count === undefined ? "" : ` (${c.endpoint_count} endpoint${c.endpoint_count === 1 ? "" : "s"})`;
    lines.push(`- ${c.id}: ${c.title}${count}`);
  }
  if (r.next_cursor) lines.push(`More: call list_capabilities again with cursor "${r.next_cursor}".`);
  return lines.join("\n");
}

export function summarizeCapability(c: CapabilityDetail): string {
  const lines = [`${c.id}: ${c.title} (category ${c.category})`, c.description];
  if (c.aliases.length) lines.push(`Also known as: ${c.aliases.join(", ")}`);
  if (c.examples.length) lines.push(`Example requests: ${c.examples.join("; ")}`);
  if (c.endpoints) {
    lines.push(c.endpoints.length ? `Endpoints (default rank, ${c.endpoint_count ?? c.endpoints.length} listed):` : "No endpoint is listed yet.");
    c.endpoints.forEach((e, i) => lines.push(`${i + 1}. ${describeEndpoint(e)}`));
  } else {
    lines.push("Use discover with this capability_id for ranked endpoints.");
  }
  return lines.join("\n");
}

export function summarizeOutcome(r: { accepted: true; report_id: string }): string {
  return `Outcome recorded (report_id ${r.report_id}). Thank you: reports improve the ranking for every caller.`;
}

/** "capability_not_found (404): There is no capability ... Did you mean: ..." */
export function summarizeError(err: ApiError): string {
  const lines = [`Error ${err.code} (${err.status}): ${err.message}`];
  for (const e of err.errors ?? []) lines.push(`- ${e.pointer.slice(2) || "(arguments)"}: ${e.detail}`);
  const extras = err.extras ?? {};
  if (Array.isArray(extras.suggestions) && extras.suggestions.length) lines.push(`Did you mean: ${extras.suggestions.join(", ")}?`);
  if (Array.isArray(extras.candidates) && extras.candidates.length) {
    const names = (extras.candidates as Array<{ capability_id?: string; confidence?: number }>).map(
      (c) => `${c.capability_id}${typeof c.confidence === "number" ? ` (${c.confidence.toFixed(2)})` : ""}`,
    );
    lines.push(`Closest capabilities: ${names.join(", ")}`);
  }
  if (typeof extras.retry_after === "number") lines.push(`Retry after ${extras.retry_after} s.`);
  return lines.join("\n");
}
