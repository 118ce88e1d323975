// POST /api/submit and GET /api/submit/{id}: what is accepted, what is refused (and that a refusal
// stores nothing), and what a caller sees.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { queryRows } from "@/lib/db/client";
import { endpoints, providers } from "@/lib/db/schema";
import { submissionSchema, submitResponseSchema } from "@/lib/schemas/submit";
import * as submit from "@/app/api/submit/route";
import * as one from "@/app/api/submit/[id]/route";

let t: TestDb;
let ip = 0;
// a fresh client address per request keeps the anonymous submit limit (10 an hour) out of the way
const post = (json: unknown, init: RequestInit = {}) =>
  call(submit.POST, "/api/submit", { method: "POST", json, headers: { "x-forwarded-for": `198.51.100.${++ip % 250}` }, ...init });

const valid = {
  endpoint_url: "https://api.acme-weather.com/v1/current",
  capability_id: "weather.current",
  contact_email: "ops@acme-weather.com",
  provider_name: "Acme Weather",
  price_per_call: 0.002,
};

async function counts() {
  const [row] = await queryRows<Record<string, number>>(
    t.db,
    sql`select (select count(*)::int from submissions) as submissions, (select count(*)::int from endpoints) as endpoints,
               (select count(*)::int from providers) as providers, (select count(*)::int from verified_domains) as domains`,
  );
  return row;
}

beforeAll(async () => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => t?.close());

describe("POST /api/submit", () => {
  it("answers 202 with the TXT record to publish, expiring in 7 days", async () => {
    const res = await post({ ...valid, method: "POST", network: "eip155:8453", description: "Current conditions" });
    expect(res.status).toBe(202);
    expect(submitResponseSchema.safeParse(res.body).success).toBe(true);
    const body = res.body as ReturnType<typeof submitResponseSchema.parse> & Record<string, unknown>;
    expect(body.status).toBe("pending_verification");
    expect(body.domain).toBe("api.acme-weather.com");
    expect(body.verification).toMatchObject({
      method: "dns_txt",
      record_type: "TXT",
      record_name: "_capdex-challenge.api.acme-weather.com",
      alternative_record_name: "_capdex-challenge.acme-weather.com",
    });
    const token = body.verification.record_value.replace(/^capdex-verification=/, "");
    expect(Buffer.from(token, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(body.links).toEqual({ self: `/api/submit/${body.submission_id}`, verify: `/api/submit/${body.submission_id}/verify` });
    expect(body).toMatchObject({ method: "POST", network: "base", endpoint_id: null });
    expect(Date.parse(body.verification.expires_at) - Date.parse(body.created_at as string)).toBe(7 * 86_400_000);
    expect(JSON.stringify(body)).not.toContain("ops@acme-weather.com");
  });

  it("takes several payment networks, `network` first (by default the first of them)", async () => {
    const several = await post({ ...valid, endpoint_url: "https://api.acme-weather.com/v1/multi", networks: ["polygon", "eip155:8453", "polygon"] });
    expect(several.status).toBe(202);
    expect(several.body).toMatchObject({ network: "polygon", networks: ["polygon", "base"] });
    const both = await post({ ...valid, endpoint_url: "https://api.acme-weather.com/v1/both", network: "base", networks: ["solana"] });
    expect(both.body).toMatchObject({ network: "base", networks: ["base", "solana"] });
    const bad = await post({ ...valid, endpoint_url: "https://api.acme-weather.com/v1/bad", networks: ["dogechain"] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: "#/networks/0" })]);
  });

  it("gives each submission its own token", async () => {
    const a = await post({ ...valid, endpoint_url: "https://api.acme-weather.com/v1/tokens" });
    const b = await post({ ...valid, endpoint_url: "https://api.acme-weather.com/v1/tokens", contact_email: "someone-else@acme-weather.com" });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect((a.body.verification as { record_value: string }).record_value).not.toBe((b.body.verification as { record_value: string }).record_value);
  });

  it("returns the pending submission (200, same id and record) when the same contact submits the same URL and capability again", async () => {
    const body = { ...valid, endpoint_url: "https://api.acme-weather.com/v1/again" };
    const first = await post(body);
    expect(first.status).toBe(202);
    expect(first.body.resubmitted).toBeUndefined();
    const before = await counts();
    const again = await post({ ...body, contact_email: "OPS@acme-weather.com", price_per_call: 0.003, provider_name: "Acme Weather Ltd" });
    expect(again.status).toBe(200);
    expect(submitResponseSchema.safeParse(again.body).success).toBe(true);
    expect(again.body).toMatchObject({ submission_id: first.body.submission_id, resubmitted: true, price_per_call: 0.003, provider_name: "Acme Weather Ltd" });
    expect(again.body.verification).toEqual(first.body.verification);
    expect(await counts()).toEqual(before);
    // Another capability, or another contact, is a submission of its own.
    const other = await post({ ...body, capability_id: "weather.forecast" });
    expect(other.status).toBe(202);
    expect(other.body.submission_id).not.toBe(first.body.submission_id);
    const stranger = await post({ ...body, contact_email: "mallory@example.org" });
    expect(stranger.status).toBe(202);
    expect(stranger.body.submission_id).not.toBe(first.body.submission_id);
    // Once it is no longer pending, submitting again starts afresh.
    await t.db.execute(sql`update submissions set status = 'expired' where id = ${first.body.submission_id as string}::uuid`);
    const fresh = await post(body);
    expect(fresh.status).toBe(202);
    expect(fresh.body.submission_id).not.toBe(first.body.submission_id);
  });

  const bad: Array<[string, Record<string, unknown>, number, string, string]> = [
    ["an http:// URL", { endpoint_url: "http://api.acme-weather.com/x" }, 422, "validation_failed", "#/endpoint_url"],
    ["an ftp: URL", { endpoint_url: "ftp://api.acme-weather.com/x" }, 422, "validation_failed", "#/endpoint_url"],
    ["a javascript: URL", { endpoint_url: "javascript:alert(1)" }, 422, "validation_failed", "#/endpoint_url"],
    ["the metadata address", { endpoint_url: "https://169.254.169.254/" }, 422, "validation_failed", "#/endpoint_url"],
    ["an IPv6 literal", { endpoint_url: "https://[::1]/" }, 422, "validation_failed", "#/endpoint_url"],
    ["a decimal IPv4", { endpoint_url: "https://2130706433/" }, 422, "validation_failed", "#/endpoint_url"],
    ["a hex short IPv4", { endpoint_url: "https://0x7f.1/" }, 422, "validation_failed", "#/endpoint_url"],
    ["userinfo", { endpoint_url: "https://user:pw@host/" }, 422, "validation_failed", "#/endpoint_url"],
    ["localhost", { endpoint_url: "https://localhost/" }, 422, "validation_failed", "#/endpoint_url"],
    ["a bare public suffix", { endpoint_url: "https://co.uk/" }, 422, "validation_failed", "#/endpoint_url"],
    ["a 3,000-character URL", { endpoint_url: `https://api.acme-weather.com/${"a".repeat(2970)}` }, 422, "validation_failed", "#/endpoint_url"],
    ["an unknown capability", { capability_id: "weather.tomorrow" }, 404, "capability_not_found", "#/capability_id"],
    ["a malformed capability id", { capability_id: "Weather Now" }, 422, "validation_failed", "#/capability_id"],
    ["a negative price", { price_per_call: -1 }, 422, "validation_failed", "#/price_per_call"],
    ["a price in words", { price_per_call: "free" }, 422, "validation_failed", "#/price_per_call"],
    ["an e-mail without @", { contact_email: "ops.acme-weather.com" }, 422, "validation_failed", "#/contact_email"],
    ["an empty provider name", { provider_name: "  " }, 422, "validation_failed", "#/provider_name"],
    ["an unknown method", { method: "FETCH" }, 422, "validation_failed", "#/method"],
    ["an unknown network", { network: "dogechain" }, 422, "validation_failed", "#/network"],
    ["verified", { verified: true }, 422, "unknown_field", "#/verified"],
    ["endpoint_id", { endpoint_id: "0b5c3c53-5a2e-4c3c-9d6f-1f6d3f7b2a10" }, 422, "unknown_field", "#/endpoint_id"],
    ["score", { score: 1 }, 422, "unknown_field", "#/score"],
  ];

  it.each(bad)("refuses %s with a pointer, storing nothing", async (_what, change, status, code, pointer) => {
    const before = await counts();
    const res = await post({ ...valid, ...change });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe(code);
    expect(res.body.status).toBe(status);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
    expect(await counts()).toEqual(before);
  });

  it("suggests the closest capabilities for an unknown one", async () => {
    const res = await post({ ...valid, capability_id: "weather.currnt" });
    expect(res.status).toBe(404);
    expect(res.body.suggestions).toContain("weather.current");
  });

  it("refuses a missing field, a body that is not JSON and a wrong content type", async () => {
    const before = await counts();
    const { contact_email: _omit, ...noEmail } = valid;
    const missing = await post(noEmail);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: "#/contact_email" })]);
    const notJson = await post(undefined, { body: "{nope", headers: { "content-type": "application/json" } });
    expect(notJson.body.code).toBe("invalid_json");
    const text = await post(undefined, { body: "x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await counts()).toEqual(before);
  });

  it("answers 409 already_listed for a URL already listed for the capability, in any spelling", async () => {
    const [p] = await t.db.insert(providers).values({ name: "Listed Co", contactEmail: "a@listed-co.com" }).returning();
    const [e] = await t.db
      .insert(endpoints)
      .values({ capabilityId: "weather.current", providerId: p.id, url: "https://api.listed-co.com/now", host: "api.listed-co.com", domain: "listed-co.com", pricePerCall: 0 })
      .returning();
    const before = await counts();
    const res = await post({ ...valid, endpoint_url: "https://API.Listed-Co.com.:443/now#x" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "already_listed", endpoint_id: e.id });
    expect(await counts()).toEqual(before);
    // the same URL for another capability is a new listing
    expect((await post({ ...valid, endpoint_url: "https://api.listed-co.com/now", capability_id: "weather.forecast" })).status).toBe(202);
  });

  it("refuses other methods with 405", async () => {
    const res = await call(submit.GET, "/api/submit");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("GET /api/submit/{id}", () => {
  it("shows the state and the record, never the contact e-mail", async () => {
    const created = await post({ ...valid, contact_email: "secret-person@acme-weather.com" });
    const id = created.body.submission_id as string;
    const res = await call(one.GET, `/api/submit/${id}`, { params: { id } });
    expect(res.status).toBe(200);
    expect(submissionSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({
      submission_id: id,
      status: "pending_verification",
      domain: "api.acme-weather.com",
      endpoint_url: "https://api.acme-weather.com/v1/current",
      capability_id: "weather.current",
      endpoint_id: null,
      checked_at: null,
      last_check: null,
    });
    expect(res.body.verification).toEqual(created.body.verification);
    expect(JSON.stringify(res.body)).not.toContain("secret-person");
  });

  it("answers 404 submission_not_found for an unknown id and 422 for a malformed one", async () => {
    const id = "7d1c5a3e-1b0a-4c47-9a55-3f7e0d2b9c11";
    const missing = await call(one.GET, `/api/submit/${id}`, { params: { id } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("submission_not_found");
    const malformed = await call(one.GET, "/api/submit/abc", { params: { id: "abc" } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual([expect.objectContaining({ pointer: "#/id" })]);
  });
});
