import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, installPeerStamp, normaliseAddress, trustedHops, PEER_HEADER } from "@/lib/auth/client-address";

const req = (xff?: string, extra: Record<string, string> = {}) =>
  new Request("http://localhost/api", { headers: { ...(xff !== undefined ? { "x-forwarded-for": xff } : {}), ...extra } });

describe("normaliseAddress", () => {
  it("keeps IPv4 addresses as they are", () => {
    expect(normaliseAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(normaliseAddress(" 203.0.113.7 ")).toBe("203.0.113.7");
    expect(normaliseAddress("203.0.113.7:8443")).toBe("203.0.113.7");
  });

  it("groups IPv6 addresses by /64", () => {
    expect(normaliseAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("[2001:db8:1:2::99]:443")).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80::/64");
  });

  it("treats IPv4-mapped IPv6 as the IPv4 address (a dual-stack socket reports those)", () => {
    expect(normaliseAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
  });

  it("turns anything else into one shared 'unknown' bucket", () => {
    for (const bad of ["", "nonsense", "1", "0x7f.1", "999.1.1.1", "2001:db8::zz", undefined]) {
      expect(normaliseAddress(bad)).toBe("unknown");
    }
  });
});

describe("trustedHops", () => {
  it("reads TRUST_PROXY_HOPS as a small whole number, 0 otherwise", () => {
    expect(trustedHops({})).toBe(0);
    expect(trustedHops({ TRUST_PROXY_HOPS: "2" })).toBe(2);
    expect(trustedHops({ TRUST_PROXY_HOPS: "-1" })).toBe(0);
    expect(trustedHops({ TRUST_PROXY_HOPS: "yes" })).toBe(0);
  });
});

describe("clientAddress without the server's stamp (in-process callers)", () => {
  it("takes the right-most X-Forwarded-For entry", () => {
    expect(clientAddress(req("198.51.100.1, 203.0.113.7"), 0)).toBe("203.0.113.7");
  });

  it("with N trusted hops takes the N+1-th entry from the right", () => {
    expect(clientAddress(req("198.51.100.1, 192.0.2.9, 10.0.0.2"), 1)).toBe("192.0.2.9");
    expect(clientAddress(req("198.51.100.1, 192.0.2.9, 10.0.0.2"), 2)).toBe("198.51.100.1");
    expect(clientAddress(req("10.0.0.2"), 3)).toBe("10.0.0.2");
  });

  it("says unknown when there is nothing to go on", () => {
    expect(clientAddress(req(), 0)).toBe("unknown");
  });
});

describe("clientAddress behind the real Node server (stamped socket address)", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    installPeerStamp();
    // What `next start` does: hand the headers on, filling X-Forwarded-For only when it is absent.
    server = http.createServer((r, res) => {
      r.headers["x-forwarded-for"] ??= r.socket.remoteAddress;
      const headers = new Headers();
      for (const [k, v] of Object.entries(r.headers)) if (typeof v === "string") headers.set(k, v);
      const hops = Number(headers.get("x-test-hops") ?? 0);
      res.end(clientAddress(new Request("http://localhost/", { headers }), hops));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = async (headers: Record<string, string>) => (await fetch(base, { headers })).text();

  it("uses the socket address when the client sends no X-Forwarded-For", async () => {
    expect(await ask({})).toBe("127.0.0.1");
  });

  it("ignores a client's own X-Forwarded-For without TRUST_PROXY_HOPS", async () => {
    expect(await ask({ "x-forwarded-for": "198.51.100.23" })).toBe("127.0.0.1");
  });

  it("ignores a forged stamp header", async () => {
    expect(await ask({ [PEER_HEADER]: "guess 198.51.100.23" })).toBe("127.0.0.1");
  });

  it("with one trusted hop takes the address the proxy appended", async () => {
    expect(await ask({ "x-forwarded-for": "198.51.100.1, 192.0.2.44", "x-test-hops": "1" })).toBe("192.0.2.44");
  });
});
