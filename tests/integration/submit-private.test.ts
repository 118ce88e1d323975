// ALLOW_PRIVATE_TARGETS=1 (tests and local development): a whole provider journey on one machine,
// with an http:// endpoint on a special-use name and the record on a loopback DNS server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { call } from "../helpers/http";
import * as submit from "@/app/api/submit/route";
import * as verify from "@/app/api/submit/[id]/verify/route";

let t: TestDb;
let dns: DnsTestServer;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
  await t?.close();
  await dns?.close();
});

const body = (endpoint_url: string) => ({
  endpoint_url,
  capability_id: "weather.current",
  contact_email: "dev@provider.test",
  provider_name: "Local Dev",
  price_per_call: 0,
});

describe("with ALLOW_PRIVATE_TARGETS=1", () => {
  it("lists an http:// endpoint on a .test name once its record is on the local DNS server", async () => {
    const res = await call(submit.POST, "/api/submit", { method: "POST", json: body("http://api.provider.test:8787/weather") });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ domain: "api.provider.test", registrable_domain: "provider.test", endpoint_url: "http://api.provider.test:8787/weather" });
    const v = res.body.verification as { record_name: string; record_value: string };
    dns.setTxt("_capdex-challenge.provider.test", [v.record_value]);
    const id = res.body.submission_id as string;
    const done = await call(verify.POST, `/api/submit/${id}/verify`, { method: "POST", params: { id } });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("verified");
  });

  it("accepts loopback addresses and localhost, but still no other private address", async () => {
    for (const url of ["http://127.0.0.1:8787/a", "http://[::1]:8787/a", "http://localhost:8787/a"]) {
      expect((await call(submit.POST, "/api/submit", { method: "POST", json: body(url) })).status).toBe(202);
    }
    const lan = await call(submit.POST, "/api/submit", { method: "POST", json: body("http://192.168.1.10/a") });
    expect(lan.status).toBe(422);
    expect(lan.body.errors).toEqual([expect.objectContaining({ pointer: "#/endpoint_url" })]);
  });
});
