// Endpoints with chosen 7-day figures for the discover tests: providers, endpoints and hourly
// rollups written straight into the database (on its clock), and the stored figures computed from
// them, as the rollup job would leave them.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { storeFigures } from "@/lib/outcomes/figures";
import { bucketOf } from "@/lib/outcomes/histogram";

export type EndpointSpec = {
  capabilityId: string;
  /** Orders ids: endpoint k gets a uuid ending in k. */
  k: number;
  price?: number;
  network?: string;
  /** Every network it accepts (stored in endpoints.networks); default: just `network`. */
  networks?: string[];
  checkState?: "verified" | "unverified" | "failing";
  /** Successes and reports over the week (spread over 7 days, weight 1 each). */
  ok?: number;
  total?: number;
  p95?: number;
};

export const endpointId = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, "0")}`;

let providerId: string | null = null;

export async function addEndpoint(db: Db, spec: EndpointSpec): Promise<string> {
  if (!providerId) {
    const [p] = await db.insert(providers).values({ name: "Test Provider", contactEmail: "ops@test.example" }).returning();
    providerId = p.id;
  }
  const id = endpointId(spec.k);
  const state = spec.checkState ?? "verified";
  await db.insert(endpoints).values({
    id,
    capabilityId: spec.capabilityId,
    providerId,
    url: `https://api.p${spec.k}.example/${spec.capabilityId}`,
    host: `api.p${spec.k}.example`,
    domain: `p${spec.k}.example`,
    pricePerCall: spec.price ?? 0.01,
    network: spec.network ?? "base",
    networks: spec.networks ?? [spec.network ?? "base"],
    checkState: state,
    consecutiveFailures: state === "failing" ? 3 : 0,
    lastCheckOk: state !== "failing",
    lastVerifiedAt: state === "verified" ? new Date() : null,
  });
  const total = spec.total ?? 0;
  const ok = spec.ok ?? 0;
  for (let day = 0; day < 7 && total > 0; day++) {
    const reports = Math.floor(total / 7) + (day < total % 7 ? 1 : 0);
    const successes = Math.floor(ok / 7) + (day < ok % 7 ? 1 : 0);
    if (!reports) continue;
    const hist = JSON.stringify(spec.p95 ? { [String(bucketOf(spec.p95))]: reports } : {});
    await db.execute(sql`
      insert into outcome_rollups (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
      values (${id}::uuid, date_trunc('hour', now()) - ${day * 24 + 1} * interval '1 hour', 0,
              ${reports}, ${successes}, ${successes}, ${reports}, ${hist}::jsonb)`);
  }
  // What the rollup job does after counting: store the endpoint's 7-day figures for discovery.
  if (total > 0) await storeFigures(db, [id]);
  return id;
}

export async function countDiscoveries(db: Db): Promise<number> {
  const [r] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from discoveries`);
  return Number(r.n);
}

export async function counterTotals(db: Db, capabilityId?: string): Promise<{ requests: number; intent: number }> {
  const filter = capabilityId ? sql`where capability_id = ${capabilityId}` : sql``;
  const [r] = await queryRows<{ requests: number; intent: number }>(
    db,
    sql`select coalesce(sum(requests), 0)::int as requests, coalesce(sum(intent_requests), 0)::int as intent
        from discover_counters ${filter}`,
  );
  return { requests: Number(r.requests), intent: Number(r.intent) };
}
