// lib/dns/resolver.ts against the loopback DNS test server: what each kind of answer becomes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { configuredDnsServers, createResolver, lookupTxt } from "@/lib/dns/resolver";

let dns: DnsTestServer;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
});
afterAll(async () => dns?.close());
beforeEach(() => dns.reset());

describe("lookupTxt", () => {
  it("returns every record with its separate character strings", async () => {
    dns.setTxt("_capdex-challenge.api.acme.com", [["part one ", "part two"], "second record"]);
    const r = await lookupTxt("_capdex-challenge.api.acme.com");
    expect(r.status).toBe("found");
    expect(r.records).toEqual(expect.arrayContaining([["part one ", "part two"], ["second record"]]));
    expect(r.records).toHaveLength(2);
  });

  it("treats names case-insensitively and ignores a trailing dot", async () => {
    dns.setTxt("Mixed.Case.COM.", ["x"]);
    expect((await lookupTxt("mixed.case.com")).records).toEqual([["x"]]);
    expect((await lookupTxt("MIXED.case.com.")).records).toEqual([["x"]]);
  });

  it.each([
    ["a name with only an A record", "no_records", (n: string) => dns.setA(n, ["192.0.2.7"])],
    ["an unknown name", "nxdomain", () => {}],
    ["SERVFAIL", "servfail", (n: string) => dns.misbehave(n, "servfail")],
    ["REFUSED", "refused", (n: string) => dns.misbehave(n, "refused")],
    ["NXDOMAIN for a known name", "nxdomain", (n: string) => {
      dns.setTxt(n, ["x"]);
      dns.misbehave(n, "nxdomain");
    }],
  ] as const)("reads %s as %s", async (_what, status, arrange) => {
    arrange("probe.status-co.com");
    expect(await lookupTxt("probe.status-co.com")).toEqual({ name: "probe.status-co.com", status, records: [] });
  });

  it("gives up on a server that never answers with status timeout", async () => {
    dns.misbehave("*", "silent");
    const r = await lookupTxt("quiet.status-co.com", { deadlineMs: 1500 });
    expect(r.status).toBe("timeout");
    expect(dns.queryCount("quiet.status-co.com")).toBeGreaterThanOrEqual(1);
  });
});

describe("DNS_SERVERS", () => {
  it("is a comma-separated list of host:port", () => {
    expect(configuredDnsServers(" 127.0.0.1:5353, [::1]:53 ,")).toEqual(["127.0.0.1:5353", "[::1]:53"]);
    expect(configuredDnsServers("")).toBeNull();
  });

  it("points the resolver at the servers given", () => {
    expect(createResolver().getServers()).toEqual([dns.address]);
  });
});
