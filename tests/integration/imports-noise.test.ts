// Catalogue noise held back by the importer (lib/imports/noise.ts): each reason stored on the item,
// never an endpoint (so never in discover or the x402 discovery API), shown by listing_status with a
// fix and by the operators' queue; a host's duplicates settled over the whole run (one kept); a
// listed endpoint whose item turns into noise delisted; a group that shrinks released; an operator's
// mapping lists a held item anyway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { endpoints, importItems } from "@/lib/db/schema";
import { listHeldBack, mapImportedUrl, runImport } from "@/lib/imports";
import { LISTING_REASONS } from "@/lib/listings/reasons";
import { listingStatusSchema } from "@/lib/schemas/listing-status";
import { GET as statusRoute } from "@/app/api/listing_status/route";
import { GET as resourcesRoute } from "@/app/api/x402/discovery/resources/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";

let t: TestDb;
let s: CatalogueServer;
const fast = { pauseMs: 0, timeoutMs: 2000, allowPrivateItems: false, pageSize: 3 };
const dupUrls = Array.from({ length: 6 }, (_, i) => `https://api.orderbook-x402.dev/orders/${i}`);
const dup = (url: string) => v2Item(url, { description: "Order details and status for one order of the shop" });
let items: unknown[] = [
  v2Item("https://api.nimbus-weather.com/v1/current"),
  v2Item("https://api.stockphrase.com/v1/weather", { description: "Premium API Access" }),
  v2Item("https://api.sandbox-weather.com/v1/current", { network: "eip155:84532" }),
  v2Item("https://api.zapcoin.io/buy", { description: "Mint 10k $ZAP to your wallet" }),
  v2Item("https://gateway.pinfiles.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG", { description: "Retrieve this file" }),
  v2Item("https://api.blankslate.io/x", { description: "" }),
  ...dupUrls.map(dup),
];

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  s = await startCatalogueServer({ item: (i) => items[i], total: items.length });
});
afterAll(async () => {
  await s.close();
  await t.close();
});

const endpointAt = async (url: string) => (await t.db.select().from(endpoints).where(eq(endpoints.url, url)))[0];
const itemAt = async (url: string) => (await t.db.select().from(importItems).where(eq(importItems.url, url)))[0];
async function status(url: string) {
  const res = await call(statusRoute, `/api/listing_status?url=${encodeURIComponent(url)}`);
  expect(res.status).toBe(200);
  return listingStatusSchema.parse(res.body);
}
const HELD = {
  "https://api.stockphrase.com/v1/weather": "boilerplate_description",
  "https://api.sandbox-weather.com/v1/current": "testnet_only",
  "https://api.zapcoin.io/buy": "token_mint",
  "https://gateway.pinfiles.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG": "content_paywall",
  "https://api.blankslate.io/x": "empty_description",
} as const;

describe("noise in a catalogue", () => {
  let summary: Awaited<ReturnType<typeof runImport>>;
  beforeAll(async () => {
    summary = await runImport(t.db, s.url, fast);
  });

  it("is held back with its reason, counted in the run's summary", async () => {
    expect(summary).toMatchObject({
      status: "completed",
      seen: 12,
      held_back: { boilerplate_description: 1, testnet_only: 1, token_mint: 1, content_paywall: 1, empty_description: 1, duplicate_listing: 5 },
    });
    for (const [url, reason] of Object.entries(HELD)) {
      expect(await itemAt(url), url).toMatchObject({ state: "held_back", reason, endpointId: null });
      expect(await endpointAt(url), url).toBeUndefined();
    }
    expect(await endpointAt("https://api.nimbus-weather.com/v1/current")).toMatchObject({ capabilityId: "weather.current", status: "listed" });
  });

  it("keeps one of a host's identical listings; the others, listed before the group was known, are delisted", async () => {
    // Pages of 3: the first members were stored before the group reached its size; the run's end settled them.
    const states = await Promise.all(dupUrls.map(itemAt));
    expect(states.map((i) => i.state === "held_back")).toEqual([false, true, true, true, true, true]);
    expect(states.slice(1).every((i) => i.reason === "duplicate_listing")).toBe(true);
    for (const url of dupUrls.slice(1)) {
      const e = await endpointAt(url);
      if (e) expect(e.status).toBe("delisted");
    }
  });

  it("never reaches the x402 discovery API", async () => {
    const res = await call(resourcesRoute, "/api/x402/discovery/resources?limit=100");
    expect(res.status).toBe(200);
    const urls = (res.body as { items: Array<{ resource: string }> }).items.map((i) => i.resource);
    for (const url of [...Object.keys(HELD), ...dupUrls.slice(1)]) expect(urls).not.toContain(url);
  });

  it("is explained by listing_status, with the fix", async () => {
    for (const [url, reason] of Object.entries(HELD)) {
      const st = await status(url);
      expect(st.listings).toHaveLength(1);
      expect(st.listings[0]).toMatchObject({ endpoint_id: null, state: "held_back", reasons: [reason], next_steps: [LISTING_REASONS[reason].help] });
    }
    const delisted = await status(dupUrls[2]);
    expect(delisted.listings[0]).toMatchObject({ reasons: ["duplicate_listing"] });
    expect(["held_back", "delisted"]).toContain(delisted.listings[0].state);
  });

  it("waits in the operators' queue, by reason; a second run changes nothing", async () => {
    const q = await listHeldBack(t.db);
    expect(q.total).toBe(10);
    expect(Object.fromEntries(q.byReason.map((r) => [r.reason, r.items]))).toMatchObject({ duplicate_listing: 5, testnet_only: 1 });
    expect((await listHeldBack(t.db, { reason: "token_mint" })).items.map((i) => i.url)).toEqual(["https://api.zapcoin.io/buy"]);
    const again = await runImport(t.db, s.url, fast);
    expect(again).toMatchObject({ new: 0, delisted: 0, held_back: summary.held_back });
    const listed = await t.db.select().from(endpoints).where(eq(endpoints.status, "listed"));
    expect(listed.map((e) => e.url).filter((u) => dupUrls.slice(1).includes(u) || u in HELD)).toEqual([]);
  });

  it("delists a listed endpoint whose item turns into noise, and releases a group that shrinks", async () => {
    items = [v2Item("https://api.nimbus-weather.com/v1/current", { description: "Premium API Access" }), ...dupUrls.slice(0, 3).map(dup)];
    s.set({ item: (i) => items[i], total: items.length });
    const r = await runImport(t.db, s.url, fast);
    expect(r.held_back).toEqual({ boilerplate_description: 1 });
    expect(await endpointAt("https://api.nimbus-weather.com/v1/current")).toMatchObject({ status: "delisted" });
    const st = await status("https://api.nimbus-weather.com/v1/current");
    expect(st.listings[0]).toMatchObject({ state: "delisted", reasons: ["boilerplate_description"] });
    // Three identical listings are no longer "many": each is stored as any item again.
    for (const url of dupUrls.slice(0, 3)) expect((await itemAt(url)).state).not.toBe("held_back");
  });

  it("is listed anyway when an operator maps it", async () => {
    expect(await mapImportedUrl(t.db, "https://api.sandbox-weather.com/v1/current", "weather.current")).toEqual({ listed: 1, pending: 0 });
    expect(await endpointAt("https://api.sandbox-weather.com/v1/current")).toMatchObject({ capabilityId: "weather.current", status: "listed" });
    expect(await itemAt("https://api.sandbox-weather.com/v1/current")).toMatchObject({ state: "mapped", mappedBy: "operator" });
  });
});
