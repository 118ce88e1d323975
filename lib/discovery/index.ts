// Discovery: resolving what the caller wants and ranking the endpoints that serve it (POST /discover),
// and the default-rank listing of a capability's endpoints (capability detail, portal).
import type { Db } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { ApiError } from "@/lib/http/errors";
import type { DiscoverBody, DiscoverResponse, RankedEndpoint } from "@/lib/schemas/discover";
import { getCandidates } from "./candidates";
import { explorationRate, windowOf } from "./exploration";
import { recordDiscovery } from "./log";
import { rankCandidates, scoreCandidates } from "./rank";
import { resolveCapability } from "./resolve";
import { chooseWeights, DEFAULT_RANKING } from "./weights";
import { metrics } from "@/lib/metrics";

const RESOLVED_BY = { capabilityId: { kind: "capability_id" }, intent: { kind: "intent" }, none: { kind: "unresolved" } } as const;

export { invalidateCandidates } from "./candidates";
export { flushDiscoveryLog } from "./log";

/** How long a caller may reuse a discover answer. */
export const DISCOVERY_TTL_SECONDS = 300;
export const DEFAULT_LIMIT = 5;

/**
 * `db` is the primary (the discovery log is written there); `read` may be the read handle, which
 * resolves the capability from its registry copy. The candidates follow the primary either way.
 */
export async function discover(db: Db, body: DiscoverBody, principal: Principal, read: Db = db): Promise<DiscoverResponse> {
  let resolution: Awaited<ReturnType<typeof resolveCapability>>;
  try {
    resolution = await resolveCapability(read, body);
  } catch (err) {
    // An unknown capability_id or an intent that matches nothing (404); a database error is no resolution.
    if (err instanceof ApiError && err.status === 404) metrics().resolutions.inc(RESOLVED_BY.none);
    throw err;
  }
  const { resolved, viaIntent } = resolution;
  metrics().resolutions.inc(viaIntent ? RESOLVED_BY.intent : RESOLVED_BY.capabilityId);
  // A preference in the intent's words ("the cheapest transcription") picks the preset unless the request names one.
  const fromIntent = !body.preferences?.ranking_preset && !body.preferences?.weights ? resolution.presetFromIntent : null;
  const choice = chooseWeights(fromIntent ? { ...body.preferences, ranking_preset: fromIntent } : body.preferences);
  const set = await getCandidates(db, resolved.capability_id);
  const ranking = rankCandidates(set.candidates, {
    capabilityId: resolved.capability_id,
    weights: choice.weights,
    constraints: body.constraints,
    limit: body.preferences?.limit ?? DEFAULT_LIMIT,
    includeFallbacks: body.preferences?.include_fallbacks ?? true,
    window: windowOf(Date.now() + set.clockOffsetMs),
    explorationRate: explorationRate(),
  });
  const discoveryId = crypto.randomUUID();
  recordDiscovery(db, {
    id: discoveryId,
    capabilityId: resolved.capability_id,
    principalKey: principal.key,
    // Fallbacks too: a caller that falls back to one is still acting on this answer.
    endpointIds: [...ranking.ranked, ...ranking.fallbacks].map((e) => e.endpoint_id),
    viaIntent,
  });
  return {
    resolved,
    ranked_endpoints: ranking.ranked,
    fallback_endpoints: ranking.fallbacks,
    ranking_info: {
      preset: choice.preset,
      ...(fromIntent ? { preset_from_intent: fromIntent } : {}),
      weights: choice.weights,
      candidates_considered: ranking.considered,
      explored: ranking.explored,
    },
    ttl_seconds: DISCOVERY_TTL_SECONDS,
    discovery_id: discoveryId,
  };
}

/**
 * Every listed endpoint of a capability in default-rank order: the ones discover would rank (best
 * score first, ties by id), then the failing ones. Same scores as discover with the default preset;
 * no exploration, so the order is the scores' own.
 */
export async function listRankedEndpoints(db: Db, capabilityId: string): Promise<RankedEndpoint[]> {
  const set = await getCandidates(db, capabilityId);
  const scored = scoreCandidates(set.candidates, { weights: DEFAULT_RANKING.weights });
  return [...scored.filter((s) => !s.reasons.length), ...scored.filter((s) => s.reasons.length)].map((s) => s.out);
}
