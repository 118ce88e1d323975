// Claiming the imported listings of a domain with one DNS TXT record (the submissions' flow).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { endpoints, providers } from "@/lib/db/schema";
import { runImport } from "@/lib/imports";
import { getStats } from "@/lib/stats";
import { queryRows } from "@/lib/db/client";
import { recheckEndpointDomains } from "@/lib/submissions/recheck";
import { claimDomainOf, createDomainClaim, getDomainClaim, verifyDomainClaim } from "@/lib/imports/claims";
import { recordValueFor } from "@/lib/submissions/challenge";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";

let t: TestDb;
let dns: DnsTestServer;
let s: CatalogueServer;
const anon = { kind: "anonymous" as const, key: "ip:203.0.113.9", ip: "203.0.113.9" };

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
  const items = [v2Item("https://api.claimable.com/weather", { serviceName: "Catalogue Name" }), v2Item("https://eu.claimable.com/weather"), v2Item("https://api.someone-else.com/weather")];
  s = await startCatalogueServer({ item: (i) => items[i], total: items.length });
  await runImport(t.db, s.url, { pauseMs: 0, allowPrivateItems: false });
});
afterAll(async () => {
  await s.close();
  await dns.close();
  await t.close();
});

describe("the stats", () => {
  it("show the latest run of each source", async () => {
    const stats = await getStats(t.db, { fresh: true });
    expect(stats.imports).toEqual([expect.objectContaining({ source: s.url, status: "completed", seen: 3, new: 3, skipped: {} })]);
  });
});

describe("a domain claim", () => {
  it("takes a domain, a host name or a URL, and refuses what is not a public domain", () => {
    expect(claimDomainOf("claimable.com")).toBe("claimable.com");
    expect(claimDomainOf("https://api.claimable.com/weather")).toBe("claimable.com");
    expect(() => claimDomainOf("localhost..")).toThrow();
  });

  it("claims every imported listing of the domain once its record is found", async () => {
    const claim = await createDomainClaim(t.db, { domain: "api.claimable.com", contact_email: "ops@claimable.com", provider_name: "Claimable Inc" }, anon);
    expect(claim).toMatchObject({ domain: "claimable.com", status: "pending_verification", claimable: 2, verification: { record_name: "_capdex-challenge.claimable.com" } });
    const early = await verifyDomainClaim(t.db, claim.claim_id);
    expect(early.status).toBe("pending_verification");
    expect(early.last_check?.reason).not.toBe("verified");

    dns.setTxt("_capdex-challenge.claimable.com", [claim.verification.record_value]);
    const done = await verifyDomainClaim(t.db, claim.claim_id);
    expect(done).toMatchObject({ status: "verified", claimed_endpoints: 2, claimable: 0 });
    const rows = await t.db.select().from(endpoints).where(eq(endpoints.domain, "claimable.com"));
    expect(rows.every((e) => e.domainVerified)).toBe(true);
    const [p] = await t.db.select().from(providers).where(eq(providers.id, rows[0].providerId));
    expect(p).toMatchObject({ name: "Claimable Inc", contactEmail: "ops@claimable.com" });
    const [other] = await t.db.select().from(endpoints).where(eq(endpoints.domain, "someone-else.com"));
    expect(other.domainVerified).toBe(false);
    expect((await getDomainClaim(t.db, claim.claim_id)).status).toBe("verified");
  });

  it("keeps claimed listings out of later imports' reach", async () => {
    const r = await runImport(t.db, s.url, { pauseMs: 0, allowPrivateItems: false });
    expect(r.skipped.claimed_listing).toBe(2);
  });

  it("is re-checked daily: claimed listings lose domain_verified when the record goes, and get it back with it", async () => {
    const claimed = () => t.db.select().from(endpoints).where(eq(endpoints.domain, "claimable.com"));
    // The claim scheduled its listings' first re-check a day out; nothing is due before that.
    const [first] = await claimed();
    expect(first.domainNextCheckAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await recheckEndpointDomains(t.db)).checked).toBe(0);
    const due = () => t.db.update(endpoints).set({ domainNextCheckAt: sql`now() - interval '1 second'` }).where(eq(endpoints.domain, "claimable.com"));

    await due();
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 2, verified: 2, lost: 0 });
    expect((await claimed()).every((e) => e.domainVerified)).toBe(true);

    const record = "_capdex-challenge.claimable.com";
    const [{ token }] = await queryRows<{ token: string }>(t.db, sql`select token from domain_claims where domain = 'claimable.com'`);
    dns.remove(record);
    await due();
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 2, lost: 2 });
    expect((await claimed()).map((e) => [e.domainVerified, e.domainReason, e.status])).toEqual([
      [false, "nxdomain", "listed"],
      [false, "nxdomain", "listed"],
    ]);
    // Unclaimed again, the catalogue may update them again.
    const r = await runImport(t.db, s.url, { pauseMs: 0, allowPrivateItems: false });
    expect(r.skipped.claimed_listing ?? 0).toBe(0);

    dns.setTxt(record, [recordValueFor(token)]);
    await due();
    expect(await recheckEndpointDomains(t.db)).toMatchObject({ checked: 2, verified: 2 });
    expect((await claimed()).every((e) => e.domainVerified && e.domainReason === null)).toBe(true);
    // And the other domain's listing was never touched.
    const [other] = await t.db.select().from(endpoints).where(eq(endpoints.domain, "someone-else.com"));
    expect(other).toMatchObject({ domainVerified: false, domainNextCheckAt: null });
  });
});
