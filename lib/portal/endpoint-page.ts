// What an endpoint's page (/endpoints/<id>) and a provider's page (/providers/<slug>) show, read
// through the same functions discover uses (candidates, scoring), plus the endpoint's own history:
// probes with their reasons, the last 402 seen, and the outcome reports of the last 7 days.
import { desc, eq, sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { endpointChecks, endpoints, providers, type Endpoint, type PaymentSeenValue } from "@/lib/db/schema";
import { getCandidates } from "@/lib/discovery/candidates";
import { scoreCandidates } from "@/lib/discovery/rank";
import { PRESET_NAMES, RANKING_PRESETS, type RankedEndpoint, type RankingPreset } from "@/lib/schemas/discover";
import { uuidSchema } from "@/lib/schemas/common";

export type ProbeRow = { checkedAt: Date; ok: boolean; reason: string; statusCode: number | null; latencyMs: number | null };
export type ReportCounts = { reports: number; successes: number; distinctReporters: number; failures: Record<string, number>; paidReports: number };
export type EndpointPage = {
  endpoint: Endpoint;
  provider: { id: string; name: string; slug: string; isDemo: boolean };
  /** The endpoint as discover shows it (default preset), or null when it is not rankable (delisted, not probed yet). */
  ranked: RankedEndpoint | null;
  /** Its place among the endpoints discover would rank for the capability, per preset (null: not ranked). */
  positions: Array<{ preset: RankingPreset; position: number | null; of: number }>;
  probes: ProbeRow[];
  lastChallenge: { seen: PaymentSeenValue; at: Date | null } | null;
  reports: ReportCounts;
};

/** "Nimbus Labs" -> "nimbus-labs-1a2b3c4d": the name for people, the id's first 8 hex digits to be unique. */
export function providerSlug(p: { id: string; name: string }): string {
  const words = p.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `${words || "provider"}-${p.id.slice(0, 8)}`;
}

export function providerPagePath(p: { id: string; name: string }): string {
  return `/providers/${providerSlug(p)}`;
}

export async function getEndpointPage(db: Db, id: string): Promise<EndpointPage | null> {
  if (!uuidSchema.safeParse(id).success) return null;
  const [row] = await db
    .select({ endpoint: endpoints, provider: { id: providers.id, name: providers.name, isDemo: providers.isDemo } })
    .from(endpoints)
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .where(eq(endpoints.id, id));
  if (!row) return null;
  const [set, probes, reports] = await Promise.all([getCandidates(db, row.endpoint.capabilityId), probeHistory(db, id), reportCounts(db, id)]);
  let ranked: RankedEndpoint | null = null;
  const positions = PRESET_NAMES.map((preset) => {
    const scored = scoreCandidates(set.candidates, { weights: RANKING_PRESETS[preset] });
    const fit = scored.filter((s) => !s.reasons.length);
    const at = fit.findIndex((s) => s.c.id === id);
    if (preset === "default") ranked = scored.find((s) => s.c.id === id)?.out ?? null;
    return { preset, position: at >= 0 ? at + 1 : null, of: fit.length };
  });
  const e = row.endpoint;
  return {
    endpoint: e,
    provider: { ...row.provider, slug: providerSlug(row.provider) },
    ranked,
    positions,
    probes,
    lastChallenge: e.paymentSeen ? { seen: e.paymentSeen, at: e.paymentSeenAt } : null,
    reports,
  };
}

async function probeHistory(db: Db, id: string): Promise<ProbeRow[]> {
  return db
    .select({ checkedAt: endpointChecks.checkedAt, ok: endpointChecks.ok, reason: endpointChecks.reason, statusCode: endpointChecks.statusCode, latencyMs: endpointChecks.latencyMs })
    .from(endpointChecks)
    .where(eq(endpointChecks.endpointId, id))
    .orderBy(desc(endpointChecks.checkedAt))
    .limit(20);
}

/** Outcome reports of the last 7 days as received (not weighted): callers', not probes'. */
async function reportCounts(db: Db, id: string): Promise<ReportCounts> {
  const rows = await queryRows<{ g: number; failure: string | null; reports: number; successes: number; reporters: number; paid: number }>(
    db,
    sql`select grouping(failure) as g, failure, count(*)::int as reports, count(*) filter (where success)::int as successes,
               count(distinct reporter_key)::int as reporters, count(*) filter (where paid_amount > 0)::int as paid
        from outcome_reports
        where endpoint_id = ${id}::uuid and reporter_kind not in ('probe', 'paid_check') and created_at > now() - interval '7 days'
        group by grouping sets ((), (failure))`,
  );
  const total = rows.find((r) => Number(r.g) === 1);
  const failures: Record<string, number> = {};
  for (const r of rows) if (Number(r.g) === 0 && r.failure) failures[r.failure] = r.reports;
  return {
    reports: total?.reports ?? 0,
    successes: total?.successes ?? 0,
    distinctReporters: total?.reporters ?? 0,
    failures,
    paidReports: total?.paid ?? 0,
  };
}

export type ProviderPage = {
  provider: { id: string; name: string; slug: string; isDemo: boolean; domain: string | null };
  endpoints: Array<Pick<Endpoint, "id" | "capabilityId" | "url" | "method" | "pricePerCall" | "network" | "networks" | "checkState" | "status" | "source" | "domainVerified">>;
};

export async function getProviderPage(db: Db, slug: string): Promise<ProviderPage | null> {
  const m = /-([0-9a-f]{8})$/.exec(slug);
  if (!m) return null;
  const candidates = await db
    .select({ id: providers.id, name: providers.name, isDemo: providers.isDemo, domain: providers.domain })
    .from(providers)
    .where(sql`${providers.id}::text like ${`${m[1]}%`}`);
  const provider = candidates.find((p) => providerSlug(p) === slug);
  if (!provider) return null;
  const list = await db
    .select({
      id: endpoints.id,
      capabilityId: endpoints.capabilityId,
      url: endpoints.url,
      method: endpoints.method,
      pricePerCall: endpoints.pricePerCall,
      network: endpoints.network,
      networks: endpoints.networks,
      checkState: endpoints.checkState,
      status: endpoints.status,
      source: endpoints.source,
      domainVerified: endpoints.domainVerified,
    })
    .from(endpoints)
    .where(eq(endpoints.providerId, provider.id))
    .orderBy(endpoints.capabilityId, endpoints.url);
  return { provider: { ...provider, slug }, endpoints: list };
}
