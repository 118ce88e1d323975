// GET /api/listing_status: every state a URL can be in, with its stable reasons and next steps, the
// URL matched after normalising, bad input refused, and no contact e-mail ever shown.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { endpoints, providers } from "@/lib/db/schema";
import { runImport, ignoreImportedUrl } from "@/lib/imports";
import { probeEndpoint } from "@/lib/probes";
import { createSubmission } from "@/lib/submissions";
import { listingStatusSchema } from "@/lib/schemas/listing-status";
import { GET as statusRoute } from "@/app/api/listing_status/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

let t: TestDb;
let x402: X402TestServer;
let cat: CatalogueServer;
let providerId: string;
const anon = { kind: "anonymous" as const, key: "ip:203.0.113.4", ip: "203.0.113.4" };
const fast = { pauseMs: 0, allowPrivateItems: false };

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  x402 = await startX402Server({ "/paid": { kind: "v2", network: "base", amount: "1000" }, "/free-ride": { kind: "status", status: 200 } });
  [{ id: providerId }] = await t.db.insert(providers).values({ name: "Status Co", contactEmail: "secret@status.test" }).returning({ id: providers.id });
  const items = [v2Item("https://api.unmapped-thing.com/flux", { description: "Quantum flux capacitor calibration" }), v2Item("https://api.dropped.com/weather"), v2Item("https://api.ignored.com/weather")];
  cat = await startCatalogueServer({ item: (i) => items[i], total: items.length });
  await runImport(t.db, cat.url, fast);
});
afterAll(async () => {
  await x402.close();
  await cat.close();
  await t.close();
});

async function status(url: string) {
  const res = await call(statusRoute, `/api/listing_status?url=${encodeURIComponent(url)}`);
  expect(res.status).toBe(200);
  expect(JSON.stringify(res.body)).not.toContain("@");
  return listingStatusSchema.parse(res.body);
}

async function listing(path: string, price = 0.001) {
  const [row] = await t.db
    .insert(endpoints)
    .values({ capabilityId: "weather.current", providerId, url: x402.url(path), host: "127.0.0.1", domain: "127.0.0.1", pricePerCall: price, network: "base" })
    .returning({ id: endpoints.id });
  return row.id;
}

describe("GET /api/listing_status", () => {
  it("knows nothing of a URL nobody listed, and says so", async () => {
    expect(await status("https://nobody.example.org/x")).toEqual({ url: "https://nobody.example.org/x", known: false, listings: [] });
  });

  it("a listed endpoint whose probes pass, found under another spelling of its URL", async () => {
    const id = await listing("/paid");
    await probeEndpoint(t.db, id);
    const s = await status(x402.url("/paid").replace("http://127.0.0.1", "HTTP://127.0.0.1") + "/");
    expect(s.known).toBe(true);
    expect(s.listings).toEqual([
      expect.objectContaining({ endpoint_id: id, capability_id: "weather.current", state: "listed", source: "submission", domain_verified: true, reasons: [], last_probe: expect.objectContaining({ passed: true, reason: "ok" }) }),
    ]);
  });

  it("a failing endpoint: the last 3 checks got HTTP 200 instead of 402", async () => {
    const id = await listing("/free-ride");
    for (let i = 0; i < 3; i++) await probeEndpoint(t.db, id);
    const [l] = (await status(x402.url("/free-ride"))).listings;
    expect(l).toMatchObject({ state: "failing", reasons: ["probe_no_402"], last_probe: { passed: false, status: 200, consecutive_failures: 3 } });
    expect(l.next_steps[0]).toContain("402");
  });

  it("a pending submission waits for its DNS record", async () => {
    const sub = await createSubmission(t.db, { endpoint_url: "https://api.pending-co.com/weather", capability_id: "weather.current", contact_email: "ops@pending-co.com", provider_name: "Pending Co", price_per_call: 0.01 }, anon);
    const s = await status("https://api.pending-co.com/weather");
    expect(s.listings).toEqual([expect.objectContaining({ submission_id: sub.submission_id, state: "pending_verification", reasons: ["dns_record_missing"], endpoint_id: null })]);
  });

  it("an imported item waiting for a capability, with the resolver's candidates as next step", async () => {
    const [l] = (await status("https://api.unmapped-thing.com/flux")).listings;
    expect(l).toMatchObject({ state: "unmapped", source: new URL(cat.url).host, reasons: ["unmapped_capability"], last_seen_in_source: expect.any(String) });
  });

  it("an imported listing not probed yet nor claimed", async () => {
    const [l] = (await status("https://api.dropped.com/weather")).listings;
    expect(l).toMatchObject({ state: "listed", domain_verified: false, reasons: ["awaiting_first_probe", "domain_not_claimed"], last_probe: null });
  });

  it("a listing its catalogue dropped 3 runs in a row, and one an operator ignored", async () => {
    await ignoreImportedUrl(t.db, "https://api.ignored.com/weather");
    cat.set({ item: (i) => [v2Item("https://api.unmapped-thing.com/flux", { description: "Quantum flux capacitor calibration" }), v2Item("https://api.ignored.com/weather")][i], total: 2 });
    for (let i = 0; i < 3; i++) await runImport(t.db, cat.url, fast);
    expect((await status("https://api.dropped.com/weather")).listings[0]).toMatchObject({ state: "delisted", reasons: ["dropped_by_source"] });
    expect((await status("https://api.ignored.com/weather")).listings[0]).toMatchObject({ state: "ignored", reasons: ["ignored_by_operator"] });
  });

  it("says when the bazaar declaration was ignored", async () => {
    const id = await listing("/paid?declared");
    await t.db.update(endpoints).set({ declarationIssue: { reason: "declaration_too_large", problem: "larger than 32 KiB", at: new Date().toISOString() } }).where(eq(endpoints.id, id));
    expect((await status(x402.url("/paid?declared"))).listings[0].reasons).toContain("declaration_too_large");
  });

  it("refuses what is not a URL with 422", async () => {
    for (const qs of ["", "?url=", "?url=not-a-url", "?url=ftp%3A%2F%2Fx.com%2F"]) {
      const res = await call(statusRoute, `/api/listing_status${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: "#/url" })]);
    }
  });
});
