import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { expireVerified, listEndpointChecks, probeEndpoint } from "@/lib/probes";
import { POST as discoverRoute } from "@/app/api/discover/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

let t: TestDb;
let x402: X402TestServer;
let dns: DnsTestServer;
let capabilities: string[];
let providerId: string;

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  x402 = await startX402Server({
    "/v1": { kind: "v1", network: "base", amount: "1000" },
    "/v2": { kind: "v2", network: "base", amount: "1000" },
    "/pricey": { kind: "v2", network: "base", amount: "2500" },
    "/elsewhere": { kind: "v1", network: "polygon", amount: "1000" },
    "/free-ride": { kind: "status", status: 200 },
    "/broken": { kind: "status", status: 500 },
    "/hang": { kind: "hang" },
    "/big": { kind: "big", bytes: 100 * 1024 },
    "/flaky": { kind: "status", status: 500 },
  });
  x402.route("/redirect", { kind: "redirect", location: x402.url("/v1") });
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  process.env.DISCOVERY_CACHE_MS = "0";
  capabilities = (await queryRows<{ id: string }>(t.db, sql`select id from capabilities order by id limit 3`)).map((r) => r.id);
  [{ id: providerId }] = await t.db.insert(providers).values({ name: "Loopback Labs" }).returning({ id: providers.id });
});

afterAll(async () => {
  await x402.close();
  await dns.close();
  await flushDiscoveryLog(t.db);
  await t.close();
});

beforeEach(() => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
});

let n = 0;
async function listing(url: string, opts: { price?: number; network?: string; method?: string; capability?: string; isDemo?: boolean } = {}) {
  const host = new URL(url).hostname;
  const [row] = await t.db
    .insert(endpoints)
    .values({
      capabilityId: opts.capability ?? capabilities[0],
      providerId,
      url: `${url}${url.includes("?") ? "&" : "?"}n=${n++}`,
      method: opts.method ?? "GET",
      host,
      domain: host,
      pricePerCall: opts.price ?? 0.001,
      network: opts.network ?? "base",
      isDemo: opts.isDemo ?? false,
    })
    .returning({ id: endpoints.id });
  return row.id;
}

async function endpointRow(id: string) {
  const [row] = await queryRows<{
    check_state: string;
    consecutive_failures: number;
    last_check_ok: boolean | null;
    last_check_reason: string | null;
    last_check_status: number | null;
    last_check_latency_ms: number | null;
    last_verified_at: Date | string | null;
    next_check_at: Date | string | null;
  }>(t.db, sql`select * from endpoints where id = ${id}`);
  return row;
}

async function probeReports(id: string) {
  return queryRows<{ success: boolean; latency_ms: number | null; status_code: number | null; weight: number }>(
    t.db,
    sql`select success, latency_ms, status_code, weight from outcome_reports where endpoint_id = ${id} and reporter_kind = 'probe'`,
  );
}

describe("probing an endpoint", () => {
  it.each([
    ["version 1", "/v1", "GET"],
    ["version 2", "/v2", "POST"],
  ])("verifies a paid %s endpoint whose challenge matches its listing", async (_v, path, method) => {
    const id = await listing(x402.url(path), { method });
    const result = await probeEndpoint(t.db, id);
    expect(result).toMatchObject({ skipped: null, ok: true, reason: "ok", status: 402, state: { checkState: "verified", consecutiveFailures: 0 } });
    expect(x402.methods(path).at(-1)).toBe(method);

    const row = await endpointRow(id);
    expect(row).toMatchObject({ check_state: "verified", consecutive_failures: 0, last_check_ok: true, last_check_reason: "ok", last_check_status: 402 });
    expect(row.last_verified_at).not.toBeNull();
    expect(row.last_check_latency_ms).toEqual(expect.any(Number));

    const [check] = await listEndpointChecks(t.db, id);
    expect(check).toMatchObject({ ok: true, reason: "ok", statusCode: 402, detail: { x402_version: path === "/v1" ? 1 : 2, matched: { network: "base", amount: "1000" } } });
    // Facts, not the provider's words: the challenge's description and payTo are not stored.
    expect(JSON.stringify(check.detail)).not.toContain("test resource");

    // First-party figures: the probe counts as an outcome report.
    expect(await probeReports(id)).toEqual([expect.objectContaining({ success: true, status_code: 402 })]);
  });

  it.each([
    ["asks for more than listed", "/pricey", {}, "price_above_listing", 402],
    ["charges on another network", "/elsewhere", {}, "network_mismatch", 402],
    ["answers 200 without payment", "/free-ride", {}, "no_payment_challenge", 200],
    ["answers 500", "/broken", {}, "unexpected_status", 500],
    ["redirects (not followed)", "/redirect", {}, "redirect_not_followed", 302],
    ["sends more than 64 KiB", "/big", {}, "body_too_large", 402],
    ["asks a free listing for payment", "/v1", { price: 0 }, "price_above_listing", 402],
  ])("fails an endpoint that %s", async (_label, path, opts, reason, status) => {
    const v1Hits = x402.hits("/v1");
    const id = await listing(x402.url(path), opts);
    const result = await probeEndpoint(t.db, id);
    expect(result).toMatchObject({ ok: false, reason, status, state: { checkState: "unverified", consecutiveFailures: 1 } });
    expect(await endpointRow(id)).toMatchObject({ check_state: "unverified", last_check_ok: false, last_check_reason: reason, last_check_status: status });
    expect(await listEndpointChecks(t.db, id)).toEqual([expect.objectContaining({ ok: false, reason, statusCode: status })]);
    expect(await probeReports(id)).toEqual([expect.objectContaining({ success: false, status_code: status })]);
    if (path === "/redirect") expect(x402.hits("/v1")).toBe(v1Hits);
  });

  it("verifies a free endpoint that answers 2xx", async () => {
    const id = await listing(x402.url("/free-ride"), { price: 0 });
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: true, reason: "ok", status: 200, state: { checkState: "verified" } });
  });

  it("times out an endpoint that never answers", async () => {
    const id = await listing(x402.url("/hang"));
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: false, reason: "timeout", status: null });
    expect(await endpointRow(id)).toMatchObject({ last_check_reason: "timeout", last_check_status: null });
  });

  it("never contacts a host name that resolves to a private address", async () => {
    delete process.env.ALLOW_PRIVATE_TARGETS;
    dns.setA("internal.provider.test", ["127.0.0.1"]);
    const id = await listing(`https://internal.provider.test:${x402.port}/v1`);
    x402.reset();
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: false, reason: "private_address", status: null });
    expect(x402.connections()).toBe(0);
    expect(dns.queryCount("internal.provider.test")).toBeGreaterThan(0);
    expect(await endpointRow(id)).toMatchObject({ check_state: "unverified", last_check_reason: "private_address" });
    // We refused to send it: that says nothing about how the endpoint serves callers.
    expect(await probeReports(id)).toEqual([]);
  });

  it("skips demo listings and refuses unknown ids", async () => {
    const id = await listing("https://api.nimbus-labs.example/v1/x", { isDemo: true });
    expect(await probeEndpoint(t.db, id)).toEqual({ endpointId: id, skipped: "demo" });
    expect(await listEndpointChecks(t.db, id)).toEqual([]);
    await expect(probeEndpoint(t.db, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ code: "endpoint_not_found" });
  });
});

describe("check state", () => {
  it("is failing after three failed probes in a row and verified again after one pass", async () => {
    x402.route("/flaky", { kind: "status", status: 500 });
    const id = await listing(x402.url("/flaky"));
    const states = [];
    for (let i = 0; i < 3; i++) {
      const r = await probeEndpoint(t.db, id);
      states.push(r.skipped ? r.skipped : r.state?.checkState);
    }
    expect(states).toEqual(["unverified", "unverified", "failing"]);
    expect(await endpointRow(id)).toMatchObject({ check_state: "failing", consecutive_failures: 3 });

    x402.route("/flaky", { kind: "v1", network: "base", amount: "1000" });
    expect(await probeEndpoint(t.db, id)).toMatchObject({ ok: true, state: { checkState: "verified", consecutiveFailures: 0 } });
    expect(await listEndpointChecks(t.db, id)).toHaveLength(4);
  });

  it("backs off on endpoints that keep failing, up to 6 hours", async () => {
    const id = await listing(x402.url("/broken"));
    const dueIn = async () => {
      const [r] = await queryRows<{ s: number }>(t.db, sql`select extract(epoch from next_check_at - now())::float8 as s from endpoints where id = ${id}`);
      return Number(r.s);
    };
    await probeEndpoint(t.db, id);
    const first = await dueIn();
    expect(first).toBeGreaterThan(600 * 0.9 - 5);
    expect(first).toBeLessThan(600 * 1.1 + 1);
    await t.db.execute(sql`update endpoints set consecutive_failures = 4 where id = ${id}`);
    await probeEndpoint(t.db, id); // 5th failure in a row: 2^(5-3) intervals
    const fifth = await dueIn();
    expect(fifth).toBeGreaterThan(2400 * 0.9 - 5);
    expect(fifth).toBeLessThan(2400 * 1.1 + 1);
    await t.db.execute(sql`update endpoints set consecutive_failures = 40 where id = ${id}`);
    await probeEndpoint(t.db, id);
    const capped = await dueIn();
    expect(capped).toBeGreaterThan(6 * 3600 * 0.9 - 5);
    expect(capped).toBeLessThan(6 * 3600 * 1.1 + 1);
  });

  it("lets verified lapse an hour after the last pass, except on demo listings", async () => {
    const live = await listing(x402.url("/v1"));
    await probeEndpoint(t.db, live);
    const demo = await listing("https://api.atlas-data.example/v1/y", { isDemo: true });
    await t.db.execute(sql`update endpoints set check_state = 'verified', last_verified_at = now() - interval '61 minutes' where id = ${demo}`);

    expect(await expireVerified(t.db)).toBe(0);
    expect(await endpointRow(live)).toMatchObject({ check_state: "verified" });

    await t.db.execute(sql`update endpoints set last_verified_at = now() - interval '61 minutes' where id = ${live}`);
    expect(await expireVerified(t.db)).toBe(1);
    expect(await endpointRow(live)).toMatchObject({ check_state: "unverified" });
    expect(await endpointRow(demo)).toMatchObject({ check_state: "verified" });
  });
});

describe("what discover makes of the checks", () => {
  it("ranks verified endpoints and moves failing ones to the fallbacks with failed_recent_checks", async () => {
    const capability = capabilities[1];
    const good = await listing(x402.url("/v2"), { capability });
    const bad = await listing(x402.url("/broken"), { capability });
    const unchecked = await listing(x402.url("/v1"), { capability });
    await probeEndpoint(t.db, good);
    for (let i = 0; i < 3; i++) await probeEndpoint(t.db, bad);

    const res = await call(discoverRoute, "/api/discover", { method: "POST", json: { capability_id: capability } });
    expect(res.status).toBe(200);
    const ranked = res.body.ranked_endpoints as Array<{ endpoint_id: string; verified: boolean; observed: { last_verified_at: string | null } }>;
    const fallbacks = res.body.fallback_endpoints as Array<{ endpoint_id: string; exclusion_reasons: string[] }>;
    expect(ranked.map((e) => e.endpoint_id).sort()).toEqual([good, unchecked].sort());
    expect(ranked.find((e) => e.endpoint_id === good)).toMatchObject({ verified: true, observed: { last_verified_at: expect.any(String) } });
    expect(ranked.find((e) => e.endpoint_id === unchecked)).toMatchObject({ verified: false, observed: { last_verified_at: null } });
    expect(fallbacks).toEqual([expect.objectContaining({ endpoint_id: bad, exclusion_reasons: ["failed_recent_checks"] })]);

    const verifiedOnly = await call(discoverRoute, "/api/discover", { method: "POST", json: { capability_id: capability, constraints: { verified_only: true } } });
    expect((verifiedOnly.body.ranked_endpoints as Array<{ endpoint_id: string }>).map((e) => e.endpoint_id)).toEqual([good]);
  });
});
