// Capability proposals end to end on a real database, DNS server and catalogue server: the API
// (auth, validation, conflicts), grouping the unmapped queue, and what accepting, merging and
// rejecting do to the registry, the imported listings and the submissions waiting for them.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";
import { call } from "../helpers/http";
import { createApiKey } from "@/lib/auth/keys";
import { queryRows } from "@/lib/db/client";
import { capabilityProposals, endpoints, importItems, sessions, users } from "@/lib/db/schema";
import { runImport } from "@/lib/imports";
import { suggestProposals } from "@/lib/proposals";
import { acceptProposal, mergeProposal, rejectProposal } from "@/lib/proposals/decide";
import { getRegistry } from "@/lib/registry";
import { intentIndexOf, settledIntentIndexOf } from "@/lib/discovery/resolve";
import { getRegistryVersion } from "@/lib/registry/version";
import * as proposals from "@/app/api/capabilities/proposals/route";
import * as capabilitiesList from "@/app/api/capabilities/route";
import * as capability from "@/app/api/capabilities/[id]/route";
import * as discover from "@/app/api/discover/route";
import * as submit from "@/app/api/submit/route";
import * as oneSubmission from "@/app/api/submit/[id]/route";
import * as verify from "@/app/api/submit/[id]/verify/route";

let t: TestDb;
let dns: DnsTestServer;
let feed: CatalogueServer;
let auth: Record<string, string>;

const QUEUE = [
  v2Item("https://api.fluxlab.com/calibrate", { description: "Quantum flux capacitor calibration for time machines" }),
  v2Item("https://flux.chronotech.io/v1/capacitor", { description: "Calibrate a flux capacitor before a temporal jump" }),
  v2Item("https://api.tempo-works.net/capacitor/tune", { description: "Flux capacitor tuning for temporal displacement" }),
  // one seller's product twice: not a capability
  v2Item("https://api.llamaspa.com/grooming", { description: "Llama grooming appointment at the alpaca spa" }),
  v2Item("https://api.llamaspa.com/grooming/deluxe", { description: "Deluxe llama grooming appointment at the alpaca spa" }),
];

const postProposal = (json: unknown, headers: Record<string, string> = auth) =>
  call(proposals.POST, "/api/capabilities/proposals", { method: "POST", headers, json });
const getProposals = () => call(proposals.GET, "/api/capabilities/proposals");
const submitOne = (json: Record<string, unknown>) =>
  call(submit.POST, "/api/submit", {
    method: "POST",
    json: { contact_email: "ops@provider.com", provider_name: "Provider", price_per_call: 0.01, ...json },
  });
const verifyNow = (id: string) => call(verify.POST, `/api/submit/${id}/verify`, { method: "POST", params: { id } });
const getSubmission = (id: string) => call(oneSubmission.GET, `/api/submit/${id}`, { params: { id } });

beforeAll(async () => {
  process.env.CAPDEX_RATE_LIMIT = "off";
  process.env.ALLOW_PRIVATE_TARGETS = "1"; // the catalogue is on a loopback port
  process.env.DISCOVERY_CACHE_MS = "0";
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
  const [user] = await t.db.insert(users).values({ email: "proposer@example.org", name: "Proposer" }).returning();
  auth = { authorization: `Bearer ${(await createApiKey(t.db, user.id, "test")).key}` };
  feed = await startCatalogueServer({ item: (i) => QUEUE[i], total: QUEUE.length });
}, 120_000);
afterAll(async () => {
  await feed?.close();
  await dns?.close();
  await t?.close();
});

describe("POST /api/capabilities/proposals", () => {
  const good = { id: "astro.moon_phase", title: "Moon phase", description: "The moon's phase and illumination for a date", category: "astro", example_intents: ["is it a full moon tonight"] };

  it("needs an account: 401 for anonymous callers, and a session cookie only from Capdex's own pages", async () => {
    const anon = await postProposal(good, {});
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ code: "unauthorized", status: 401 });
    const [user] = await t.db.insert(users).values({ email: "portal@example.org" }).returning();
    await t.db.insert(sessions).values({ sessionToken: "session-token-1", userId: user.id, expires: new Date(Date.now() + 3600_000) });
    const crossSite = await postProposal({ ...good, id: "astro.tide_times", title: "Tide times" }, { cookie: "authjs.session-token=session-token-1", host: "localhost:3000", origin: "https://evil.example" });
    expect(crossSite.status).toBe(401);
    const own = await postProposal({ ...good, id: "astro.tide_times", title: "Tide times" }, { cookie: "authjs.session-token=session-token-1", host: "localhost:3000", origin: "http://localhost:3000" });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ id: "astro.tide_times", source: "provider", status: "open" });
  });

  it("validates the fields: 422 with pointers, never a 500", async () => {
    for (const [body, pointer] of [
      [{ ...good, id: "Astro.Moon" }, "#/id"],
      [{ ...good, id: "moonphase" }, "#/id"],
      [{ ...good, id: "sky.moon_phase" }, "#/id"], // not in its category
      [{ ...good, category: "Astro!" }, "#/category"],
      [{ ...good, title: "" }, "#/title"],
      [{ ...good, description: "short" }, "#/description"],
      [{ ...good, example_intents: "full moon" }, "#/example_intents"],
      [{ ...good, endpoint_url: "javascript:alert(1)" }, "#/endpoint_url"],
    ] as const) {
      const res = await postProposal(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect((res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toContain(pointer);
    }
    const unknown = await postProposal({ ...good, score: 1 });
    expect(unknown.body.code).toBe("unknown_field");
  });

  it("201 with the proposal; 409 capability_exists (with suggestions) and proposal_exists", async () => {
    const created = await postProposal({ ...good, endpoint_url: "https://api.moonwatch.com/phase" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: "astro.moon_phase",
      title: "Moon phase",
      category: "astro",
      source: "provider",
      status: "open",
      example_intents: ["is it a full moon tonight"],
      listings: [{ url: "https://api.moonwatch.com/phase", source: "provider" }],
      decision: null,
    });
    const again = await postProposal(good);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "proposal_exists", proposal_id: created.body.proposal_id });
    const exists = await postProposal({ ...good, id: "weather.current", category: "weather" });
    expect(exists.status).toBe(409);
    expect(exists.body.code).toBe("capability_exists");
    expect((exists.body.suggestions as string[])[0]).toBe("weather.current");
    const list = await getProposals();
    expect(list.status).toBe(200);
    expect((list.body.proposals as Array<{ id: string }>).map((p) => p.id)).toEqual(expect.arrayContaining(["astro.moon_phase", "astro.tide_times"]));
  });
});

describe("grouping the unmapped queue", () => {
  let groupId: string;

  it("proposes a capability for a job several hosts sell, not for one seller's product; re-running updates, never duplicates", async () => {
    const run = await runImport(t.db, feed.url, { pauseMs: 0, timeoutMs: 5000 });
    expect(run.status).toBe("completed");
    const unmapped = await t.db.select({ url: importItems.url }).from(importItems).where(eq(importItems.state, "unmapped"));
    expect(unmapped.map((u) => u.url)).toEqual(expect.arrayContaining(QUEUE.slice(0, 3).map((q) => q.resource)));

    const first = await suggestProposals(t.db);
    const flux = first.groups.find((g) => g.id.includes("capacitor"));
    expect(flux).toMatchObject({ listings: 3, hosts: 3 });
    expect(first.groups.some((g) => g.id.includes("llama") || g.id.includes("grooming"))).toBe(false);
    groupId = flux!.id;
    expect(groupId).toMatch(/^[a-z][a-z0-9_]*\.capacitor_[a-z0-9_]+$/);

    const second = await suggestProposals(t.db);
    expect(second.created).toBe(0);
    expect(second.groups.map((g) => g.id)).toEqual(first.groups.map((g) => g.id));
    const rows = await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.capabilityId, groupId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: "unmapped_queue", status: "open" });
    expect(rows[0].words).toEqual(expect.arrayContaining(["capacitor", "flux"]));

    const list = await getProposals();
    const shown = (list.body.proposals as Array<{ id: string; source: string; listings: Array<{ url: string; source: string }> }>).find((p) => p.id === groupId)!;
    expect(shown.source).toBe("unmapped_queue");
    expect(shown.listings.map((l) => l.url).sort()).toEqual(QUEUE.slice(0, 3).map((q) => q.resource).sort());
    expect(new Set(shown.listings.map((l) => l.source))).toEqual(new Set(["unmapped_queue"]));
  }, 60_000);

  it("accepting adds the capability everywhere at once and lists its unmapped items under it", async () => {
    const before = await getRegistryVersion(t.db);
    const decision = await acceptProposal(t.db, groupId, { by: "test", as: "devtools.flux_capacitor", title: "Flux capacitor calibration" });
    expect(decision.capabilityId).toBe("devtools.flux_capacitor");
    expect(decision.items.listed).toBe(3);
    expect(await getRegistryVersion(t.db)).toBe(before + 1);
    expect((await getRegistry(t.db)).byId.get("devtools.flux_capacitor")).toMatchObject({ source: "operator", title: "Flux capacitor calibration", categoryId: "devtools" });

    const listed = await call(capabilitiesList.GET, "/api/capabilities?search=capacitor&with_endpoints=true");
    expect(listed.body.capabilities).toEqual([expect.objectContaining({ id: "devtools.flux_capacitor", endpoint_count: 3 })]);
    const detail = await call(capability.GET, "/api/capabilities/devtools.flux_capacitor", { params: { id: "devtools.flux_capacitor" } });
    expect(detail.status).toBe(200);
    expect((detail.body.tags as string[])).toEqual(expect.arrayContaining(["capacitor", "flux"]));
    const found = await call(discover.POST, "/api/discover", { method: "POST", json: { capability_id: "devtools.flux_capacitor" } });
    expect(found.status).toBe(200);
    expect(found.body.resolved).toMatchObject({ capability_id: "devtools.flux_capacitor" });

    const rows = await t.db.select().from(endpoints).where(eq(endpoints.capabilityId, "devtools.flux_capacitor"));
    expect(rows.map((r) => r.status)).toEqual(["listed", "listed", "listed"]);
    const items = await t.db.select().from(importItems).where(sql`${importItems.url} = any(${`{${QUEUE.slice(0, 3).map((q) => q.resource).join(",")}}`}::text[])`);
    expect(items.every((i) => i.state === "mapped" && i.capabilityId === "devtools.flux_capacitor" && i.mappedBy === "operator")).toBe(true);

    // decided: not open any more, not proposed again, not decidable twice
    expect(((await getProposals()).body.proposals as Array<{ id: string }>).map((p) => p.id)).not.toContain(groupId);
    await expect(acceptProposal(t.db, decision.proposal.id, { by: "test" })).rejects.toMatchObject({ code: "proposal_not_open" });
    const again = await suggestProposals(t.db);
    expect(again.groups.some((g) => g.id.includes("capacitor"))).toBe(false);
  }, 60_000);

  it("accepting as an id that exists is 409 capability_exists; merging into an unknown one is 404", async () => {
    await expect(acceptProposal(t.db, "astro.tide_times", { by: "test", as: "weather.current" })).rejects.toMatchObject({ code: "capability_exists" });
    await expect(acceptProposal(t.db, "astro.tide_times", { by: "test", as: "Not An Id" })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(mergeProposal(t.db, "astro.tide_times", { by: "test", into: "weather.nope" })).rejects.toMatchObject({ code: "capability_not_found" });
    await expect(rejectProposal(t.db, "astro.no_such", { by: "test" })).rejects.toMatchObject({ code: "proposal_not_found" });
  });
});

describe("a submission that proposes its capability", () => {
  const proposed = {
    id: "astro.star_chart",
    title: "Star chart",
    description: "A chart of the visible stars for a place and time",
    category: "astro",
    example_intents: ["which stars can I see from Oslo tonight"],
  };

  it("refuses bad combinations, and 404 capability_not_found names proposed_capability", async () => {
    const unknown = await submitOne({ endpoint_url: "https://api.stars.com/chart", capability_id: "astro.star_chart" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("capability_not_found");
    expect(unknown.body.detail).toContain("proposed_capability");
    const both = await submitOne({ endpoint_url: "https://api.stars.com/chart", capability_id: "weather.current", proposed_capability: proposed });
    expect(both.status).toBe(422);
    const neither = await submitOne({ endpoint_url: "https://api.stars.com/chart" });
    expect(neither.status).toBe(422);
    expect((neither.body.errors as Array<{ pointer: string }>)[0].pointer).toBe("#/capability_id");
    const existing = await submitOne({ endpoint_url: "https://api.stars.com/chart", proposed_capability: { ...proposed, id: "weather.current", category: "weather" } });
    expect(existing.status).toBe(409);
    expect(existing.body.code).toBe("capability_exists");
    const bad = await submitOne({ endpoint_url: "https://api.stars.com/chart", proposed_capability: { ...proposed, id: "astro" } });
    expect(bad.status).toBe(422);
    expect((bad.body.errors as Array<{ pointer: string }>)[0].pointer).toBe("#/proposed_capability/id");
    const stored = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from submissions where endpoint_url = 'https://api.stars.com/chart'`);
    expect(Number(stored[0].n)).toBe(0);
    expect(await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.capabilityId, "astro.star_chart"))).toHaveLength(0);
  });

  it("is verified by DNS as usual, waits as pending_capability, and is listed under the capability once accepted", async () => {
    const res = await submitOne({ endpoint_url: "https://api.stars.com/chart", proposed_capability: proposed });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending_verification", capability_id: "astro.star_chart" });
    const id = res.body.submission_id as string;
    expect(res.body.proposal_id).toEqual(expect.any(String));
    // a second provider of the same job joins the same proposal
    const other = await submitOne({ endpoint_url: "https://api.skymaps.net/stars", contact_email: "ops@skymaps.net", proposed_capability: { ...proposed, title: "Stars" } });
    expect(other.body.proposal_id).toBe(res.body.proposal_id);

    const v = res.body.verification as { record_name: string; record_value: string };
    dns.setTxt(v.record_name, [v.record_value]);
    const checked = await verifyNow(id);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ status: "pending_capability", endpoint_id: null, last_check: { reason: "pending_capability" } });
    expect(await t.db.select().from(endpoints).where(eq(endpoints.url, "https://api.stars.com/chart"))).toHaveLength(0);
    const open = ((await getProposals()).body.proposals as Array<{ id: string; listings: Array<{ url: string; source: string }> }>).find((p) => p.id === "astro.star_chart")!;
    expect(open.listings).toEqual(expect.arrayContaining([expect.objectContaining({ url: "https://api.stars.com/chart", source: "submission" })]));

    const decision = await acceptProposal(t.db, "astro.star_chart", { by: "test" });
    expect(decision.submissions).toEqual({ listed: 1, pending: 1, failed: 0 });
    const now = await getSubmission(id);
    expect(now.body).toMatchObject({ status: "verified", capability_id: "astro.star_chart", listing: { status: "listed", domain_verified: true } });
    const detail = await call(capability.GET, "/api/capabilities/astro.star_chart?with_endpoints=true", { params: { id: "astro.star_chart" } });
    expect(detail.body).toMatchObject({ id: "astro.star_chart", category: "astro", endpoint_count: 1, examples: proposed.example_intents });
    const cats = await queryRows<{ id: string }>(t.db, sql`select id from categories where id = 'astro'`);
    expect(cats).toHaveLength(1);

    // Found by intent at once (the lexical index answers for it while its run-time class is learnt
    // between requests), then by its own class, with no retrain step.
    const registry = await getRegistry(t.db);
    const interim = intentIndexOf(registry);
    expect(interim.unknown.has("astro.star_chart")).toBe(true);
    const byIntent = () => call(discover.POST, "/api/discover", { method: "POST", json: { intent: "show me a star chart for tonight" } });
    expect((await byIntent()).body).toMatchObject({ resolved: { capability_id: "astro.star_chart" } });
    const complete = await settledIntentIndexOf(registry);
    expect(complete.runtime.has("astro.star_chart")).toBe(true);
    expect(complete.unknown.size).toBe(0);
    expect(intentIndexOf(registry)).toBe(complete);
    expect((await byIntent()).body).toMatchObject({ resolved: { capability_id: "astro.star_chart" } });

    // the other one, still without its record, is listed under the capability when it is found
    const second = await getSubmission(other.body.submission_id as string);
    expect(second.body).toMatchObject({ status: "pending_verification", capability_id: "astro.star_chart" });
    const v2 = other.body.verification as { record_name: string; record_value: string };
    dns.setTxt(v2.record_name, [v2.record_value]);
    expect((await verifyNow(other.body.submission_id as string)).body).toMatchObject({ status: "verified" });
  }, 60_000);

  it("merging lists the waiting submission under the existing capability", async () => {
    const res = await submitOne({ endpoint_url: "https://api.oslo-sky.com/now", proposed_capability: { ...proposed, id: "astro.sky_weather", title: "Sky weather" } });
    const v = res.body.verification as { record_name: string; record_value: string };
    dns.setTxt(v.record_name, [v.record_value]);
    expect((await verifyNow(res.body.submission_id as string)).body.status).toBe("pending_capability");
    const d = await mergeProposal(t.db, "astro.sky_weather", { by: "test", into: "weather.current", note: "weather.current covers it" });
    expect(d.submissions.listed).toBe(1);
    expect((await getSubmission(res.body.submission_id as string)).body).toMatchObject({ status: "verified", capability_id: "weather.current" });
    const [p] = await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.id, d.proposal.id));
    expect(p).toMatchObject({ status: "merged", decidedCapabilityId: "weather.current", decidedBy: "test", decisionNote: "weather.current covers it" });
    expect((await getRegistry(t.db)).byId.has("astro.sky_weather")).toBe(false);
  }, 60_000);

  it("rejecting closes the waiting submission with the reason and leaves the registry alone", async () => {
    const res = await submitOne({ endpoint_url: "https://api.horoscope-now.com/today", proposed_capability: { ...proposed, id: "astro.horoscope", title: "Horoscope" } });
    const v = res.body.verification as { record_name: string; record_value: string };
    dns.setTxt(v.record_name, [v.record_value]);
    expect((await verifyNow(res.body.submission_id as string)).body.status).toBe("pending_capability");
    const r = await rejectProposal(t.db, "astro.horoscope", { by: "test", note: "not a measurable job" });
    expect(r.submissionsRejected).toBe(1);
    const now = await getSubmission(res.body.submission_id as string);
    expect(now.body).toMatchObject({ status: "rejected", endpoint_id: null, last_check: { reason: "capability_rejected" } });
    expect((now.body.last_check as { detail: string }).detail).toContain("not a measurable job");
    expect((await getRegistry(t.db)).byId.has("astro.horoscope")).toBe(false);
    expect(((await getProposals()).body.proposals as Array<{ id: string }>).map((p) => p.id)).not.toContain("astro.horoscope");
  }, 60_000);

  it("rejecting a queue group leaves its items unmapped and is not proposed again", async () => {
    const more = [
      ...QUEUE,
      v2Item("https://api.beekeep.com/hive", { description: "Beehive humidity sensor readings for apiaries" }),
      v2Item("https://hive.apiary-labs.org/sensors", { description: "Apiary beehive temperature sensor readings" }),
    ];
    feed.set({ item: (i) => more[i], total: more.length });
    await runImport(t.db, feed.url, { pauseMs: 0, timeoutMs: 5000 });
    const s = await suggestProposals(t.db);
    const hive = s.groups.find((g) => g.id.includes("beehive") || g.id.includes("sensor"));
    expect(hive).toBeDefined();
    await rejectProposal(t.db, hive!.id, { by: "test" });
    const items = await t.db.select().from(importItems).where(sql`${importItems.url} in ('https://api.beekeep.com/hive', 'https://hive.apiary-labs.org/sensors')`);
    expect(items.map((i) => i.state)).toEqual(["unmapped", "unmapped"]);
    const again = await suggestProposals(t.db);
    expect(again.groups.map((g) => g.id)).not.toContain(hive!.id);
    const rows = await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.capabilityId, hive!.id));
    expect(rows.map((r) => r.status)).toEqual(["rejected"]);
  }, 60_000);
});
