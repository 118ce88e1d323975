// One ranked endpoint as an x402 DiscoveryResource: what its 402 (or its catalogue) offered, in x402
// v2 payment requirements that validate against the official schema, its bazaar declaration as
// declared, and Capdex's own figures under extensions.capdex. Endpoints that are free, or whose
// payment requirements Capdex has never seen, are not payable x402 resources: none is made.
import { PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { Capability } from "@/lib/db/schema";
import type { Candidate } from "@/lib/discovery/candidates";
import type { RankedEndpoint } from "@/lib/schemas/discover";
import type { DiscoveryResourceOut } from "@/lib/schemas/x402-discovery";

/** A resource with what the filters and the text search look at, computed once. */
export type CatalogueItem = {
  resource: DiscoveryResourceOut;
  capabilityId: string;
  type: "http" | "mcp";
  payTos: string[];
  schemes: string[];
  /** CAIP-2, lower case */
  networks: string[];
  extensionKeys: string[];
  /** Lower-case text matched by search's plain-text pass. */
  haystack: string;
};

type Requirement = DiscoveryResourceOut["accepts"][number];

type Static = Omit<CatalogueItem, "resource" | "capabilityId" | "extensionKeys"> & {
  cap: Capability;
  accepts: Requirement[];
  bazaar: { info: Record<string, unknown>; schema?: Record<string, unknown> } | undefined;
  description: string;
  mimeType: string | undefined;
};

// What does not depend on the ranking, computed once per candidate (candidates are rebuilt only
// when their capability's rows change): validating every offer with the official schema is the
// dearest part of a catalogue rebuild.
const statics = new WeakMap<Candidate, Static | null>();

function staticOf(c: Candidate, cap: Capability): Static | null {
  const known = statics.get(c);
  if (known !== undefined && (known === null || known.cap === cap)) return known;
  const made = makeStatic(c, cap);
  statics.set(c, made);
  return made;
}

function makeStatic(c: Candidate, cap: Capability): Static | null {
  if (c.pricePerCall <= 0 || !c.paymentSeen) return null;
  const accepts: Requirement[] = [];
  for (const a of c.paymentSeen.accepts) {
    const requirement: Requirement = {
      scheme: a.scheme,
      network: a.network,
      amount: a.amount,
      asset: a.asset,
      payTo: a.payTo,
      maxTimeoutSeconds: a.maxTimeoutSeconds,
      ...(a.extra ? { extra: a.extra } : {}),
    };
    // Only what the official v2 schema accepts (non-empty payTo, a CAIP-2 network...), and a timeout above 0.
    if (requirement.maxTimeoutSeconds > 0 && PaymentRequirementsV2Schema.safeParse(requirement).success) accepts.push(requirement);
  }
  if (!accepts.length) return null;
  const declared = c.declaration as { info?: Record<string, unknown>; schema?: Record<string, unknown> } | null;
  const facts = c.paymentSeen.resource ?? {};
  const description = c.description || facts.description || cap.title;
  return {
    cap,
    accepts,
    bazaar: declared?.info ? { info: declared.info, ...(declared.schema ? { schema: declared.schema } : {}) } : undefined,
    description,
    mimeType: facts.mimeType,
    type: c.call?.input.kind === "mcp" ? "mcp" : "http",
    payTos: [...new Set(accepts.map((a) => a.payTo.toLowerCase()))],
    schemes: [...new Set(accepts.map((a) => a.scheme.toLowerCase()))],
    networks: [...new Set(accepts.map((a) => a.network.toLowerCase()))],
    haystack: [c.url, description, c.providerName, cap.id, cap.title, ...cap.tags].join(" ").toLowerCase(),
  };
}

export function toCatalogueItem(c: Candidate, ranked: RankedEndpoint, cap: Capability): CatalogueItem | null {
  const st = staticOf(c, cap);
  if (!st) return null;
  const resource: DiscoveryResourceOut = {
    resource: c.url,
    type: st.type,
    x402Version: c.paymentSeen!.x402_version,
    accepts: st.accepts,
    lastUpdated: c.changedAt,
    description: st.description,
    ...(st.mimeType ? { mimeType: st.mimeType } : {}),
    serviceName: c.providerName,
    tags: cap.tags,
    extensions: {
      ...(st.bazaar ? { bazaar: st.bazaar } : {}),
      capdex: {
        endpoint_id: c.id,
        capability_id: cap.id,
        score: ranked.score,
        verified: ranked.verified,
        domain_verified: ranked.domain_verified,
        source: ranked.source,
        page: ranked.page,
        observed: {
          success_rate_7d: ranked.observed.success_rate_7d,
          p95_latency_ms: ranked.observed.p95_latency_ms,
          sample_size_7d: ranked.observed.sample_size_7d,
          distinct_reporters_7d: ranked.observed.distinct_reporters_7d,
          paid_reports_7d: ranked.observed.paid_reports_7d,
          distinct_payers_7d: ranked.observed.distinct_payers_7d,
          last_verified_at: ranked.observed.last_verified_at,
        },
      },
    },
  };
  return {
    resource,
    capabilityId: cap.id,
    type: st.type,
    payTos: st.payTos,
    schemes: st.schemes,
    networks: st.networks,
    extensionKeys: st.bazaar ? ["bazaar", "capdex"] : ["capdex"],
    haystack: st.haystack,
  };
}
