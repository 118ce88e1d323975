// The background work of submissions against a real DNS server: pending submissions re-checked and
// expired, listed domains re-checked (a removed record marks the endpoint unverified), and every
// unit of work claimed once when two runs overlap.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { call } from "../helpers/http";
import type { Principal } from "@/lib/auth/principal";
import { endpoints, submissions, users, verifiedDomains } from "@/lib/db/schema";
import { runIfDue } from "@/lib/jobs";
import { createSubmission, verifySubmissionNow } from "@/lib/submissions";
import { recheckAccountDomains, recheckEndpointDomains, recheckPendingSubmissions } from "@/lib/submissions/recheck";
import { recheckPendingJob } from "@/lib/submissions/jobs";
import * as one from "@/app/api/submit/[id]/route";

let t: TestDb;
let dns: DnsTestServer;
const anonymous: Principal = { kind: "anonymous", key: "ip:203.0.113.9", ip: "203.0.113.9" };

async function submitOne(url: string, principal: Principal = anonymous) {
  const out = await createSubmission(
    t.db,
    { endpoint_url: url, capability_id: "weather.current", contact_email: "ops@jobs-co.com", provider_name: "Jobs Co", price_per_call: 0.01 },
    principal,
  );
  return { id: out.submission_id, recordName: out.verification.record_name, value: out.verification.record_value };
}

const makeDue = (ids: string[]) => t.db.update(submissions).set({ nextCheckAt: sql`now() - interval '1 second'` }).where(inArray(submissions.id, ids));
const statusOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0];

beforeAll(async () => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});
beforeEach(async () => {
  dns.reset();
  // each test starts with nothing due, so runs see only that test's rows
  await t.db.update(submissions).set({ status: "rejected" }).where(eq(submissions.status, "pending_verification"));
  await t.db.update(endpoints).set({ domainNextCheckAt: null });
  await t.db.update(verifiedDomains).set({ nextCheckAt: null });
});

describe("pending submissions in the background", () => {
  it("are verified once their record appears, and only when due", async () => {
    const s = await submitOne("https://bg.pending-co.com/");
    dns.setTxt(s.recordName, [s.value]);
    expect((await recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000 })).checked).toBe(0);
    await makeDue([s.id]);
    const r = await recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000 });
    expect(r).toMatchObject({ checked: 1, listed: 1 });
    expect((await statusOf(s.id)).status).toBe("verified");
  });

  it("are looked at again later when the record is still missing", async () => {
    const s = await submitOne("https://bg.missing-co.com/");
    await makeDue([s.id]);
    expect(await recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000 })).toMatchObject({ checked: 1, listed: 0 });
    const row = await statusOf(s.id);
    expect(row.status).toBe("pending_verification");
    expect(row.lastCheck).toMatchObject({ reason: "nxdomain" });
    expect(row.claimedUntil).toBeNull();
    const [{ later }] = await t.db.select({ later: sql<boolean>`${submissions.nextCheckAt} > now() + interval '50 seconds'` }).from(submissions).where(eq(submissions.id, s.id));
    expect(later).toBe(true);
    expect((await recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000 })).checked).toBe(0);
  });

  it("expire after 7 days without the record", async () => {
    const s = await submitOne("https://bg.expiring-co.com/");
    dns.setTxt(s.recordName, [s.value]);
    await t.db.update(submissions).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(submissions.id, s.id));
    expect(await recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000 })).toMatchObject({ expired: 1, checked: 0 });
    const res = await call(one.GET, `/api/submit/${s.id}`, { params: { id: s.id } });
    expect(res.body.status).toBe("expired");
    expect(dns.queryCount(s.recordName)).toBe(0);
  });

  it("are each checked once when two runs overlap", async () => {
    const subs = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => submitOne(`https://svc${n}.overlap-co${n}.com/`)));
    for (const s of subs.slice(0, 3)) dns.setTxt(s.recordName, [s.value]);
    await makeDue(subs.map((s) => s.id));
    const [a, b] = await Promise.all([
      recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000, batch: 6 }),
      recheckPendingSubmissions(t.db, { nextCheckInMs: 60_000, batch: 6 }),
    ]);
    expect(a.checked + b.checked).toBe(6);
    expect(a.listed + b.listed).toBe(3);
    for (const s of subs) expect(dns.queryCount(s.recordName)).toBe(1);
  });

  it("are re-checked by a job that runs once however many instances call it at once", async () => {
    const job = recheckPendingJob;
    const s = await submitOne("https://bg.job-co.com/");
    dns.setTxt(s.recordName, [s.value]);
    await makeDue([s.id]);
    const results = await Promise.all([runIfDue(t.db, job, { force: true }), runIfDue(t.db, job, { force: true })]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(results.find((r) => r !== null)).toMatchObject({ checked: 1, listed: 1 });
    expect(dns.queryCount(s.recordName)).toBe(1);
  });
});

describe("listed domains, re-checked daily", () => {
  async function listed(url: string) {
    const s = await submitOne(url);
    dns.setTxt(s.recordName, [s.value]);
    const out = await verifySubmissionNow(t.db, s.id);
    await t.db.update(endpoints).set({ domainNextCheckAt: sql`now() - interval '1 second'` }).where(eq(endpoints.id, out.endpoint_id!));
    return { ...s, endpointId: out.endpoint_id! };
  }
  const endpointOf = async (id: string) => (await t.db.select().from(endpoints).where(eq(endpoints.id, id)))[0];

  it("are not checked before they are due", async () => {
    const s = await submitOne("https://fresh.daily-co.com/");
    dns.setTxt(s.recordName, [s.value]);
    await verifySubmissionNow(t.db, s.id);
    expect((await recheckEndpointDomains(t.db)).checked).toBe(0);
  });

  it("mark the endpoint unverified when the record has gone, and verified again when it is back", async () => {
    const e = await listed("https://gone.daily-co.com/");
    dns.remove(e.recordName);
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 1, lost: 1 });
    expect(await endpointOf(e.endpointId)).toMatchObject({ domainVerified: false, domainReason: "nxdomain", status: "listed" });
    const seen = await call(one.GET, `/api/submit/${e.id}`, { params: { id: e.id } });
    expect(seen.body.listing).toMatchObject({ domain_verified: false, domain_reason: "nxdomain" });

    dns.setTxt(e.recordName, [e.value]);
    await t.db.update(endpoints).set({ domainNextCheckAt: sql`now() - interval '1 second'` }).where(eq(endpoints.id, e.endpointId));
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 1, verified: 1 });
    expect(await endpointOf(e.endpointId)).toMatchObject({ domainVerified: true, domainReason: null });
  });

  it("mark it unverified when the record now holds another token", async () => {
    const e = await listed("https://swapped.daily-co.com/");
    dns.setTxt(e.recordName, ["capdex-verification=somebody-else"]);
    await recheckEndpointDomains(t.db);
    expect(await endpointOf(e.endpointId)).toMatchObject({ domainVerified: false, domainReason: "token_mismatch" });
  });

  it("keep the endpoint verified through a short DNS outage, but not a long one", async () => {
    const e = await listed("https://flaky.daily-co.com/");
    dns.misbehave(e.recordName, "servfail");
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 1, transient: 1 });
    expect((await endpointOf(e.endpointId)).domainVerified).toBe(true);
    await t.db
      .update(endpoints)
      .set({ domainCheckedAt: sql`now() - interval '4 days'`, domainNextCheckAt: sql`now() - interval '1 second'` })
      .where(eq(endpoints.id, e.endpointId));
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 1, lost: 1 });
    expect(await endpointOf(e.endpointId)).toMatchObject({ domainVerified: false, domainReason: "servfail" });
  });

  it("are each checked once when two runs overlap", async () => {
    const all = [await listed("https://a.overlap-daily.com/"), await listed("https://b.overlap-daily2.com/"), await listed("https://c.overlap-daily3.com/")];
    dns.queries.length = 0;
    const [a, b] = await Promise.all([recheckEndpointDomains(t.db), recheckEndpointDomains(t.db)]);
    expect(a.checked + b.checked).toBe(3);
    for (const e of all) expect(dns.queryCount(e.recordName)).toBe(1);
  });

  it("a domain on an account whose record has gone no longer lists new submissions at once", async () => {
    const [user] = await t.db.insert(users).values({ email: "keeper@kept-co.com" }).returning();
    const me: Principal = { kind: "authenticated", key: "k:1", ip: "203.0.113.10", apiKeyId: "00000000-0000-4000-8000-000000000001", userId: user.id };
    const s = await submitOne("https://api.kept-co.com/", me);
    dns.setTxt(s.recordName, [s.value]);
    expect((await verifySubmissionNow(t.db, s.id)).account_domain).toBe("api.kept-co.com");
    dns.remove(s.recordName);
    await t.db.update(verifiedDomains).set({ nextCheckAt: sql`now() - interval '1 second'` }).where(eq(verifiedDomains.userId, user.id));
    expect(await recheckAccountDomains(t.db)).toMatchObject({ checked: 1, lost: 1 });
    const later = await submitOne("https://api.kept-co.com/other", me);
    expect((await statusOf(later.id)).status).toBe("pending_verification");
  });
});
