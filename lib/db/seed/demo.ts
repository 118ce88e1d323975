// Demo data: providers on .example domains with 2-6 endpoints per capability, and synthetic
// outcome history and discover counts, so rankings and stats mean something at first start.
// Deterministic: the same PRNG seed and SQL setseed on every machine.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../client";
import { endpoints, providers, type NewEndpoint } from "../schema";
import { createRandom, seededUuid } from "./random";
import { rollUpAll } from "@/lib/outcomes/rollup";
import { WEIGHTS } from "@/lib/outcomes/weights";
import { NETWORKS, type NetworkName } from "@/lib/schemas/networks";
import { priceToAtomic, USDC_ADDRESSES } from "@/lib/probes/assets";
import type { PaymentSeenValue } from "../schema";

const PROVIDER_WORDS = [
  "Nimbus", "Atlas", "Quill", "Beacon", "Cobalt", "Lumen", "Vertex", "Harbor", "Sable", "Orbit",
  "Juniper", "Kestrel", "Meridian", "Pioneer", "Raven", "Tundra", "Zephyr", "Onyx", "Polaris", "Summit",
];
const PROVIDER_SUFFIX = ["Labs", "API", "Data", "Cloud", "Works", "Systems"];
const NETWORK_MIX: NetworkName[] = ["base", "base", "base", "base-sepolia", "polygon", "solana", "arbitrum", "optimism", "ethereum", "avalanche"];

export type DemoOptions = {
  /** Days of synthetic history (default 14). */
  days?: number;
  /** Mean outcome reports per endpoint per hour (default 0.6). */
  reportsPerHour?: number;
  seed?: number;
};

export type SeedCounts = { providers: number; endpoints: number; reports: number };

type Cap = { id: string };

/** Demo providers and endpoints for the given capabilities; returns the endpoint rows it inserted. */
export async function seedDemoEndpoints(
  db: Db,
  caps: Cap[],
  opts: { seed?: number; perCapability?: [number, number]; providerCount?: number } = {},
): Promise<{ providers: number; endpoints: number }> {
  const rnd = createRandom(opts.seed ?? 42);
  const [minPer, maxPer] = opts.perCapability ?? [2, 6];
  const providerCount = opts.providerCount ?? 40;
  const providerRows = Array.from({ length: providerCount }, (_, i) => {
    const name = `${PROVIDER_WORDS[i % PROVIDER_WORDS.length]} ${PROVIDER_SUFFIX[Math.floor(i / PROVIDER_WORDS.length) % PROVIDER_SUFFIX.length]}${i >= PROVIDER_WORDS.length * PROVIDER_SUFFIX.length ? ` ${i}` : ""}`;
    return { id: seededUuid(rnd), name, contactEmail: `ops@${slug(name)}.example`, isDemo: true };
  });
  for (let i = 0; i < providerRows.length; i += 1000) {
    await db.insert(providers).values(providerRows.slice(i, i + 1000)).onConflictDoNothing();
  }
  const rows: NewEndpoint[] = [];
  for (const cap of caps) {
    const n = rnd.int(minPer, maxPer);
    const start = rnd.int(0, providerRows.length - 1);
    const base = rnd.pick([0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05]);
    for (let k = 0; k < n; k++) {
      const p = providerRows[(start + k * 7) % providerRows.length];
      const host = `api.${slug(p.name)}.example`;
      const [category, name] = cap.id.split(".");
      const free = rnd.next() < 0.08;
      const network = rnd.pick(NETWORK_MIX);
      const roll = rnd.next();
      const checkState = roll < 0.8 ? "verified" : roll < 0.9 ? "unverified" : "failing";
      const pricePerCall = free ? 0 : round(base * rnd.between(0.6, 1.8) + (base === 0 ? rnd.between(0.0002, 0.003) : 0), 6);
      rows.push({
        id: seededUuid(rnd),
        capabilityId: cap.id,
        providerId: p.id,
        url: `https://${host}/v1/${category}/${name.replace(/_/g, "-")}`,
        method: rnd.next() < 0.45 ? "POST" : "GET",
        host,
        domain: `${slug(p.name)}.example`,
        description: `Demo listing of ${cap.id} by ${p.name}.`,
        pricePerCall,
        network,
        paymentSeen: pricePerCall > 0 ? demoPaymentSeen(p.id, network, pricePerCall, cap.id) : null,
        acceptedAssets: network.startsWith("solana") ? ["USDC"] : rnd.next() < 0.25 ? ["USDC", "USDT"] : ["USDC"],
        isDemo: true,
        domainVerified: true,
        checkState,
        consecutiveFailures: checkState === "failing" ? 3 : 0,
        lastCheckOk: checkState !== "failing",
        lastCheckReason: checkState === "failing" ? "demo_failing" : checkState === "verified" ? "ok" : null,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 2000) {
    await db.insert(endpoints).values(rows.slice(i, i + 2000)).onConflictDoNothing();
  }
  // Check times relative to now, from the database clock.
  await db.execute(sql`update endpoints set
      payment_seen_at = case when payment_seen is not null then now() end,
      last_check_at = now() - (abs(hashtext(id::text)) % 600) * interval '1 second',
      last_verified_at = case when check_state = 'verified' then now() - (abs(hashtext(id::text)) % 600) * interval '1 second'
                              when check_state = 'failing' then now() - interval '2 days' end
      where is_demo`);
  return { providers: providerRows.length, endpoints: rows.length };
}

/**
 * Synthetic outcome reports for every demo endpoint over the last `days` days, generated inside
 * the database (each endpoint has its own true success rate and latency), then rolled up.
 */
export async function seedDemoHistory(db: Db, opts: DemoOptions = {}): Promise<number> {
  const days = opts.days ?? 14;
  const perHour = opts.reportsPerHour ?? 0.6;
  const seed = ((opts.seed ?? 42) % 1000) / 1000;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(${seed})`);
    // Per endpoint: success rate 0.55..0.995 (failing ones lower), median latency 40..1600 ms.
    await tx.execute(sql`
      insert into outcome_reports (endpoint_id, success, latency_ms, status_code, reporter_kind, reporter_key, weight, created_at)
      select e.id,
             r.u_success < e.rate,
             greatest(1, round(exp(ln(e.median) + 0.45 * sqrt(-2 * ln(greatest(r.u1, 1e-9))) * cos(2 * pi() * r.u2))))::int,
             case when r.u_success < e.rate then 200 else (array[500, 502, 503, 504, 429])[1 + floor(r.u2 * 5)::int] end,
             case when r.u1 < 0.5 then 'authenticated' else 'anonymous' end,
             'seed:' || floor(r.u2 * 50)::int,
             case when r.u1 < 0.5 then ${WEIGHTS.authenticated}::float8 else ${WEIGHTS.anonymous}::float8 end,
             h.hour + r.u1 * interval '1 hour'
      from (select id, is_demo,
                   case when check_state = 'failing' then 0.35 + 0.3 * ((abs(hashtext(id::text || 'r')) % 1000) / 1000.0)
                        else 0.55 + 0.445 * sqrt((abs(hashtext(id::text || 'r')) % 1000) / 1000.0) end as rate,
                   40 + (abs(hashtext(id::text || 'l')) % 1560) as median,
                   0.2 + 1.6 * ((abs(hashtext(id::text || 'v')) % 1000) / 1000.0) as volume
            from endpoints where is_demo order by id) e
      cross join lateral (
        select generate_series(date_trunc('hour', now()) - ${days * 24 - 1} * interval '1 hour', date_trunc('hour', now()) - interval '1 hour', interval '1 hour') as hour
      ) h
      cross join lateral (
        select random() as u_success, random() as u1, random() as u2
        from generate_series(1, floor(random() * ${2 * perHour} * e.volume + random())::int)
      ) r
      order by e.id, h.hour`);
    // Discover requests per capability and hour, busier for popular categories.
    await tx.execute(sql`
      insert into discover_counters (capability_id, hour, requests, intent_requests)
      select c.id, h.hour, n, floor(n * (0.3 + 0.4 * random()))::int
      from (select id from capabilities order by id) c
      cross join generate_series(date_trunc('hour', now()) - ${days * 24 - 1} * interval '1 hour', date_trunc('hour', now()), interval '1 hour') as h(hour)
      cross join lateral (select floor(random() * (2 + (abs(hashtext(c.id)) % 12)))::int as n) k
      where n > 0
      on conflict do nothing`);
  });
  const [{ count }] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from outcome_reports`);
  await rollUpAll(db);
  return Number(count);
}

/**
 * What a real paid endpoint's 402 would have shown (pay-to address, USDC contract, timeout), so the
 * demo catalogue has payable resources for the x402 discovery API. Derived from the provider's id,
 * not drawn from the PRNG, so the rest of the demo data stays as it was.
 */
function demoPaymentSeen(providerId: string, network: NetworkName, price: number, capabilityId: string): PaymentSeenValue {
  const hex = createHash("sha256").update(providerId).digest("hex");
  const payTo = network.startsWith("solana") ? `Demo${hex.slice(0, 40)}` : `0x${hex.slice(0, 40)}`;
  return {
    x402_version: 2,
    accepts: [
      {
        scheme: "exact",
        network: NETWORKS[network],
        amount: priceToAtomic(price, 6).toString(),
        asset: USDC_ADDRESSES[network] ?? "",
        payTo,
        maxTimeoutSeconds: 60,
        extra: network.startsWith("solana") ? null : { name: "USD Coin", version: "2" },
      },
    ],
    resource: { description: `Demo listing of ${capabilityId}.`, mimeType: "application/json" },
    via: "seed",
  };
}

function slug(s: string) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

function round(x: number, digits: number) {
  const m = 10 ** digits;
  return Math.round(x * m) / m;
}
