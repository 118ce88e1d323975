// POST /api/submit/{id}/verify against a real DNS server on a loopback port: where the record may
// sit, how it is read, every way it can be missing, and what a successful check lists.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { call } from "../helpers/http";
import { createApiKey } from "@/lib/auth/keys";
import { endpoints, providers, submissions, users, verifiedDomains } from "@/lib/db/schema";
import * as submit from "@/app/api/submit/route";
import * as one from "@/app/api/submit/[id]/route";
import * as verify from "@/app/api/submit/[id]/verify/route";
import * as capability from "@/app/api/capabilities/[id]/route";
import * as discover from "@/app/api/discover/route";

let t: TestDb;
let dns: DnsTestServer;
let ip = 0;

type Created = { id: string; recordName: string; value: string; token: string; body: Record<string, unknown> };

async function createOne(overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Created> {
  const res = await call(submit.POST, "/api/submit", {
    method: "POST",
    headers: { "x-forwarded-for": `198.51.100.${++ip % 250}`, ...headers },
    json: {
      endpoint_url: "https://api.acme-weather.com/v1/current",
      capability_id: "weather.current",
      contact_email: "ops@acme-weather.com",
      provider_name: "Acme Weather",
      price_per_call: 0.002,
      ...overrides,
    },
  });
  expect(res.status).toBe(202);
  const v = res.body.verification as { record_name: string; record_value: string };
  return { id: res.body.submission_id as string, recordName: v.record_name, value: v.record_value, token: v.record_value.split("=")[1], body: res.body };
}

const verifyNow = (id: string) => call(verify.POST, `/api/submit/${id}/verify`, { method: "POST", params: { id } });
const getOne = (id: string) => call(one.GET, `/api/submit/${id}`, { params: { id } });

beforeAll(async () => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
  process.env.CAPDEX_RATE_LIMIT = "off";
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});
beforeEach(() => dns.reset());

describe("verification succeeds", () => {
  it("with the record at the host, listing the endpoint at once (discover and endpoint count)", async () => {
    const s = await createOne({ endpoint_url: "https://api.host-record.com/v1/now", provider_name: "Host Record" });
    dns.setTxt(s.recordName, [s.value]);
    const res = await verifyNow(s.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "verified", last_check: { reason: "verified" }, account_domain: null });
    const endpointId = res.body.endpoint_id as string;
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.id, endpointId));
    expect(e).toMatchObject({
      url: "https://api.host-record.com/v1/now",
      host: "api.host-record.com",
      domain: "host-record.com",
      status: "listed",
      domainVerified: true,
      checkState: "unverified",
      submissionId: s.id,
      pricePerCall: 0.002,
    });
    const [p] = await t.db.select().from(providers).where(eq(providers.id, e.providerId));
    expect(p).toMatchObject({ name: "Host Record", contactEmail: "ops@acme-weather.com", userId: null });
    const detail = await call(capability.GET, "/api/capabilities/weather.current?with_endpoints=true", { params: { id: "weather.current" } });
    expect(detail.body.endpoint_count).toBeGreaterThanOrEqual(1);
    expect((detail.body.endpoints as Array<{ endpoint_id: string }>).map((x) => x.endpoint_id)).toContain(endpointId);
    // verifying again is harmless and answers the same state
    expect((await verifyNow(s.id)).body).toMatchObject({ status: "verified", endpoint_id: endpointId });
  });

  it("with the record at the registrable domain, which covers hosts under it", async () => {
    const s = await createOne({ endpoint_url: "https://v2.api.domain-record.com/x" });
    expect(s.body.verification).toMatchObject({ alternative_record_name: "_capdex-challenge.domain-record.com" });
    dns.setTxt("_capdex-challenge.domain-record.com", ["v=spf1 -all", s.value]);
    const res = await verifyNow(s.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("verified");
    expect(res.body.last_check).toMatchObject({ found_records: ["v=spf1 -all", s.value] });
  });

  it("with the record split into two character strings", async () => {
    const s = await createOne({ endpoint_url: "https://split.strings-co.com/" });
    dns.setTxt(s.recordName, [[s.value.slice(0, 25), s.value.slice(25)]]);
    expect((await verifyNow(s.id)).body.status).toBe("verified");
  });

  it("with quotes and white space around the value", async () => {
    const s = await createOne({ endpoint_url: "https://quoted.strings-co.com/" });
    dns.setTxt(s.recordName, [`  "${s.value}" `]);
    expect((await verifyNow(s.id)).body.status).toBe("verified");
  });

  it("whatever the case and trailing dot of the URL and of the record's name", async () => {
    const s = await createOne({ endpoint_url: "https://API.Case-Test.COM./v1" });
    expect(s.body.domain).toBe("api.case-test.com");
    expect(s.recordName).toBe("_capdex-challenge.api.case-test.com");
    dns.setTxt("_CAPDEX-Challenge.Api.Case-Test.com.", [s.value]);
    const res = await verifyNow(s.id);
    expect(res.body).toMatchObject({ status: "verified", endpoint_url: "https://api.case-test.com/v1" });
    // the listed URL now blocks every spelling of it
    const again = await call(submit.POST, "/api/submit", {
      method: "POST",
      json: { endpoint_url: "https://api.case-test.com/v1", capability_id: "weather.current", contact_email: "a@b.co", provider_name: "X", price_per_call: 0 },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("already_listed");
  });

  it("after the record is added to a name that did not exist (pending -> verified)", async () => {
    const s = await createOne({ endpoint_url: "https://late.record-co.com/" });
    const first = await verifyNow(s.id);
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ code: "verification_failed", reason: "nxdomain", found_records: [], status: 409, submission_status: "pending_verification" });
    expect((await getOne(s.id)).body).toMatchObject({ status: "pending_verification", last_check: { reason: "nxdomain", found_records: [] } });
    dns.setTxt(s.recordName, [s.value]);
    const second = await verifyNow(s.id);
    expect(second.status).toBe(200);
    expect(second.body.status).toBe("verified");
  });
});

describe("a new listing", () => {
  it("shows in POST /api/discover at once, even right after the capability's candidates were cached", async () => {
    const ask = () => call(discover.POST, "/api/discover", { method: "POST", json: { capability_id: "weather.alerts", preferences: { limit: 20 } } });
    const before = await ask();
    expect(before.status).toBe(200);
    const s = await createOne({ endpoint_url: "https://alerts.fresh-co.com/", capability_id: "weather.alerts", provider_name: "Fresh Co" });
    dns.setTxt(s.recordName, [s.value]);
    const endpointId = (await verifyNow(s.id)).body.endpoint_id;
    const after = await ask();
    const ranked = (r: typeof after) => (r.body.ranked_endpoints as Array<{ endpoint_id: string }>).map((e) => e.endpoint_id);
    expect(ranked(before)).not.toContain(endpointId);
    expect(ranked(after)).toContain(endpointId);
  });
});

describe("verification fails with what was found", () => {
  it("for a wrong token", async () => {
    const s = await createOne({ endpoint_url: "https://wrong.token-co.com/" });
    dns.setTxt(s.recordName, ["capdex-verification=not-the-token", "v=spf1 -all"]);
    const res = await verifyNow(s.id);
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body).toMatchObject({ code: "verification_failed", reason: "token_mismatch", record_name: s.recordName, record_value: s.value });
    expect(res.body.found_records).toEqual(["capdex-verification=not-the-token", "v=spf1 -all"]);
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, s.id));
    expect(row).toMatchObject({ status: "pending_verification", endpointId: null });
  });

  it("for another submission's token", async () => {
    const mine = await createOne({ endpoint_url: "https://mine.token-co.com/" });
    const theirs = await createOne({ endpoint_url: "https://theirs.other-co.com/" });
    dns.setTxt(mine.recordName, [theirs.value]);
    const res = await verifyNow(mine.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: "token_of_another_submission", found_records: [theirs.value] });
    expect(res.body.detail).toMatch(/another submission/);
  });

  it("for a name without TXT records", async () => {
    const s = await createOne({ endpoint_url: "https://no-records.empty-co.com/" });
    dns.setA(s.recordName, ["192.0.2.1"]);
    expect((await verifyNow(s.id)).body).toMatchObject({ reason: "no_records", found_records: [] });
  });

  it("for TXT records none of which is a capdex record", async () => {
    const s = await createOne({ endpoint_url: "https://spf-only.empty-co.com/" });
    dns.setTxt(s.recordName, ["v=spf1 -all"]);
    expect((await verifyNow(s.id)).body).toMatchObject({ reason: "no_challenge_record", found_records: ["v=spf1 -all"] });
  });

  it("for SERVFAIL, with a clear reason", async () => {
    const s = await createOne({ endpoint_url: "https://broken.servfail-co.com/" });
    dns.misbehave("*", "servfail");
    const res = await verifyNow(s.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: "servfail" });
    expect(res.body.detail).toMatch(/SERVFAIL/);
  });

  it("for a resolver that does not answer, with reason timeout instead of a hang", async () => {
    const s = await createOne({ endpoint_url: "https://silent.timeout-co.com/" });
    dns.setTxt(s.recordName, [s.value]);
    dns.misbehave("*", "silent");
    const res = await verifyNow(s.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: "timeout" });
    expect(dns.queryCount(s.recordName)).toBeGreaterThanOrEqual(1);
  });

  it("for an expired submission, whatever DNS now says", async () => {
    const s = await createOne({ endpoint_url: "https://too.late-co.com/" });
    dns.setTxt(s.recordName, [s.value]);
    await t.db.update(submissions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(submissions.id, s.id));
    const res = await verifyNow(s.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "verification_failed", reason: "expired", status: 409, submission_status: "expired" });
    expect((await getOne(s.id)).body.status).toBe("expired");
    expect(dns.queryCount(s.recordName)).toBe(0);
  });

  it("for an unknown submission (404) and a malformed id (422)", async () => {
    const id = "0f9e3a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b";
    expect((await verifyNow(id)).body.code).toBe("submission_not_found");
    const bad = await verifyNow("nope");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: "#/id" })]);
  });
});

describe("private suffixes", () => {
  it("a record at another github.io site's name does not cover this one", async () => {
    const s = await createOne({ endpoint_url: "https://other.github.io/api" });
    expect(s.body).toMatchObject({ domain: "other.github.io", registrable_domain: "other.github.io" });
    expect((s.body.verification as { alternative_record_name: string | null }).alternative_record_name).toBeNull();
    dns.setTxt("_capdex-challenge.github.io", [s.value]);
    dns.setTxt("_capdex-challenge.myapp.github.io", [s.value]);
    const res = await verifyNow(s.id);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe("nxdomain");
    expect(dns.queryCount("_capdex-challenge.github.io")).toBe(0);
  });

  it("a record at myapp.github.io covers api.myapp.github.io", async () => {
    const s = await createOne({ endpoint_url: "https://api.myapp.github.io/api" });
    dns.setTxt("_capdex-challenge.myapp.github.io", [s.value]);
    expect((await verifyNow(s.id)).body.status).toBe("verified");
  });
});

describe("two submissions of one URL", () => {
  it("lists the first to verify and closes the other with 409 already_listed", async () => {
    const a = await createOne({ endpoint_url: "https://race.twice-co.com/" });
    // Two contacts: the same contact would get its pending submission back.
    const b = await createOne({ endpoint_url: "https://race.twice-co.com/", contact_email: "other@twice-co.com" });
    dns.setTxt(a.recordName, [a.value, b.value]);
    const [ra, rb] = await Promise.all([verifyNow(a.id), verifyNow(b.id)]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expect(loser.body.code).toBe("already_listed");
    const listed = await t.db.select().from(endpoints).where(eq(endpoints.url, "https://race.twice-co.com/"));
    expect(listed).toHaveLength(1);
    expect((await getOne(loser.body.submission_id as string)).body.status).toBe("rejected");
  });
});

describe("a signed-in submitter", () => {
  it("keeps the proven domain: later submissions under it are verified at once", async () => {
    const [user] = await t.db.insert(users).values({ email: "owner@account-co.com", name: "Owner" }).returning();
    const { key } = await createApiKey(t.db, user.id, "test");
    const auth = { authorization: `Bearer ${key}` };
    const first = await createOne({ endpoint_url: "https://api.account-co.com/a", provider_name: "Account Co" }, auth);
    dns.setTxt("_capdex-challenge.account-co.com", [first.value]);
    const res = await verifyNow(first.id);
    expect(res.body).toMatchObject({ status: "verified", account_domain: "account-co.com" });
    const [vd] = await t.db.select().from(verifiedDomains).where(eq(verifiedDomains.userId, user.id));
    expect(vd).toMatchObject({ domain: "account-co.com", recordName: "_capdex-challenge.account-co.com", status: "verified", token: first.token });
    const [p] = await t.db.select().from(providers).where(eq(providers.userId, user.id));
    expect(p.name).toBe("Account Co");

    // No TXT record is looked up again (the new listing's first probe resolves its address, nothing more).
    const txtQueries = () => dns.queries.filter((q) => q.type === "TXT").length;
    const queriesBefore = txtQueries();
    const second = await createOne({ endpoint_url: "https://eu.account-co.com/b", provider_name: "Account Co" }, auth);
    expect(second.body).toMatchObject({ status: "verified", account_domain: "account-co.com", last_check: { reason: "account_domain" } });
    expect(second.body.endpoint_id).toEqual(expect.any(String));
    expect(txtQueries()).toBe(queriesBefore);
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.id, second.body.endpoint_id as string));
    expect(e.providerId).toBe(p.id);

    // someone else (anonymous) on the same domain still has to prove it
    const stranger = await createOne({ endpoint_url: "https://us.account-co.com/c" });
    expect(stranger.body.status).toBe("pending_verification");
  });
});
