// Provider self-service through the API with the account's key: list, edit (re-probed at once against
// a real x402 server on loopback), delist and relist, and the problems a provider can meet.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/keys";
import { endpoints, users } from "@/lib/db/schema";
import { flushDiscoveryLog } from "@/lib/discovery/log";
import { approveSubmission, rejectSubmission } from "@/lib/submissions/operator";
import * as submit from "@/app/api/submit/route";
import * as discover from "@/app/api/discover/route";
import * as list from "@/app/api/provider/endpoints/route";
import * as one from "@/app/api/provider/endpoints/[id]/route";
import * as delist from "@/app/api/provider/endpoints/[id]/delist/route";
import * as relist from "@/app/api/provider/endpoints/[id]/relist/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let t: TestDb;
let hono: HonoX402Server;
let ownerKey: string;
let otherKey: string;
let endpointId: string;
let secondId: string;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function listed(path: string, email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call(submit.POST, "/api/submit", {
    method: "POST",
    json: { endpoint_url: hono.url(path), capability_id: "weather.current", contact_email: email, provider_name: "Owner Co", price_per_call: 0.01, ...extra },
  });
  expect(res.status).toBe(202);
  const approved = await approveSubmission(t.db, res.body.submission_id as string);
  expect(approved.ok).toBe(true);
  const [e] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.url, hono.url(path)));
  return e.id;
}

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  hono = await startHonoX402Server([
    { method: "GET", path: "/weather", price: "$0.01" },
    { method: "POST", path: "/weather-post", price: "$0.01" },
  ]);
  const [owner, other] = await t.db
    .insert(users)
    .values([{ email: "Owner@Example.test", emailVerified: new Date() }, { email: "other@example.test", emailVerified: new Date() }])
    .returning({ id: users.id });
  ownerKey = (await createApiKey(t.db, owner.id, "test")).key;
  otherKey = (await createApiKey(t.db, other.id, "test")).key;
  // submitted anonymously with the owner's e-mail (any case): the signed-in account of that e-mail owns it
  endpointId = await listed("/weather", "owner@example.test");
  secondId = await listed("/weather-post", "owner@example.test", { method: "POST" });
});
afterAll(async () => {
  await hono.close();
  await t.close();
});

describe("GET /api/provider/endpoints", () => {
  it("needs an API key", async () => {
    const res = await call(list.GET, "/api/provider/endpoints");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });

  it("lists the account's endpoints with impressions, rank, reports and checks", async () => {
    await call(discover.POST, "/api/discover", { method: "POST", json: { capability_id: "weather.current", preferences: { limit: 10 } } });
    await flushDiscoveryLog(t.db);
    const res = await call(list.GET, "/api/provider/endpoints", { headers: auth(ownerKey) });
    expect(res.status).toBe(200);
    const mine = res.body.endpoints as Array<Record<string, unknown>>;
    expect(mine.map((e) => e.endpoint_id).sort()).toEqual([endpointId, secondId].sort());
    const e = mine.find((x) => x.endpoint_id === endpointId)!;
    expect(e).toMatchObject({ status: "listed", check_state: "verified", price_per_call: 0.01, networks: ["base"], failing_checks_7d: 0 });
    expect(e.impressions_24h).toBe(1);
    expect(e.average_position_24h).toBeGreaterThanOrEqual(1);
    expect((e.rank as { position: number }).position).toBeGreaterThanOrEqual(1);
    expect(e.reports_7d).toEqual({ reports: 0, failures: 0, distinct_reporters: 0 });
  });

  it("shows another account none of them", async () => {
    const res = await call(list.GET, "/api/provider/endpoints", { headers: auth(otherKey) });
    expect(res.status).toBe(200);
    expect(res.body.endpoints).toEqual([]);
  });
});

describe("PATCH /api/provider/endpoints/{id}", () => {
  const patch = (id: string, json: unknown, key = ownerKey) => call(one.PATCH, `/api/provider/endpoints/${id}`, { method: "PATCH", json, params: { id }, headers: auth(key) });

  it("refuses someone else's endpoint as unknown (404 endpoint_not_found)", async () => {
    const res = await patch(endpointId, { price_per_call: 0.02 }, otherKey);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("endpoint_not_found");
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.id, endpointId));
    expect(e.pricePerCall).toBe(0.01);
  });

  it("refuses bad fields with 422 and the pointer, and changes nothing", async () => {
    const bad = await patch(endpointId, { price_per_call: -1 });
    expect(bad).toMatchObject({ status: 422, body: { code: "validation_failed", errors: [{ pointer: "#/price_per_call" }] } });
    const net = await patch(endpointId, { networks: ["nowhere-chain"] });
    expect(net).toMatchObject({ status: 422, body: { code: "validation_failed", errors: [{ pointer: "#/networks/0" }] } });
    const unknown = await patch(endpointId, { verified: true });
    expect(unknown).toMatchObject({ status: 422, body: { code: "unknown_field" } });
    const empty = await patch(endpointId, {});
    expect(empty.status).toBe(422);
    const body = await patch(endpointId, { call: { input: { kind: "body", example: { city: "Oslo" } } } });
    expect(body).toMatchObject({ status: 422, body: { code: "validation_failed", errors: [{ pointer: "#/call" }] } });
    const notUuid = await patch("nope", { price_per_call: 0.02 });
    expect(notUuid.status).toBe(422);
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.id, endpointId));
    expect(e.checkState).toBe("verified");
  });

  it("applies a change, makes it unverified and probes it again at once", async () => {
    // below what the server asks (0.01): the probe right after the change fails on the price
    const cheaper = await patch(endpointId, { price_per_call: 0.005, networks: ["base", "polygon"] });
    expect(cheaper.status).toBe(200);
    expect(cheaper.body).toMatchObject({ price_per_call: 0.005, network: "base", networks: ["base", "polygon"], check_state: "unverified" });
    expect(cheaper.body.last_check).toMatchObject({ ok: false, reason: "price_above_listing" });
    // back to the real price: verified by the probe of this request
    const fixed = await patch(endpointId, { price_per_call: 0.01 });
    expect(fixed.body).toMatchObject({ price_per_call: 0.01, check_state: "verified", last_check: { ok: true, reason: "ok" } });
  });

  it("stores a call built by the provider, with the method", async () => {
    const res = await patch(endpointId, {
      call: { input: { kind: "query", example: { city: "Oslo" }, schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({ source: "submitted", method: "GET", input: { kind: "query", example: { city: "Oslo" } } });
    // a method that contradicts the call on record is refused at #/method
    const post = await patch(endpointId, { method: "POST" });
    expect(post).toMatchObject({ status: 422, body: { errors: [{ pointer: "#/method" }] } });
    // both at once are fine
    const both = await patch(secondId, { method: "PUT", call: { input: { kind: "body", example: { city: "Oslo" } } } });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ method: "PUT", call: { method: "PUT", input: { kind: "body" } } });
  });
});

describe("delist and relist", () => {
  const post = (handler: typeof delist.POST, id: string, what: string, key = ownerKey) =>
    call(handler, `/api/provider/endpoints/${id}/${what}`, { method: "POST", params: { id }, headers: auth(key) });
  const ranked = async () => {
    const res = await call(discover.POST, "/api/discover", { method: "POST", json: { capability_id: "weather.current", preferences: { limit: 20 } } });
    return (res.body.ranked_endpoints as Array<{ endpoint_id: string }>).map((e) => e.endpoint_id);
  };

  it("takes the endpoint out of discover at once, and puts it back after a passing probe", async () => {
    expect(await ranked()).toContain(endpointId);
    expect((await post(delist.POST, endpointId, "delist", otherKey)).status).toBe(404);
    const out = await post(delist.POST, endpointId, "delist");
    expect(out.body).toMatchObject({ status: "delisted", delisted_by: "provider", rank: { position: null } });
    expect(await ranked()).not.toContain(endpointId);
    // idempotent
    expect((await post(delist.POST, endpointId, "delist")).body.status).toBe("delisted");
    const back = await post(relist.POST, endpointId, "relist");
    expect(back.body).toMatchObject({ status: "listed", delisted_by: null, check_state: "verified" });
    expect(await ranked()).toContain(endpointId);
  });

  it("never relists what an operator took out (409 relist_refused)", async () => {
    const [e] = await t.db.select({ submissionId: endpoints.submissionId }).from(endpoints).where(eq(endpoints.id, secondId));
    await post(delist.POST, secondId, "delist");
    const rejected = await rejectSubmission(t.db, e.submissionId!, "spam");
    expect(rejected.ok).toBe(true);
    const res = await post(relist.POST, secondId, "relist");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "relist_refused", delisted_by: "operator" });
    const [after] = await t.db.select({ status: endpoints.status }).from(endpoints).where(eq(endpoints.id, secondId));
    expect(after.status).toBe("delisted");
  });
});
