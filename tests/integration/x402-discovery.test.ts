// Capdex's x402 discovery API in-process: what is listed (payable, seen, not failing) and in which
// order, each filter, paging, search's order and its empty answers, bad parameters; and how many
// different callers reported on an endpoint (distinct_reporters_7d).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { PaymentRequirementsV2Schema } from "@x402/core/schemas";
import { queryRows } from "@/lib/db/client";
import { endpoints, type PaymentSeenValue } from "@/lib/db/schema";
import { flushDiscoveryLog, invalidateCandidates } from "@/lib/discovery";
import { recordOutcome, rollUpAll } from "@/lib/outcomes";
import { GET as listRoute } from "@/app/api/x402/discovery/resources/route";
import { GET as searchRoute } from "@/app/api/x402/discovery/search/route";
import { POST as discoverRoute } from "@/app/api/discover/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { addEndpoint, addProvider, anonymous, addAccount } from "./outcomes-fixtures";

let t: TestDb;
type Resource = { resource: string; accepts: Array<Record<string, unknown>>; extensions: { bazaar?: unknown; capdex: { endpoint_id: string; capability_id: string; score: number; observed: Record<string, number> } } };

const PAY_TO = "0x3333333333333333333333333333333333333333";
const seen = (over: Partial<PaymentSeenValue["accepts"][number]> = {}, network = "eip155:8453"): PaymentSeenValue => ({
  x402_version: 2,
  accepts: [{ scheme: "exact", network, amount: "1000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: PAY_TO, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" }, ...over }],
  resource: { mimeType: "application/json" },
  via: "probe",
});
const declaration = { info: { input: { type: "http", method: "GET", queryParams: { city: "Oslo" } } }, schema: { type: "object" } };

const ids: Record<string, string> = {};

beforeAll(async () => {
  process.env.DISCOVERY_CACHE_MS = "0";
  process.env.DISCOVERY_EXPLORATION_RATE = "0";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  const add = async (name: string, capabilityId: string, set: Partial<typeof endpoints.$inferInsert>, opts: { price?: number; checkState?: string } = {}) => {
    ids[name] = await addEndpoint(t.db, { capabilityId, price: opts.price ?? 0.001, checkState: opts.checkState ?? "verified" });
    if (Object.keys(set).length) await t.db.update(endpoints).set(set).where(eq(endpoints.id, ids[name]));
  };
  await add("weatherA", "weather.current", { paymentSeen: seen(), declaration, description: "Current weather by city" });
  await add("weatherB", "weather.current", { paymentSeen: seen({ payTo: "0x4444444444444444444444444444444444444444" }, "eip155:137"), network: "polygon" });
  await add("translate", "translate.text", { paymentSeen: seen({ scheme: "upto" }) });
  await add("free", "weather.current", { paymentSeen: seen() }, { price: 0 });
  await add("unseen", "weather.current", {});
  await add("failing", "weather.current", { paymentSeen: seen() }, { checkState: "failing" });
  await add("badAccepts", "weather.forecast", { paymentSeen: seen({ payTo: "" }) });
  await add("zeroTimeout", "weather.forecast", { paymentSeen: seen({ maxTimeoutSeconds: 0 }) });
});
afterAll(async () => {
  await flushDiscoveryLog(t.db);
  await t.close();
});

const list = async (qs = "") => {
  const res = await call(listRoute, `/api/x402/discovery/resources${qs}`);
  return res as unknown as { status: number; body: { x402Version: number; items: Resource[]; pagination: { limit: number; offset: number; total: number } } & Record<string, unknown> };
};
const search = async (qs: string) => {
  const res = await call(searchRoute, `/api/x402/discovery/search${qs}`);
  return res as unknown as { status: number; body: { resources: Resource[]; partialResults: boolean; pagination: { limit: number; cursor: string | null } } & Record<string, unknown> };
};
const idsOf = (items: Resource[]) => items.map((r) => r.extensions.capdex.endpoint_id);

describe("GET /api/x402/discovery/resources", () => {
  it("lists payable, seen, non-failing endpoints: capability, then rank", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.x402Version).toBe(2);
    expect(new Set(idsOf(res.body.items))).toEqual(new Set([ids.weatherA, ids.weatherB, ids.translate]));
    const caps = res.body.items.map((r) => r.extensions.capdex.capability_id);
    expect(caps).toEqual([...caps].sort());
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: 3, cursor: null });
    for (const r of res.body.items) for (const a of r.accepts) expect(PaymentRequirementsV2Schema.safeParse(a).success).toBe(true);
  });

  it("re-serves the bazaar declaration as declared, and Capdex's figures", async () => {
    const { body } = await list("?extensions=bazaar");
    expect(idsOf(body.items)).toEqual([ids.weatherA]);
    expect(body.items[0]).toMatchObject({
      resource: expect.stringContaining("https://"),
      type: "http",
      x402Version: 2,
      description: "Current weather by city",
      mimeType: "application/json",
      tags: expect.any(Array),
      extensions: { bazaar: declaration, capdex: { capability_id: "weather.current", verified: true, domain_verified: true, source: "submission", observed: { distinct_reporters_7d: 0 } } },
    });
  });

  it("filters by network (CAIP-2 or name), scheme, payTo and type", async () => {
    expect(idsOf((await list("?network=eip155:137")).body.items)).toEqual([ids.weatherB]);
    expect(idsOf((await list("?network=polygon")).body.items)).toEqual([ids.weatherB]);
    expect(idsOf((await list("?scheme=upto")).body.items)).toEqual([ids.translate]);
    expect(idsOf((await list(`?payTo=${PAY_TO.toUpperCase().replace("0X", "0x")}`)).body.items).sort()).toEqual([ids.weatherA, ids.translate].sort());
    expect((await list("?type=mcp")).body.pagination.total).toBe(0);
    expect((await list("?type=http")).body.pagination.total).toBe(3);
    expect((await list("?network=eip155:999999")).body.items).toEqual([]);
  });

  it("pages with limit and offset; past the end, an empty page", async () => {
    const a = await list("?limit=2");
    const b = await list("?limit=2&offset=2");
    expect([...idsOf(a.body.items), ...idsOf(b.body.items)]).toEqual(idsOf((await list()).body.items));
    expect((await list("?offset=50")).body).toMatchObject({ items: [], pagination: { offset: 50, total: 3 } });
  });

  it("pages with the cursor it hands out (keyset), unmoved by an item that goes between pages", async () => {
    type Paged = { pagination: { offset: number; total: number; cursor?: string | null } };
    const all = idsOf((await list()).body.items);
    const a = await list("?limit=1");
    const cursor = (a.body as unknown as Paged).pagination.cursor;
    expect(cursor).toEqual(expect.any(String));
    const b = await list(`?limit=1&cursor=${cursor}`);
    expect(idsOf(b.body.items)).toEqual([all[1]]);
    const c = await list(`?limit=5&cursor=${(b.body as unknown as Paged).pagination.cursor}`);
    expect(idsOf(c.body.items)).toEqual(all.slice(2));
    expect((c.body as unknown as Paged).pagination.cursor).toBeNull();
    // The first page's item goes: an offset would now skip one item, the cursor does not.
    await t.db.update(endpoints).set({ checkState: "failing" }).where(eq(endpoints.id, all[0]));
    invalidateCandidates(t.db);
    try {
      expect(idsOf((await list(`?limit=5&cursor=${cursor}`)).body.items)).toEqual(all.slice(1));
      expect(idsOf((await list("?limit=5&offset=1")).body.items)).toEqual(all.slice(2));
    } finally {
      await t.db.update(endpoints).set({ checkState: "verified" }).where(eq(endpoints.id, all[0]));
      invalidateCandidates(t.db);
    }
    // A cursor of an item that is gone resumes at the next capability.
    const gone = (cap: string) => Buffer.from(JSON.stringify(["k", cap, "00000000-0000-4000-8000-000000000000"])).toString("base64url");
    expect(all.map((id) => id === ids.translate)).toEqual([true, false, false]);
    expect(idsOf((await list(`?cursor=${gone("translate.text")}`)).body.items)).toEqual(all.slice(1));
    expect(idsOf((await list(`?cursor=${gone("weather.current")}`)).body.items)).toEqual([]);
  });

  it("refuses bad parameters with 422 problem+json", async () => {
    for (const qs of ["?limit=0", "?limit=101", "?offset=-1", "?network=narnia", "?scheme=a%20b", "?cursor=bm90LWEtY3Vyc29y"]) {
      const res = await list(qs);
      expect(res.status, qs).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});

describe("GET /api/x402/discovery/search", () => {
  it("puts the resolved capability's endpoints first, in rank order", async () => {
    const { status, body } = await search(`?query=${encodeURIComponent("current weather in Oslo")}`);
    expect(status).toBe(200);
    expect(body.resources.slice(0, 2).map((r) => r.extensions.capdex.capability_id)).toEqual(["weather.current", "weather.current"]);
    const scores = body.resources.slice(0, 2).map((r) => r.extensions.capdex.score);
    expect(scores[0]).toBeGreaterThanOrEqual(scores[1]);
    expect(body.partialResults).toBe(false);
  });

  it("answers an empty list, not an error, for a query that matches nothing", async () => {
    const { status, body } = await search(`?query=${encodeURIComponent("xqzv plorf blarg")}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ x402Version: 2, resources: [], pagination: { cursor: null } });
  });

  it("finds plain-text matches when no capability is read from the query", async () => {
    const { body } = await search(`?query=${encodeURIComponent("by city")}`);
    expect(idsOf(body.resources)).toEqual([ids.weatherA]);
  });

  it("pages with the cursor it hands out, and applies the filters", async () => {
    const first = await search(`?query=weather&limit=1`);
    expect(first.body.resources).toHaveLength(1);
    expect(first.body.pagination.cursor).toEqual(expect.any(String));
    const second = await search(`?query=weather&limit=1&cursor=${first.body.pagination.cursor}`);
    expect(idsOf(second.body.resources)).not.toEqual(idsOf(first.body.resources));
    expect(idsOf((await search("?query=weather&network=polygon")).body.resources)).toEqual([ids.weatherB]);
    expect((await search("?query=weather&cursor=nonsense")).status).toBe(422);
    expect((await search("")).status).toBe(422);
    expect((await search(`?query=${"a".repeat(401)}`)).status).toBe(422);
  });
});

describe("distinct_reporters_7d", () => {
  it("counts different callers, not probes and not the provider's own reports", async () => {
    const owner = await addAccount(t.db, 1);
    const providerId = await addProvider(t.db, { userId: owner.userId });
    const id = await addEndpoint(t.db, { providerId });
    await t.db.update(endpoints).set({ paymentSeen: seen() }).where(eq(endpoints.id, id));
    for (const ip of ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.3"]) await recordOutcome(t.db, { endpoint_id: id, success: true }, anonymous(ip));
    const caller = await addAccount(t.db, 2);
    await recordOutcome(t.db, { endpoint_id: id, success: true }, caller);
    await recordOutcome(t.db, { endpoint_id: id, success: false }, owner);
    await queryRows(t.db, sql`insert into outcome_reports (endpoint_id, success, reporter_kind, reporter_key, weight) values (${id}::uuid, true, 'probe', 'probe', 3)`);
    await rollUpAll(t.db);
    invalidateCandidates(t.db);

    const res = await call(discoverRoute, "/api/discover", { method: "POST", json: { capability_id: "weather.current", preferences: { limit: 20 } } });
    const e = (res.body.ranked_endpoints as Array<{ endpoint_id: string; observed: Record<string, number> }>).find((x) => x.endpoint_id === id)!;
    expect(e.observed.distinct_reporters_7d).toBe(4);
    expect(e.observed.sample_size_7d).toBeGreaterThan(4);
    const listed = (await list("?limit=100")).body.items.find((r) => r.extensions.capdex.endpoint_id === id)!;
    expect(listed.extensions.capdex.observed.distinct_reporters_7d).toBe(4);
  });
});
