import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { checkEndpointUrl } from "@/lib/submissions/url";

function rejection(url: string, allowPrivate = false): ApiError {
  try {
    checkEndpointUrl(url, { allowPrivate });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`${url} was accepted`);
}

const label = (url: string) => (url.length > 80 ? `${url.slice(0, 40)}... (${url.length} characters)` : JSON.stringify(url));

describe("checkEndpointUrl (public mode)", () => {
  it.each(
    [
    ["http://api.acme.com/x", /https/],
    ["ftp://api.acme.com/x", /https/],
    ["javascript:alert(1)", /https/],
    ["api.acme.com/x", /absolute/],
    ["https:api.acme.com", /absolute/],
    ["https://169.254.169.254/latest/meta-data", /IP address/],
    ["https://[::1]/", /IP address/],
    ["https://[::ffff:127.0.0.1]/", /IP address/],
    ["https://2130706433/", /IP address/],
    ["https://0x7f.1/", /IP address/],
    ["https://0177.0.0.1/", /IP address/],
    ["https://127.1/", /IP address/],
    ["https://8.8.8.8/", /IP address/],
    ["https://user:pw@api.acme.com/", /user name/],
    ["https://user@api.acme.com/", /user name/],
    ["https://localhost/", /special-use/],
    ["https://api.localhost/", /special-use/],
    ["https://printer.local/", /special-use/],
    ["https://db.internal/", /special-use/],
    ["https://shop.test/", /special-use/],
    ["https://api.example/", /special-use/],
    ["https://example.com/", /special-use/],
    ["https://api.example.org/", /special-use/],
    ["https://x.onion/", /special-use/],
    ["https://nas.home.arpa/", /special-use/],
    ["https://intranet.corp/", /special-use/],
    ["https://co.uk/", /public suffix/],
    ["https://github.io/", /public suffix/],
    ["https://com/", /special-use|public suffix/],
    ["https://a_b.acme.com/", /letters, digits and hyphens/],
    ["https://-a.acme.com/", /letters, digits and hyphens/],
    ["https://a..acme.com/", /letters, digits and hyphens/],
    ["https://api.acme.com\\@evil.com/", /backslash/],
    ["https://api.acme.com/a b", /white space/],
    [" https://api.acme.com/", /white space/],
    ["https://api.acme.com/\n", /white space/],
    ["https://xn--zz.com/", /punycode|valid URL/],
    [`https://${"a".repeat(64)}.com/`, /1 to 63/],
    [`https://${"abcdefghi.".repeat(24)}com/`, /at most 235/],
    [`https://api.acme.com/${"x".repeat(3000)}`, /2048/],
    ].map(([url, detail]) => [label(url as string), url as string, detail as RegExp] as const),
  )("refuses %s", (_label, url, detail) => {
    const err = rejection(url);
    expect(err.code).toBe("validation_failed");
    expect(err.errors?.[0]?.pointer).toBe("#/endpoint_url");
    expect(err.errors?.[0]?.detail).toMatch(detail);
  });

  it("normalises case, the trailing dot, default port and fragment", () => {
    expect(checkEndpointUrl("HTTPS://API.Acme-Weather.COM.:443/V1/Now?q=1#frag", { allowPrivate: false })).toEqual({
      url: "https://api.acme-weather.com/V1/Now?q=1",
      host: "api.acme-weather.com",
      domain: "acme-weather.com",
    });
  });

  it("turns international names into punycode and finds the registrable domain", () => {
    const t = checkEndpointUrl("https://API.Bücher.de/x", { allowPrivate: false });
    expect(t).toEqual({ url: "https://api.xn--bcher-kva.de/x", host: "api.xn--bcher-kva.de", domain: "xn--bcher-kva.de" });
  });

  it("honours private suffixes: a github.io site is its own registrable domain", () => {
    expect(checkEndpointUrl("https://api.myapp.github.io/", { allowPrivate: false }).domain).toBe("myapp.github.io");
    expect(checkEndpointUrl("https://other.github.io/", { allowPrivate: false }).domain).toBe("other.github.io");
    expect(checkEndpointUrl("https://svc.acme.co.uk:8443/p", { allowPrivate: false })).toEqual({
      url: "https://svc.acme.co.uk:8443/p",
      host: "svc.acme.co.uk",
      domain: "acme.co.uk",
    });
  });
});

describe("checkEndpointUrl with ALLOW_PRIVATE_TARGETS", () => {
  it("accepts http, loopback addresses and special-use names", () => {
    expect(checkEndpointUrl("http://127.0.0.1:8080/x", { allowPrivate: true })).toMatchObject({ host: "127.0.0.1", url: "http://127.0.0.1:8080/x" });
    expect(checkEndpointUrl("http://[::1]:8080/x", { allowPrivate: true }).host).toBe("[::1]");
    expect(checkEndpointUrl("http://localhost:8080/x", { allowPrivate: true }).host).toBe("localhost");
    expect(checkEndpointUrl("https://api.provider.test/x", { allowPrivate: true })).toMatchObject({ host: "api.provider.test", domain: "provider.test" });
  });

  it("still refuses other schemes, userinfo and non-loopback addresses", () => {
    expect(rejection("ftp://localhost/", true).errors?.[0]?.detail).toMatch(/https/);
    expect(rejection("http://u:p@localhost/", true).errors?.[0]?.detail).toMatch(/user name/);
    expect(rejection("http://10.0.0.5/", true).errors?.[0]?.detail).toMatch(/IP address/);
    expect(rejection("http://169.254.169.254/", true).errors?.[0]?.detail).toMatch(/IP address/);
  });

  it("reads the switch from the environment by default", () => {
    const before = process.env.ALLOW_PRIVATE_TARGETS;
    try {
      process.env.ALLOW_PRIVATE_TARGETS = "1";
      expect(checkEndpointUrl("http://localhost:9/").host).toBe("localhost");
      delete process.env.ALLOW_PRIVATE_TARGETS;
      expect(() => checkEndpointUrl("http://localhost:9/")).toThrow(ApiError);
    } finally {
      if (before === undefined) delete process.env.ALLOW_PRIVATE_TARGETS;
      else process.env.ALLOW_PRIVATE_TARGETS = before;
    }
  });
});
