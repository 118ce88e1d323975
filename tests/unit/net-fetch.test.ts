import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { assertPublicUrl, NetError, safeFetch } from "@/lib/net";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

let dns: DnsTestServer;
let server: X402TestServer;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  server = await startX402Server({
    "/ok": { kind: "status", status: 200, body: '{"hello":"world"}' },
    "/redirect": { kind: "redirect", location: "http://127.0.0.1:1/admin" },
    "/big": { kind: "big", bytes: 200 * 1024 },
    "/hang": { kind: "hang" },
    "/echo-method": { kind: "status", status: 201 },
  });
});

afterAll(async () => {
  await server.close();
  await dns.close();
  delete process.env.DNS_SERVERS;
});

beforeEach(() => {
  server.reset();
  dns.reset();
});

async function failure(p: Promise<unknown>): Promise<NetError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

describe("safeFetch without ALLOW_PRIVATE_TARGETS", () => {
  beforeEach(() => {
    delete process.env.ALLOW_PRIVATE_TARGETS;
  });

  it("refuses http:// and other schemes", async () => {
    expect((await failure(safeFetch(server.url("/ok")))).code).toBe("insecure_scheme");
    expect((await failure(safeFetch("ftp://example.com/"))).code).toBe("invalid_url");
    expect((await failure(safeFetch("file:///etc/passwd"))).code).toBe("invalid_url");
    expect((await failure(safeFetch("not a url"))).code).toBe("invalid_url");
    expect((await failure(safeFetch("https://user:pw@example.com/"))).code).toBe("invalid_url");
    expect(server.connections()).toBe(0);
  });

  it.each([
    "https://127.0.0.1:PORT/ok",
    "https://[::1]:PORT/ok",
    "https://[::ffff:127.0.0.1]:PORT/ok",
    "https://[::ffff:7f00:1]:PORT/ok",
    "https://[64:ff9b::7f00:1]:PORT/ok",
    "https://[2002:7f00:1::]:PORT/ok",
    "https://0.0.0.0:PORT/ok",
    "https://2130706433:PORT/ok", // 127.0.0.1 as one number: the URL parser normalises it
    "https://0x7f.1:PORT/ok",
  ])("refuses the IP literal in %s without connecting", async (template) => {
    const err = await failure(safeFetch(template.replace("PORT", String(server.port))));
    expect(err.code).toBe("private_address");
    expect(server.connections()).toBe(0);
  });

  it("refuses a host name that resolves to a private address, before any connection", async () => {
    dns.setA("internal.probe.test", ["127.0.0.1"]);
    const err = await failure(safeFetch(`https://internal.probe.test:${server.port}/ok`));
    expect(err.code).toBe("private_address");
    expect(dns.queryCount("internal.probe.test")).toBeGreaterThan(0);
    expect(server.connections()).toBe(0);
  });

  it("refuses a name with one public and one private address", async () => {
    dns.setA("mixed.probe.test", ["8.8.8.8"]);
    dns.setAAAA("mixed.probe.test", ["::1"]);
    expect((await failure(assertPublicUrl("https://mixed.probe.test/"))).code).toBe("private_address");
    expect((await failure(safeFetch(`https://mixed.probe.test:${server.port}/ok`))).code).toBe("private_address");
    expect(server.connections()).toBe(0);
  });

  it("checks the address again when the socket connects (DNS rebinding)", async () => {
    dns.setA("rebind.probe.test", ["8.8.8.8"]);
    // the first lookup (a validation) sees a public address...
    await expect(assertPublicUrl("https://rebind.probe.test/")).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
    // ...then the name is re-pointed at loopback: the request's own lookup, at connect time, refuses it
    dns.setA("rebind.probe.test", ["127.0.0.1"]);
    const err = await failure(safeFetch(`https://rebind.probe.test:${server.port}/ok`));
    expect(err.code).toBe("private_address");
    expect(server.connections()).toBe(0);
  });

  it("reports a name that does not resolve", async () => {
    const err = await failure(safeFetch("https://missing.probe.test/"));
    expect(err.code).toBe("dns_failed");
  });
});

describe("safeFetch with ALLOW_PRIVATE_TARGETS=1", () => {
  beforeEach(() => {
    process.env.ALLOW_PRIVATE_TARGETS = "1";
  });
  afterEach(() => {
    delete process.env.ALLOW_PRIVATE_TARGETS;
  });

  it("fetches from loopback over http", async () => {
    const res = await safeFetch(server.url("/ok"));
    expect(res.status).toBe(200);
    expect(res.text()).toBe('{"hello":"world"}');
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.truncated).toBe(false);
    expect(res.remoteAddress).toBe("127.0.0.1");
  });

  it("resolves host names with the configured DNS servers and connects to the checked address", async () => {
    dns.setA("local-provider.probe.test", ["127.0.0.1"]);
    const res = await safeFetch(`http://local-provider.probe.test:${server.port}/ok`);
    expect(res.status).toBe(200);
    expect(res.remoteAddress).toBe("127.0.0.1");
    expect(dns.queryCount("local-provider.probe.test")).toBeGreaterThan(0);
  });

  it("sends the method and body it is given", async () => {
    const res = await safeFetch(server.url("/echo-method"), { method: "post", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(201);
    expect(server.methods("/echo-method")).toEqual(["POST"]);
  });

  it("returns a redirect without following it", async () => {
    const res = await safeFetch(server.url("/redirect"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://127.0.0.1:1/admin");
    expect(server.hits("/redirect")).toBe(1);
    expect(server.connections()).toBe(1);
  });

  it("reads at most 64 KiB and says it stopped", async () => {
    const res = await safeFetch(server.url("/big"));
    expect(res.status).toBe(402);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(64 * 1024);
  });

  it("gives up on a server that never answers after the 5 s deadline", async () => {
    const err = await failure(safeFetch(server.url("/hang")));
    expect(err.code).toBe("timeout");
    expect(server.hits("/hang")).toBe(1);
  });

  it("gives up at once when its signal is aborted, before the deadline, and refuses to start when already aborted", async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 200);
    const err = await failure(safeFetch(server.url("/hang"), { signal: ac.signal }));
    expect(err.code).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(4_000);
    const before = server.hits("/hang");
    expect((await failure(safeFetch(server.url("/hang"), { signal: ac.signal }))).code).toBe("aborted");
    expect(server.hits("/hang")).toBe(before);
  });

  it("refuses a certificate it cannot verify", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-tls-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
    const tls = https.createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) }, (_q, r) => r.end("ok"));
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    try {
      const err = await failure(safeFetch(`https://127.0.0.1:${(tls.address() as AddressInfo).port}/`));
      expect(err.code).toBe("tls_error");
    } finally {
      tls.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a refused connection", async () => {
    const err = await failure(safeFetch("http://127.0.0.1:1/"));
    expect(err.code).toBe("connection_failed");
  });
});
