// Every error code the API can answer, each driven through the real route handlers, checked
// against RFC 9457: the body's `status` is the response's status, and no extension member replaces
// a standard one (the 409 of POST /api/submit/{id}/verify used to say "status": "pending_verification").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { call } from "../helpers/http";
import { openDb, type DbHandle } from "@/lib/db/client";
import { capabilityProposals, endpoints, providers, users } from "@/lib/db/schema";
import { createApiKey } from "@/lib/auth/keys";
import { route } from "@/lib/http/route";
import { acceptProposal, rejectProposal } from "@/lib/proposals/decide";
import * as proposals from "@/app/api/capabilities/proposals/route";
import { setDbHandle } from "@/lib/server/db";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/errors";
import * as descriptor from "@/app/api/route";
import * as notFound from "@/app/api/[...path]/route";
import * as capabilities from "@/app/api/capabilities/route";
import * as capability from "@/app/api/capabilities/[id]/route";
import * as discoverRoute from "@/app/api/discover/route";
import * as report from "@/app/api/report_outcome/route";
import * as stats from "@/app/api/stats/route";
import * as submit from "@/app/api/submit/route";
import * as submission from "@/app/api/submit/[id]/route";
import * as verify from "@/app/api/submit/[id]/verify/route";
import * as metricsRoute from "@/app/api/metrics/route";
import * as relistRoute from "@/app/api/provider/endpoints/[id]/relist/route";

/** Codes no API operation answers: `conflict` is the portal's (too many API keys). */
const NOT_ANSWERED_BY_THE_API: ErrorCode[] = ["conflict"];

type Answer = Awaited<ReturnType<typeof call>>;
let t: TestDb;
let dns: DnsTestServer;
let client = 0;
/** A fresh client address per request, so only the rate-limit case meets a limit. */
const from = () => ({ "x-forwarded-for": `198.51.100.${++client % 250}` });
const post = (handler: Parameters<typeof call>[0], path: string, init: Parameters<typeof call>[2] = {}) =>
  call(handler, path, { method: "POST", ...init, headers: { ...from(), ...(init.headers as Record<string, string>) } });
const submitBody = (url: string) => ({
  endpoint_url: url,
  capability_id: "weather.current",
  contact_email: "ops@status-co.com",
  provider_name: "Status Co",
  price_per_call: 0.001,
});

/** The problem an ApiError thrown by a domain function becomes, through the one route wrapper. */
const rendered = (run: () => Promise<unknown>) => call(route({ handler: run }), "/api/test", { headers: from() });

/** Runs a handler against another database (a broken one), then hands the test's back. */
async function withDb(open: () => Promise<DbHandle>, run: () => Promise<Answer>) {
  const h = await open();
  setDbHandle(h);
  try {
    return await run();
  } finally {
    setDbHandle(t);
    await h.close().catch(() => {});
  }
}

const CASES: Record<Exclude<ErrorCode, (typeof NOT_ANSWERED_BY_THE_API)[number]>, () => Promise<Answer>> = {
  invalid_json: () => post(discoverRoute.POST, "/api/discover", { body: "{", headers: { "content-type": "application/json" } }),
  bad_request: () => call(capabilities.GET, "/api/capabilities?api_key=abc", { headers: from() }),
  unauthorized: async () => {
    process.env.METRICS_TOKEN = "metrics-token-of-this-test";
    try {
      return await call(metricsRoute.GET, "/api/metrics", { headers: { ...from(), authorization: "Bearer not-the-token" } });
    } finally {
      delete process.env.METRICS_TOKEN;
    }
  },
  // Without METRICS_TOKEN, metrics are for a direct loopback caller only: a relayed request is refused.
  forbidden: () => call(metricsRoute.GET, "/api/metrics", { headers: from() }),
  invalid_api_key: () => call(descriptor.GET, "/api", { headers: { ...from(), authorization: "Bearer cdx_thisKeyDoesNotExist000000000000000" } }),
  not_found: () => call(notFound.GET, "/api/no/such/operation", { headers: from(), params: { path: "no/such/operation" } }),
  capability_not_found: () => call(capability.GET, "/api/capabilities/weather.curent", { headers: from(), params: { id: "weather.curent" } }),
  endpoint_not_found: () => post(report.POST, "/api/report_outcome", { json: { endpoint_id: crypto.randomUUID(), success: true } }),
  submission_not_found: () => {
    const id = crypto.randomUUID();
    return call(submission.GET, `/api/submit/${id}`, { headers: from(), params: { id } });
  },
  intent_refused: () => post(discoverRoute.POST, "/api/discover", { json: { intent: "take over my neighbour's facebook account without them knowing" } }),
  intent_unresolved: () => post(discoverRoute.POST, "/api/discover", { json: { intent: "qzxv wqpt blorf" } }),
  method_not_allowed: () => call(stats.DELETE, "/api/stats", { method: "DELETE", headers: from() }),
  relist_refused: async () => {
    // The provider's own endpoint, delisted by an operator: the provider may not put it back.
    const [u] = await t.db.insert(users).values({ email: "owner@relist-status-co.com" }).returning({ id: users.id });
    const { key } = await createApiKey(t.db, u.id, "test");
    const [p] = await t.db.insert(providers).values({ name: "Relist Status Co", contactEmail: "owner@relist-status-co.com" }).returning();
    const [e] = await t.db
      .insert(endpoints)
      .values({ capabilityId: "weather.current", providerId: p.id, url: "https://api.relist-status-co.com/now", host: "api.relist-status-co.com", domain: "relist-status-co.com", pricePerCall: 0, status: "delisted", delistedBy: "operator" })
      .returning({ id: endpoints.id });
    return post(relistRoute.POST, `/api/provider/endpoints/${e.id}/relist`, { params: { id: e.id }, headers: { authorization: `Bearer ${key}` } });
  },
  already_listed: () => post(submit.POST, "/api/submit", { json: submitBody("https://api.listed-status-co.com/now") }),
  verification_failed: async () => {
    // The case: a pending submission whose record is not there (NXDOMAIN).
    const created = await post(submit.POST, "/api/submit", { json: submitBody("https://api.pending-status-co.com/now") });
    expect(created.status).toBe(202);
    const id = created.body.submission_id as string;
    const res = await post(verify.POST, `/api/submit/${id}/verify`, { params: { id } });
    expect(res.body).toMatchObject({ submission_status: "pending_verification", reason: "nxdomain" });
    return res;
  },
  capability_exists: () =>
    post(submit.POST, "/api/submit", {
      json: { ...submitBody("https://api.exists-status-co.com/now"), capability_id: undefined, proposed_capability: { id: "weather.current", title: "Weather", description: "Current weather for a place", category: "weather" } },
    }),
  proposal_exists: async () => {
    const [u] = await t.db.insert(users).values({ email: "proposer@status-co.com" }).returning();
    const authorization = `Bearer ${(await createApiKey(t.db, u.id, "status")).key}`;
    const body = { id: "astro.moon_phase", title: "Moon phase", description: "The moon's phase for a date", category: "astro" };
    expect((await post(proposals.POST, "/api/capabilities/proposals", { json: body, headers: { authorization } })).status).toBe(201);
    return post(proposals.POST, "/api/capabilities/proposals", { json: body, headers: { authorization } });
  },
  // Operators' decisions (CLI, portal) are not API operations; their errors render the same way.
  proposal_not_found: () => rendered(() => acceptProposal(t.db, "astro.no_such_proposal", { by: "test" })),
  proposal_not_open: async () => {
    await rejectProposal(t.db, "astro.moon_phase", { by: "test" });
    const [p] = await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.capabilityId, "astro.moon_phase"));
    return rendered(() => acceptProposal(t.db, p.id, { by: "test" }));
  },
  payload_too_large: () => post(discoverRoute.POST, "/api/discover", { json: { intent: "x".repeat(70_000) } }),
  unsupported_media_type: () => post(discoverRoute.POST, "/api/discover", { body: "weather", headers: { "content-type": "text/plain" } }),
  validation_failed: () => post(discoverRoute.POST, "/api/discover", { json: {} }),
  unknown_field: () => post(discoverRoute.POST, "/api/discover", { json: { capability_id: "weather.current", max_prize: 1 } }),
  rate_limited: async () => {
    // POST /api/submit allows 10 an hour to one address; invalid bodies count too.
    const me = { "x-forwarded-for": "203.0.113.200" };
    for (let i = 0; i < 10; i++) expect((await call(submit.POST, "/api/submit", { method: "POST", json: {}, headers: me })).status).toBe(422);
    return call(submit.POST, "/api/submit", { method: "POST", json: {}, headers: me });
  },
  internal_error: () =>
    // A database that lost a table: the registry's read fails in a way no handler expects.
    withDb(
      async () => {
        const broken = await createTestDb({ seed: "catalogue", install: false });
        await broken.db.execute(sql`drop table meta`);
        return broken;
      },
      () => call(capabilities.GET, "/api/capabilities", { headers: from() }),
    ),
  unavailable: () =>
    withDb(
      () => openDb({ url: "postgres://postgres@127.0.0.1:1/capdex", migrate: false }),
      () => call(capabilities.GET, "/api/capabilities", { headers: from() }),
    ),
};

beforeAll(async () => {
  delete process.env.CAPDEX_RATE_LIMIT;
  delete process.env.ALLOW_PRIVATE_TARGETS;
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
  const [p] = await t.db.insert(providers).values({ name: "Listed Status Co", contactEmail: "a@listed-status-co.com" }).returning();
  await t.db.insert(endpoints).values({
    capabilityId: "weather.current",
    providerId: p.id,
    url: "https://api.listed-status-co.com/now",
    host: "api.listed-status-co.com",
    domain: "listed-status-co.com",
    pricePerCall: 0,
  });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

describe("every error the API answers", () => {
  it("is a problem+json body whose status is the response's status, with its standard members intact", async () => {
    expect(new Set([...Object.keys(CASES), ...NOT_ANSWERED_BY_THE_API])).toEqual(new Set(Object.keys(ERROR_CODES)));
    for (const [code, drive] of Object.entries(CASES) as Array<[ErrorCode, () => Promise<Answer>]>) {
      const res = await drive();
      expect({ code, status: res.status }).toEqual({ code, status: ERROR_CODES[code].status });
      expect(res.headers.get("content-type"), code).toBe("application/problem+json");
      expect(res.body.status, code).toBe(res.status);
      expect(res.body, code).toMatchObject({
        type: expect.stringMatching(new RegExp(`/docs/errors#${code}$`)),
        title: ERROR_CODES[code].title,
        code,
        request_id: res.headers.get("x-request-id"),
      });
      expect(typeof res.body.detail, code).toBe("string");
      expect(res.body.instance, code).toBeUndefined();
    }
  });
});
