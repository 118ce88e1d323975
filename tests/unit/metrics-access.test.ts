// Who may read GET /api/metrics: the bearer of METRICS_TOKEN when it is set (401 otherwise), else a
// direct connection from loopback only (403 otherwise), never a request relayed by a proxy.
import { describe, expect, it } from "vitest";
import { metricsAccessProblem } from "@/lib/metrics/exposition";

const req = (peer: string | undefined, forwardedFor: string | null = null, authorization: string | null = null) => ({ peer, forwardedFor, authorization });

describe("metrics access without METRICS_TOKEN", () => {
  it("serves a direct connection from loopback, IPv4 or IPv6", () => {
    expect(metricsAccessProblem(req("127.0.0.1"), "")).toBeNull();
    // `next start` adds the peer itself as X-Forwarded-For when a request has none.
    expect(metricsAccessProblem(req("127.0.0.1", "127.0.0.1"), "")).toBeNull();
    expect(metricsAccessProblem(req("::1", "::1"), "")).toBeNull();
    expect(metricsAccessProblem(req("::ffff:127.0.0.1"), "")).toBeNull();
  });

  it("refuses other addresses and requests relayed by a proxy on loopback with 403", () => {
    expect(metricsAccessProblem(req("203.0.113.9"), "")?.status).toBe(403);
    expect(metricsAccessProblem(req("10.1.2.3"), "")?.code).toBe("forbidden");
    expect(metricsAccessProblem(req("127.0.0.1", "203.0.113.9"), "")?.status).toBe(403);
    expect(metricsAccessProblem(req("127.0.0.1", "127.0.0.1, 203.0.113.9"), "")?.status).toBe(403);
    expect(metricsAccessProblem(req(undefined), "")?.status).toBe(403);
  });
});

describe("metrics access with METRICS_TOKEN", () => {
  const token = "metrics-secret-1234";
  it("serves the bearer of the token, from anywhere", () => {
    expect(metricsAccessProblem(req("203.0.113.9", "198.51.100.1", `Bearer ${token}`), token)).toBeNull();
    expect(metricsAccessProblem(req("10.0.0.1", null, `bearer  ${token} `), token)).toBeNull();
  });

  it("answers 401 with WWW-Authenticate to anyone else, loopback included", () => {
    for (const problem of [
      metricsAccessProblem(req("127.0.0.1"), token),
      metricsAccessProblem(req("127.0.0.1", null, "Bearer wrong"), token),
      metricsAccessProblem(req("127.0.0.1", null, token), token),
    ]) {
      expect(problem?.status).toBe(401);
      expect(problem?.code).toBe("unauthorized");
      expect(problem?.headers?.["WWW-Authenticate"]).toContain("Bearer");
    }
  });
});
