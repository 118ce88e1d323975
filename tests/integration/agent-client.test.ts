// The agents' TypeScript client (clients/typescript) against a running Capdex (the production
// server) and real HTTP servers on loopback playing providers: free endpoints (the first call fails,
// so the client falls back to the next one), one that returns a settlement in PAYMENT-RESPONSE,
// and an x402 endpoint (official Hono middleware) paid through @x402/fetch with a throwaway key.
// No chain: the paid path goes as far as the payment being refused by the test facilitator, and is
// reported as payment_failed; a settled payment needs a chain (another engineer's test).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { CapdexClient, paymentEvidenceOf } from "../../clients/typescript/src/index";
import { payingFetchOf, x402Client } from "../../clients/typescript/src/x402";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let server: TestServer;
let dns: DnsTestServer;
let hono: HonoX402Server;
let providers: http.Server;
let providerPort = 0;
let database: { url: string; drop: () => Promise<void> } | undefined;
const calls: string[] = [];
let failNextCall = true;
const SETTLEMENT = { success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:8453", payer: "0x1111111111111111111111111111111111111111" };

/** What the client sent to report_outcome (the bodies), seen on the wire. */
const reports: Array<Record<string, unknown>> = [];
const recordingFetch: typeof fetch = async (input, init) => {
  if (String(input).endsWith("/api/report_outcome") && typeof init?.body === "string") reports.push(JSON.parse(init.body));
  return fetch(input, init);
};

/** Stands in for /etc/hosts: the providers' .test names go to loopback (the server resolves them through `dns`). */
const loopbackFetch = (base: typeof fetch = fetch): typeof fetch => async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const host = url.host;
  if (url.hostname.endsWith(".test")) url.hostname = "127.0.0.1";
  const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
  headers.set("host", host);
  if (input instanceof Request) return base(new Request(url, { method: input.method, headers, body: input.body, duplex: "half" } as RequestInit));
  return base(url, { ...init, headers });
};

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Submit, publish the TXT record on the test DNS server, verify (which probes it at once). */
async function list(host: string, url: string, capability: string, price: number) {
  dns.setA(host, ["127.0.0.1"]);
  const submitted = await post("/api/submit", { endpoint_url: url, capability_id: capability, contact_email: `ops@${host}`, provider_name: host, price_per_call: price });
  expect(submitted.status).toBe(202);
  const v = submitted.body.verification as { record_name: string; record_value: string };
  dns.setTxt(v.record_name, [v.record_value]);
  const verified = await post(`/api/submit/${submitted.body.submission_id}/verify`, {});
  expect(verified.status).toBe(200);
}

beforeAll(async () => {
  dns = await startDnsServer();
  providers = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const called = url.searchParams.has("city");
    if (called) calls.push(`${req.headers.host}${url.pathname}`);
    if (called && url.pathname !== "/settled" && failNextCall) {
      failNextCall = false;
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"overloaded"}');
      return;
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (url.pathname === "/settled") headers["payment-response"] = Buffer.from(JSON.stringify(SETTLEMENT)).toString("base64");
    res.writeHead(200, headers).end(JSON.stringify({ city: url.searchParams.get("city"), temperature_c: 4 }));
  });
  await new Promise<void>((r) => providers.listen(0, "127.0.0.1", r));
  providerPort = (providers.address() as AddressInfo).port;
  hono = await startHonoX402Server([{ method: "GET", path: "/v1/geocode", price: "$0.001", answer: { lat: 59.9, lon: 10.7 } }]);
  if (process.env.DATABASE_URL) database = await createServerDatabase();
  server = await startServer(
    {
      CAPDEX_SEED: "catalogue",
      DISCOVERY_EXPLORATION_RATE: "0",
      DISCOVERY_CACHE_MS: "0",
      CAPDEX_WORKER: "off",
      CAPDEX_RATE_LIMIT: "off",
      ALLOW_PRIVATE_TARGETS: "1",
      DNS_SERVERS: dns.address,
      DATABASE_URL: database?.url,
    },
    { timeoutMs: 240_000 },
  );
  await list("api.free-one.test", `http://api.free-one.test:${providerPort}/weather`, "weather.current", 0);
  await list("api.free-two.test", `http://api.free-two.test:${providerPort}/weather`, "weather.current", 0);
  await list("api.settled.test", `http://api.settled.test:${providerPort}/settled`, "weather.forecast", 0);
  await list("api.paid-geo.test", `http://api.paid-geo.test:${new URL(hono.origin).port}/v1/geocode`, "geo.geocode", 0.001);
}, 400_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await hono?.close();
  await new Promise((r) => providers?.close(r));
  await dns?.close();
});

describe("the TypeScript client", () => {
  it("discovers, falls back when the first endpoint fails, and reports both calls", async () => {
    const client = new CapdexClient({ baseUrl: server.url, fetch: recordingFetch, payingFetch: loopbackFetch() });
    const found = await client.discover({ capability_id: "weather.current" });
    expect(found.ranked_endpoints).toHaveLength(2);
    reports.length = 0;
    const result = await client.call({ capability_id: "weather.current" }, { input: { city: "Oslo" } });
    expect(result.ok).toBe(true);
    expect(result.data).toEqual({ city: "Oslo", temperature_c: 4 });
    expect(result.attempts.map((a) => [a.ok, a.status, a.failure])).toEqual([
      [false, 503, "http_error"],
      [true, 200, undefined],
    ]);
    // the second endpoint called is the second of the ranked list
    expect(result.endpoint?.endpoint_id).toBe(result.discovery.ranked_endpoints[1].endpoint_id);
    expect(calls).toHaveLength(2);
    for (const a of result.attempts) expect(a.report).toMatchObject({ accepted: true });
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ success: false, status_code: 503, failure: "http_error", discovery_id: result.discovery.discovery_id, paid_amount: 0 });
    expect(reports[0].latency_ms).toEqual(expect.any(Number));
    expect(reports[1]).toMatchObject({ success: true, status_code: 200, endpoint_id: result.endpoint?.endpoint_id });
  });

  it("reads the settlement of PAYMENT-RESPONSE, and sends report_outcome only fields it accepts", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { components: { schemas: { OutcomeReport: { properties: Record<string, unknown> } } } };
    const accepted = Object.keys(doc.components.schemas.OutcomeReport.properties);
    const client = new CapdexClient({ baseUrl: server.url, fetch: recordingFetch, payingFetch: loopbackFetch() });
    reports.length = 0;
    const result = await client.call({ capability_id: "weather.forecast" }, { input: { city: "Oslo" } });
    expect(result.ok).toBe(true);
    expect(result.attempts[0].payment).toEqual({ network: SETTLEMENT.network, transaction: SETTLEMENT.transaction, payer: SETTLEMENT.payer });
    expect(result.attempts[0].report).toMatchObject({ accepted: true });
    for (const key of Object.keys(reports[0])) expect(accepted).toContain(key);
    // `payment` goes out exactly when this server's report_outcome takes it
    expect("payment" in reports[0]).toBe(accepted.includes("payment"));
  });

  it("pays a 402 through @x402/fetch with the caller's signer, and reports a refused payment as payment_failed", async () => {
    const x402 = new x402Client();
    registerExactEvmScheme(x402, { signer: privateKeyToAccount(generatePrivateKey()) });
    const client = new CapdexClient({ baseUrl: server.url, fetch: recordingFetch, payingFetch: payingFetchOf(x402, loopbackFetch()) });
    reports.length = 0;
    const result = await client.call({ capability_id: "geo.geocode" }, { input: { q: "Oslo" } });
    expect(result.ok).toBe(false);
    expect(result.attempts).toHaveLength(1);
    const [a] = result.attempts;
    // the paying fetch signed and retried; the test facilitator refuses to verify (there is no chain), so 402 again
    expect(a).toMatchObject({ ok: false, failure: "payment_failed" });
    expect(a.status === 402 || typeof a.error === "string").toBe(true);
    expect(a.report).toMatchObject({ accepted: true });
    expect(reports[0]).toMatchObject({ success: false, failure: "payment_failed", paid_amount: 0 });
  });

  it("parses a settlement header and ignores a malformed one", () => {
    const ok = new Response("", { headers: { "payment-response": Buffer.from(JSON.stringify(SETTLEMENT)).toString("base64") } });
    expect(paymentEvidenceOf(ok)).toEqual({ network: SETTLEMENT.network, transaction: SETTLEMENT.transaction, payer: SETTLEMENT.payer });
    expect(paymentEvidenceOf(new Response("", { headers: { "payment-response": "not base64 json" } }))).toBeUndefined();
    expect(paymentEvidenceOf(new Response(""))).toBeUndefined();
  });
});
