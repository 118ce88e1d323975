// Demo data: providers on .example domains with 2-6 endpoints per capability, and a believable
// recent history of outcome reports and discover requests (lib/seed/history.ts), so rankings and
// stats mean something at first start. Deterministic: the same PRNG seed on every machine.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { endpoints, providers, type NewEndpoint } from "@/lib/db/schema";
import { planHistory, type HistoryEndpoint, type HistoryOptions, type PlannedReport } from "./history";
import { CATALOGUE } from "./catalogue";
import { createRandom, seededUuid } from "./random";
import { demoCallOf } from "./demo-calls";
import { rollUpAll } from "@/lib/outcomes/rollup";
import { WEIGHTS } from "@/lib/outcomes/weights";
import { NETWORKS, type NetworkName } from "@/lib/schemas/networks";
import { priceToAtomic, USDC_ADDRESSES } from "@/lib/probes/assets";
import type { PaymentSeenValue } from "@/lib/db/schema";

const PROVIDER_WORDS = [
  "Nimbus", "Atlas", "Quill", "Beacon", "Cobalt", "Lumen", "Vertex", "Harbor", "Sable", "Orbit",
  "Juniper", "Kestrel", "Meridian", "Pioneer", "Raven", "Tundra", "Zephyr", "Onyx", "Polaris", "Summit",
];
const PROVIDER_SUFFIX = ["Labs", "API", "Data", "Cloud", "Works", "Systems"];
const NETWORK_MIX: NetworkName[] = ["base", "base", "base", "base-sepolia", "polygon", "solana", "arbitrum", "optimism", "ethereum", "avalanche"];

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
    const drawn = rnd.pick([0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05]);
    // Plain data lookups cost a fraction of a cent in the real market (the draw is kept either way,
    // so the rest of the demo data stays as it was).
    const base = Math.min(drawn, PRICE_CEILING[cap.id.split(".")[0]] ?? Infinity);
    for (let k = 0; k < n; k++) {
      const p = providerRows[(start + k * 7) % providerRows.length];
      const host = `api.${slug(p.name)}.example`;
      const [category, name] = cap.id.split(".");
      const free = rnd.next() < 0.08;
      const network = rnd.pick(NETWORK_MIX);
      const roll = rnd.next();
      const checkState = roll < 0.8 ? "verified" : roll < 0.9 ? "unverified" : "failing";
      const pricePerCall = free ? 0 : round(base * rnd.between(0.6, 1.8) + (base === 0 ? rnd.between(0.0002, 0.003) : 0), 6);
      const id = seededUuid(rnd);
      const networks = pricePerCall > 0 ? demoNetworks(id, network) : [network];
      const method = rnd.next() < 0.45 ? "POST" : "GET";
      rows.push({
        id,
        capabilityId: cap.id,
        providerId: p.id,
        url: `https://${host}/v1/${category}/${name.replace(/_/g, "-")}`,
        method,
        ...demoCallOf(id, cap.id, method),
        host,
        domain: `${slug(p.name)}.example`,
        description: `Demo listing of ${cap.id} by ${p.name}.`,
        pricePerCall,
        network,
        networks,
        paymentSeen: pricePerCall > 0 ? demoPaymentSeen(p.id, networks, pricePerCall, cap.id) : null,
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
 * The demo network's recent history (lib/seed/history.ts): outcome reports of every demo endpoint
 * and discover requests of every capability over the last `days` days (default 8: the 7-day window
 * and a day to spare), up to the present moment of the current hour, then rolled up like live reports.
 */
export async function seedDemoHistory(db: Db, opts: HistoryOptions = {}): Promise<number> {
  const [clock] = await queryRows<{ hour: Date | string; into: number }>(
    db,
    sql`select date_trunc('hour', now()) as hour, extract(epoch from now() - date_trunc('hour', now()))::float8 as into`,
  );
  const hour = new Date(clock.hour);
  const eps = await queryRows<HistoryEndpoint>(
    db,
    sql`select id::text as id, capability_id as "capabilityId", provider_id::text as "providerId", network, check_state as "checkState"
        from endpoints where is_demo order by id`,
  );
  // In the registry's own order (lib/registry/capabilities.json), which planHistory reads as
  // popularity: its first POPULAR_HEAD are the long-known jobs; capabilities added since come after.
  const position = new Map(CATALOGUE.capabilities.map((c, i) => [c.id, i]));
  const caps = (await queryRows<{ id: string }>(db, sql`select id from capabilities order by id`))
    .map((c) => c.id)
    .sort((a, b) => (position.get(a) ?? Infinity) - (position.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
  const { reports, counters } = planHistory(eps, caps, hour, Number(clock.into), opts);
  const at = hour.toISOString();
  // Columns as array literals, unnested in the database: far cheaper to parse than JSON.
  const ids = `{${eps.map((e) => e.id).join(",")}}`;
  const column = (rows: PlannedReport[], k: number) => `{${rows.map((r) => r[k]).join(",")}}`;
  for (let i = 0; i < reports.length; i += CHUNK) {
    const rows = reports.slice(i, i + CHUNK);
    await db.execute(sql`
      insert into outcome_reports (endpoint_id, success, latency_ms, status_code, reporter_kind, reporter_key, weight, created_at)
      select (${ids}::uuid[])[r.e + 1], r.ok = 1, r.latency, r.status,
             case when r.auth = 1 then 'authenticated' else 'anonymous' end,
             case when r.auth = 1 then 'seed:k' else 'seed:a' end || r.reporter,
             case when r.auth = 1 then ${WEIGHTS.authenticated}::float8 else ${WEIGHTS.anonymous}::float8 end,
             ${at}::timestamptz + r.at * interval '1 second'
      from unnest(${column(rows, 0)}::int[], ${column(rows, 1)}::int[], ${column(rows, 2)}::int[], ${column(rows, 3)}::int[],
                  ${column(rows, 4)}::int[], ${column(rows, 5)}::int[], ${column(rows, 6)}::int[])
           as r(e, at, ok, latency, status, auth, reporter)`);
  }
  const capIds = `{${caps.map((c) => `"${c.replace(/["\\]/g, "")}"`).join(",")}}`;
  const counterColumn = (k: number) => `{${counters.map((r) => r[k]).join(",")}}`;
  await db.execute(sql`
    insert into discover_counters (capability_id, hour, requests, intent_requests)
    select (${capIds}::text[])[r.c + 1], ${at}::timestamptz - r.ago * interval '1 hour', r.requests, r.intent
    from unnest(${counterColumn(0)}::int[], ${counterColumn(1)}::int[], ${counterColumn(2)}::int[], ${counterColumn(3)}::int[])
         as r(c, ago, requests, intent)
    on conflict do nothing`);
  await rollUpAll(db);
  return reports.length;
}

const CHUNK = 20_000;

/**
 * What a real paid endpoint's 402 would have shown (pay-to address, USDC contract, timeout), so the
 * demo catalogue has payable resources for the x402 discovery API. Derived from the provider's id,
 * not drawn from the PRNG, so the rest of the demo data stays as it was.
 */
function demoPaymentSeen(providerId: string, networks: NetworkName[], price: number, capabilityId: string): PaymentSeenValue {
  const hex = createHash("sha256").update(providerId).digest("hex");
  return {
    x402_version: 2,
    accepts: networks.map((network) => ({
      scheme: "exact",
      network: NETWORKS[network],
      amount: priceToAtomic(price, 6).toString(),
      asset: USDC_ADDRESSES[network] ?? "",
      payTo: network.startsWith("solana") ? `Demo${hex.slice(0, 40)}` : `0x${hex.slice(0, 40)}`,
      maxTimeoutSeconds: 60,
      extra: network.startsWith("solana") ? null : { name: "USD Coin", version: "2" },
    })),
    resource: { description: `Demo listing of ${capabilityId}.`, mimeType: "application/json" },
    via: "seed",
  };
}

/** Top price (USD) of a demo endpoint per category, where real ones are cheap lookups. */
const PRICE_CEILING: Record<string, number> = { weather: 0.005, geo: 0.005, util: 0.002, translate: 0.01 };
const EVM_MAINNETS: NetworkName[] = ["base", "polygon", "arbitrum", "optimism", "ethereum", "avalanche"];

/**
 * The networks a paid demo endpoint accepts, its listed one first: as in the real market, many take
 * USDC on Base besides their own chain, a few on a second chain. Derived from the endpoint's id (not
 * the PRNG), so the rest of the demo data stays as it was.
 */
function demoNetworks(endpointId: string, first: NetworkName): NetworkName[] {
  const h = createHash("sha256").update(endpointId).digest();
  if (first.endsWith("sepolia") || first.endsWith("devnet")) return [first];
  const out = new Set<NetworkName>([first]);
  if (first !== "base" && h[0] % 100 < 55) out.add("base");
  if (h[1] % 100 < 25) out.add(EVM_MAINNETS[h[2] % EVM_MAINNETS.length]);
  if (first !== "solana" && h[3] % 100 < 10) out.add("solana");
  return [...out];
}

function slug(s: string) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

function round(x: number, digits: number) {
  const m = 10 ** digits;
  return Math.round(x * m) / m;
}
