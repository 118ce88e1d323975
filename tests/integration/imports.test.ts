// Importing facilitators' catalogues from a local catalogue server: items in the v2 and v1 shapes
// listed under the capability the intent resolver reads, every kind of bad item and bad page skipped
// and counted, submissions, claims and other sources never overwritten, delisting after 3 runs, the
// unmapped queue, and probing before ranking.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { endpoints, importItems, providers } from "@/lib/db/schema";
import { flushDiscoveryLog, invalidateCandidates, discover } from "@/lib/discovery";
import { ignoreImportedUrl, listUnmapped, mapImportedUrl, runImport } from "@/lib/imports";
import { probeEndpoint } from "@/lib/probes";
import { createSubmission } from "@/lib/submissions";
import { approveSubmission } from "@/lib/submissions/operator";
import { createTestDb, type TestDb } from "../helpers/db";
import { startCatalogueServer, v1Item, v2Item, type CatalogueServer } from "../helpers/catalogue-server";
import { startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let t: TestDb;
const servers: CatalogueServer[] = [];
const fast = { pauseMs: 0, timeoutMs: 2000, allowPrivateItems: false };
const anon = { kind: "anonymous" as const, key: "ip:203.0.113.5", ip: "203.0.113.5" };

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1"; // the catalogues are on loopback ports
  process.env.DISCOVERY_CACHE_MS = "0";
  process.env.DISCOVERY_EXPLORATION_RATE = "0";
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await flushDiscoveryLog(t.db);
  await t.close();
});

async function catalogue(items: unknown[], opts: Parameters<typeof startCatalogueServer>[0] extends infer O ? Partial<O> : never = {}) {
  const s = await startCatalogueServer({ item: (i) => items[i], total: items.length, ...opts });
  servers.push(s);
  return s;
}
const hostOf = (s: CatalogueServer) => new URL(s.url).host;
const endpointAt = async (url: string) => (await t.db.select().from(endpoints).where(eq(endpoints.url, url)))[0];

describe("an import", () => {
  let s: CatalogueServer;
  let summary: Awaited<ReturnType<typeof runImport>>;
  beforeAll(async () => {
    s = await catalogue([
      v2Item("https://api.nimbus-weather.com/v1/current", { serviceName: "Nimbus Weather", tags: ["weather"] }),
      v2Item("https://eu.nimbus-weather.com/v1/current?city=Oslo", { description: "Current weather conditions for a city in Europe" }),
      v2Item("https://api.quillwords.io/translate", { description: "Translate text between languages", amount: "10000", serviceName: "QuillWords translation", tags: ["translation", "languages"] }),
      v2Item("https://api.flux.dev/calibrate", { description: "Quantum flux capacitor calibration" }),
      "not an object",
      { type: "http", accepts: [] },
      v2Item("https://api.badprice.com/x", { amount: "1.5" }),
      v2Item("https://api.farchain.com/x", { network: "eip155:999999" }),
      v2Item("https://api.ethpriced.com/x", { asset: "0x00000000000000000000000000000000deadbeef", extra: { name: "Wrapped Ether", decimals: 18 } }),
      v2Item("https://api.nimbus-weather.com/v1/current"),
      v2Item("https://10.0.0.7/weather"),
      v2Item("http://api.plaintext-weather.com/now"),
      v2Item("https://api.declared.com/weather", {
        extensions: {
          bazaar: {
            info: { input: { type: "http", method: "GET", queryParams: { city: "Oslo" } }, output: { type: "json", example: { temperature_c: 3 } } },
            schema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { input: { type: "object" } }, required: ["input"] },
          },
        },
      }),
    ]);
    summary = await runImport(t.db, s.url, fast);
  });

  it("summarises what it saw, listed and skipped, by reason", () => {
    expect(summary).toMatchObject({
      status: "completed",
      seen: 13,
      new: 4,
      unmapped: 1,
      stopped: null,
      skipped: { malformed_item: 1, missing_resource: 1, invalid_price: 1, unknown_network: 1, non_usd_asset: 1, duplicate_url: 1, private_url: 1, insecure_url: 1 },
    });
  });

  it("lists items as endpoints of the capability the resolver reads, priced in USD from accepts", async () => {
    const e = await endpointAt("https://api.nimbus-weather.com/v1/current");
    expect(e).toMatchObject({ capabilityId: "weather.current", method: "GET", pricePerCall: 0.002, network: "base", acceptedAssets: ["USDC"], source: hostOf(s), domainVerified: false, checkState: "unverified", status: "listed" });
    expect(e.paymentSeen).toMatchObject({ via: "catalogue", accepts: [{ payTo: "0x5555555555555555555555555555555555555555", network: "eip155:8453", amount: "2000" }] });
    expect((await endpointAt("https://api.quillwords.io/translate"))).toMatchObject({ capabilityId: "translate.text", pricePerCall: 0.01 });
    expect((await endpointAt("https://api.declared.com/weather")).call).toMatchObject({ source: "declared", input: { kind: "query", example: { city: "Oslo" } } });
  });

  it("makes one provider per registrable domain, named after the service", async () => {
    const a = await endpointAt("https://api.nimbus-weather.com/v1/current");
    const b = await endpointAt("https://eu.nimbus-weather.com/v1/current?city=Oslo");
    expect(a.providerId).toBe(b.providerId);
    const [p] = await t.db.select().from(providers).where(eq(providers.id, a.providerId));
    expect(p).toMatchObject({ name: "Nimbus Weather", domain: "nimbus-weather.com" });
  });

  it("does not rank imported endpoints before they are probed", async () => {
    invalidateCandidates(t.db);
    const r = await discover(t.db, { capability_id: "translate.text" }, anon);
    expect([...r.ranked_endpoints, ...r.fallback_endpoints].map((e) => e.url)).not.toContain("https://api.quillwords.io/translate");
  });

  it("queues the unmapped with the resolver's candidates; an operator maps or ignores them", async () => {
    const q = await listUnmapped(t.db);
    expect(q.items.map((i) => i.url)).toEqual(["https://api.flux.dev/calibrate"]);
    expect(q.total).toBe(1);
    await expect(mapImportedUrl(t.db, "https://api.flux.dev/calibrate", "weather.nope")).rejects.toMatchObject({ code: "capability_not_found" });
    expect(await mapImportedUrl(t.db, "https://api.flux.dev/calibrate", "util.random")).toEqual({ listed: 1, pending: 0 });
    expect(await endpointAt("https://api.flux.dev/calibrate")).toMatchObject({ capabilityId: "util.random", status: "listed" });
    // the operator's choice holds on the next run
    const again = await runImport(t.db, s.url, fast);
    expect(again).toMatchObject({ new: 0, unmapped: 0 });
    expect(await endpointAt("https://api.flux.dev/calibrate")).toMatchObject({ capabilityId: "util.random" });
    expect(await ignoreImportedUrl(t.db, "https://api.flux.dev/calibrate")).toEqual({ delisted: 1 });
    const third = await runImport(t.db, s.url, fast);
    expect(third.skipped.ignored).toBe(1);
    expect(await endpointAt("https://api.flux.dev/calibrate")).toMatchObject({ status: "delisted" });
  });
});

describe("the older v1 shape", () => {
  it("is read the same way: maxAmountRequired, friendly network names, the offer's description", async () => {
    const s = await catalogue([v1Item("https://api.v1weather.com/now"), v1Item("https://api.v1weather.com/translate", { description: "Translate text to another language", network: "polygon" })], { version: 1 });
    const r = await runImport(t.db, s.url, fast);
    expect(r).toMatchObject({ status: "completed", seen: 2, new: 2 });
    expect(await endpointAt("https://api.v1weather.com/now")).toMatchObject({ capabilityId: "weather.current", pricePerCall: 0.002, network: "base" });
    expect(await endpointAt("https://api.v1weather.com/translate")).toMatchObject({ capabilityId: "translate.text", network: "polygon" });
  });
});

describe("bad pages", () => {
  const items = Array.from({ length: 50 }, (_, i) => v2Item(`https://api.pages-${i}.com/weather`));
  it("skips a malformed, a failing and a 10 MB page and goes on while the catalogue says more follow", async () => {
    const s = await catalogue(items, { pages: { 10: { kind: "malformed" }, 30: { kind: "status", status: 503 }, 40: { kind: "huge", bytes: 10 * 1024 * 1024 } } });
    const r = await runImport(t.db, s.url, { ...fast, pageSize: 10, maxPageBytes: 1024 * 1024 });
    expect(r).toMatchObject({ status: "partial", seen: 20, new: 20, pages_skipped: { malformed_page: 1, page_failed: 1, page_too_large: 1 }, stopped: null });
  });

  it("gives up on a source that keeps failing, or that is too slow", async () => {
    const down = await catalogue(items, { pages: { 0: { kind: "status", status: 500 } } });
    expect(await runImport(t.db, down.url, fast)).toMatchObject({ status: "failed", seen: 0, stopped: "page_failed" });
    const slow = await catalogue(items, { pages: { 0: { kind: "slow", ms: 1500 } } });
    expect(await runImport(t.db, slow.url, { ...fast, timeoutMs: 300 })).toMatchObject({ status: "failed", pages_skipped: { page_failed: 1 } });
  });

  it("stops endless pagination at the page cap, and a source that ignores offset at once", async () => {
    const endless = await catalogue([], { endless: true, total: 1_000_000_000, item: (i) => v2Item(`https://api.endless-${i}.com/weather`) });
    expect(await runImport(t.db, endless.url, { ...fast, pageSize: 5, maxPages: 4 })).toMatchObject({ status: "partial", stopped: "page_cap", pages: 4, seen: 20 });
    const stuck = await catalogue(items, { ignoreOffset: true });
    expect(await runImport(t.db, stuck.url, { ...fast, pageSize: 10 })).toMatchObject({ status: "partial", stopped: "repeated_page", seen: 10 });
  });
});

describe("what an import never overwrites", () => {
  it("a submitted endpoint, another source's listing, a claimed listing", async () => {
    const [{ id: providerId }] = await t.db.insert(providers).values({ name: "Owner" }).returning({ id: providers.id });
    await t.db.insert(endpoints).values({ capabilityId: "weather.current", providerId, url: "https://api.owned.com/weather", host: "api.owned.com", domain: "owned.com", pricePerCall: 0.05 });
    const first = await catalogue([v2Item("https://api.shared.com/weather"), v2Item("https://api.claimed.com/weather")]);
    await runImport(t.db, first.url, fast);
    await t.db.update(endpoints).set({ domainVerified: true }).where(eq(endpoints.url, "https://api.claimed.com/weather"));
    const claimedBefore = await endpointAt("https://api.claimed.com/weather");

    const second = await catalogue([v2Item("https://api.owned.com/weather", { amount: "1" }), v2Item("https://api.shared.com/weather", { amount: "1" })]);
    const r = await runImport(t.db, second.url, fast);
    expect(r.skipped).toMatchObject({ held_by_submission: 1, held_by_other_source: 1 });
    expect(await endpointAt("https://api.owned.com/weather")).toMatchObject({ pricePerCall: 0.05, source: "submission" });
    expect(await endpointAt("https://api.shared.com/weather")).toMatchObject({ source: hostOf(first), pricePerCall: 0.002 });

    first.set({ item: (i) => [v2Item("https://api.shared.com/weather"), v2Item("https://api.claimed.com/weather", { amount: "9000" })][i] });
    const again = await runImport(t.db, first.url, fast);
    expect(again.skipped.claimed_listing).toBe(1);
    expect(await endpointAt("https://api.claimed.com/weather")).toMatchObject({ pricePerCall: claimedBefore.pricePerCall, domainVerified: true });
  });
});

describe("a provider's own submission", () => {
  it("takes over an unclaimed imported listing, which later imports then leave alone", async () => {
    const s = await catalogue([v2Item("https://api.takeover.com/weather")]);
    await runImport(t.db, s.url, fast);
    const imported = await endpointAt("https://api.takeover.com/weather");
    const sub = await createSubmission(t.db, { endpoint_url: "https://api.takeover.com/weather", capability_id: "weather.current", contact_email: "ops@takeover.com", provider_name: "Takeover", price_per_call: 0.01 }, anon);
    expect((await approveSubmission(t.db, sub.submission_id)).ok).toBe(true);
    expect(await endpointAt("https://api.takeover.com/weather")).toMatchObject({ id: imported.id, source: "submission", domainVerified: true, pricePerCall: 0.01 });
    expect((await runImport(t.db, s.url, fast)).skipped.held_by_submission).toBe(1);
    expect((await endpointAt("https://api.takeover.com/weather")).pricePerCall).toBe(0.01);
  });
});

describe("an item a source stops listing", () => {
  it("is delisted after 3 completed runs in a row without it, and relisted when it returns", async () => {
    const keep = v2Item("https://api.stays.com/weather");
    const gone = v2Item("https://api.goes.com/weather");
    const s = await catalogue([keep, gone]);
    await runImport(t.db, s.url, fast);
    s.set({ item: (i) => [keep][i], total: 1 });
    for (const run of [1, 2]) {
      expect((await runImport(t.db, s.url, fast)).delisted, `run ${run}`).toBe(0);
      expect((await endpointAt("https://api.goes.com/weather")).status).toBe("listed");
    }
    expect((await runImport(t.db, s.url, fast)).delisted).toBe(1);
    expect(await endpointAt("https://api.goes.com/weather")).toMatchObject({ status: "delisted" });
    const [item] = await t.db.select().from(importItems).where(and(eq(importItems.url, "https://api.goes.com/weather"), eq(importItems.sourceHost, hostOf(s))));
    expect(item.missedRuns).toBe(3);
    s.set({ item: (i) => [keep, gone][i], total: 2 });
    expect(await runImport(t.db, s.url, fast)).toMatchObject({ updated: 1 });
    expect(await endpointAt("https://api.goes.com/weather")).toMatchObject({ status: "listed" });
  });

  it("is not counted missing by a run that did not read the whole catalogue", async () => {
    const s = await catalogue([v2Item("https://api.partial-a.com/weather"), v2Item("https://api.partial-b.com/weather")]);
    await runImport(t.db, s.url, fast);
    s.set({ pages: { 1: { kind: "malformed" } } });
    for (let i = 0; i < 3; i++) await runImport(t.db, s.url, { ...fast, pageSize: 1 });
    expect((await endpointAt("https://api.partial-b.com/weather")).status).toBe("listed");
  });
});

describe("probing before ranking", () => {
  let hono: HonoX402Server;
  beforeAll(async () => {
    hono = await startHonoX402Server([{ method: "GET", path: "/weather", price: "$0.002" }]);
  });
  afterAll(async () => hono.close());

  it("ranks an imported endpoint once a probe has passed: verified, domain not verified, source the catalogue", async () => {
    const s = await catalogue([v2Item(hono.url("/weather"))]);
    await runImport(t.db, s.url, { ...fast, allowPrivateItems: true });
    const e = await endpointAt(hono.url("/weather"));
    expect(await probeEndpoint(t.db, e.id)).toMatchObject({ ok: true });
    invalidateCandidates(t.db);
    const r = await discover(t.db, { capability_id: "weather.current", preferences: { limit: 20 } }, anon);
    expect(r.ranked_endpoints.find((x) => x.endpoint_id === e.id)).toMatchObject({ verified: true, domain_verified: false, source: hostOf(s) });
    const strict = await discover(t.db, { capability_id: "weather.current", constraints: { verified_only: true }, preferences: { limit: 20 } }, anon);
    expect(strict.ranked_endpoints.map((x) => x.endpoint_id)).not.toContain(e.id);
    const [{ n }] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from endpoint_checks where endpoint_id = ${e.id}::uuid`);
    expect(n).toBe(1);
  });
});
