// Discovery: resolving what the caller wants and ranking the endpoints that serve it.
// (First version: the endpoints of one capability in default order; the full ranking lands with
// the discovery issue.)
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { getObservedFigures } from "@/lib/outcomes/figures";
import type { RankedEndpoint } from "@/lib/schemas/discover";

export async function listRankedEndpoints(db: Db, capabilityId: string): Promise<RankedEndpoint[]> {
  const rows = await db
    .select({ e: endpoints, providerName: providers.name })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .where(and(eq(endpoints.capabilityId, capabilityId), eq(endpoints.status, "listed")));
  const figures = await getObservedFigures(db, rows.map((r) => r.e.id));
  return rows
    .map(({ e, providerName }) => {
      const f = figures.get(e.id)!;
      const success = f.success_rate_7d ?? 0.5;
      return {
        endpoint_id: e.id,
        provider_name: providerName,
        url: e.url,
        method: e.method,
        score: Math.round(success * 1000) / 1000,
        verified: e.checkState === "verified",
        payment: { type: e.paymentType, price_per_call: e.pricePerCall, network: e.network, accepted_assets: e.acceptedAssets },
        observed: {
          success_rate_7d: f.success_rate_7d,
          p95_latency_ms: f.p95_latency_ms,
          sample_size_7d: f.sample_size_7d,
          last_verified_at: e.lastVerifiedAt?.toISOString() ?? null,
        },
        score_breakdown: { success, latency: 0, price: 0, stability: 0 },
      };
    })
    .sort((a, b) => b.score - a.score || a.endpoint_id.localeCompare(b.endpoint_id));
}
