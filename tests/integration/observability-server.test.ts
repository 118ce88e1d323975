// Metrics and logs of a production server (`next start`): GET /api/metrics for a direct loopback
// caller while METRICS_TOKEN is unset, 403 for a request relayed by a proxy; one JSON log line per
// request with its id, operation, status, duration and caller kind, and no credential in the log.
// Needs a production build.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";

let database: { url: string; drop: () => Promise<void> };
let server: TestServer;

beforeAll(async () => {
  database = await createServerDatabase();
  server = await startServer({ DATABASE_URL: database.url, CAPDEX_SEED: "demo", CAPDEX_WORKER: "off", LOG_LEVEL: "info", METRICS_TOKEN: "" }, { timeoutMs: 240_000 });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /api/metrics without METRICS_TOKEN", () => {
  it("serves a direct loopback caller the Prometheus text format", async () => {
    // The pool's figures come from one query at scrape time, given 3 s; on a loaded CI machine the
    // first scrape after start can miss it (capdex_db_up 0), as a real scraper's would. Three tries.
    let res!: Response;
    let text = "";
    for (let attempt = 0; attempt < 3 && !text.includes("capdex_db_up 1"); attempt++) {
      res = await fetch(`${server.url}/api/metrics`);
      text = await res.text();
    }
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain("# TYPE capdex_http_requests_total counter");
    // The readiness checks of startServer() were counted.
    expect(text).toMatch(/capdex_http_requests_total\{operation="GET \/ready",status="200"\} \d+/);
    expect(text).toMatch(/capdex_db_connections\{state="(idle|active)"\} \d+/);
    expect(text).toContain("capdex_db_up 1");
    expect(text).toMatch(/capdex_db_pool_max \d+/);
  });

  it("refuses a request relayed by a proxy on loopback with 403 problem+json", async () => {
    const res = await fetch(`${server.url}/api/metrics`, { headers: { "x-forwarded-for": "203.0.113.50" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("forbidden");
  });
});

describe("the log", () => {
  it("has one JSON line per request, with request id, operation, status, duration and caller kind", async () => {
    const key = "cdx_0123456789abcdef0123456789abcdef";
    const email = "someone.secret@example.com";
    const requestId = "log-test-request-0001";
    await fetch(`${server.url}/api/discover`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": requestId },
      body: JSON.stringify({ capability_id: "weather.current", intent: email }),
    });
    const refused = await fetch(`${server.url}/api/capabilities`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    await new Promise((r) => setTimeout(r, 1_500));
    const lines = server.logs.join("").split("\n").filter((l) => l.startsWith("{"));
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const discover = events.find((e) => e.request_id === requestId);
    expect(discover).toMatchObject({ level: "info", msg: "request", operation: "POST /discover", status: 200, principal: "anonymous" });
    expect(typeof discover?.duration_ms).toBe("number");
    expect(events.find((e) => e.operation === "GET /capabilities" && e.status === 401)).toMatchObject({ principal: "unknown" });
    const all = server.logs.join("");
    expect(all).not.toContain(key);
    expect(all).not.toContain(email);
  });
});
