// One ranked endpoint as an x402 DiscoveryResource: what its 402 (or its catalogue) offered, in x402
// v2 payment requirements that validate against the official schema, its bazaar declaration as
// declared, and Capdex's own figures under extensions.capdex. Endpoints that are free, or whose
// payment requirements Capdex has never seen, are not payable x402 resources: none is made.
import { PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { Capability } from "@/lib/db/schema";
import type { Candidate } from "@/lib/discovery/candidates";
import type { RankedEndpoint } from "@/lib/schemas/discover";
import type { DiscoveryResourceOut } from "@/lib/schemas/x402-discovery";

/**
 * A resource with what the filters and the text search look at, computed once. The resource itself
 * is made when a page shows it (`resource`), from the candidate and its scoring that the caches hold
 * anyway: holding 100,000 made resources cost about 35 MB at scale 5,000.
 */
export type CatalogueItem = {
  readonly resource: DiscoveryResourceOut;
  endpointId: string;
  capabilityId: string;
  type: "http" | "mcp";
  payTos: readonly string[];
  schemes: readonly string[];
  /** CAIP-2, lower case */
  networks: readonly string[];
  extensionKeys: readonly string[];
  /** Lower-case text matched by search's plain-text pass: the endpoint's (URL, description, provider)... */
  haystack: string;
  /** ...and its capability's (id, title, tags), one string per capability. */
  capabilityHaystack: string;
};

type Requirement = DiscoveryResourceOut["accepts"][number];

type Static = Omit<CatalogueItem, "resource" | "endpointId" | "capabilityId" | "extensionKeys" | "capabilityHaystack"> & {
  cap: Capability;
  accepts: Requirement[];
  bazaar: { info: Record<string, unknown>; schema?: Record<string, unknown> } | undefined;
  description: string;
  mimeType: string | undefined;
};

// What does not depend on the ranking, computed once per candidate (candidates are rebuilt only
// when their capability's rows change): validating every offer with the official schema is the
// dearest part of a catalogue rebuild.
// On globalThis: the routes and the start-up code are bundled apart (see lib/discovery/rank.ts).
const sharedStatics = globalThis as unknown as { __capdexX402Statics?: WeakMap<Candidate, Static | null> };
const statics = (sharedStatics.__capdexX402Statics ??= new WeakMap());

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
    haystack: [c.url, description, c.providerName].join(" ").toLowerCase(),
  };
}

const capabilityHaystacks = new WeakMap<Capability, string>();
function capabilityHaystackOf(cap: Capability): string {
  let h = capabilityHaystacks.get(cap);
  if (h === undefined) capabilityHaystacks.set(cap, (h = [cap.id, cap.title, ...cap.tags].join(" ").toLowerCase()));
  return h;
}

const WITH_BAZAAR: readonly string[] = Object.freeze(["bazaar", "capdex"]);
const CAPDEX_ONLY: readonly string[] = Object.freeze(["capdex"]);

class Item implements CatalogueItem {
  readonly endpointId: string;
  readonly capabilityId: string;
  readonly type: "http" | "mcp";
  readonly payTos: readonly string[];
  readonly schemes: readonly string[];
  readonly networks: readonly string[];
  readonly extensionKeys: readonly string[];
  readonly haystack: string;
  readonly capabilityHaystack: string;
  constructor(
    private readonly c: Candidate,
    private readonly ranked: RankedEndpoint,
    private readonly cap: Capability,
    private readonly st: Static,
  ) {
    this.endpointId = c.id;
    this.capabilityId = cap.id;
    this.type = st.type;
    this.payTos = st.payTos;
    this.schemes = st.schemes;
    this.networks = st.networks;
    this.extensionKeys = st.bazaar ? WITH_BAZAAR : CAPDEX_ONLY;
    this.haystack = st.haystack;
    this.capabilityHaystack = capabilityHaystackOf(cap);
  }

  get resource(): DiscoveryResourceOut {
    return makeResource(this.c, this.ranked, this.cap, this.st);
  }
}

function makeResource(c: Candidate, ranked: RankedEndpoint, cap: Capability, st: Static): DiscoveryResourceOut {
  return {
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
}

export function toCatalogueItem(c: Candidate, ranked: RankedEndpoint, cap: Capability): CatalogueItem | null {
  const st = staticOf(c, cap);
  return st ? new Item(c, ranked, cap, st) : null;
}
