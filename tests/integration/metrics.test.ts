// GET /api/metrics in the Prometheus text format: API answers by operation and status with their
// latency, rate-limit decisions, how discover resolved, background job runs, process figures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import * as metricsRoute from "@/app/api/metrics/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { runIfDue } from "@/lib/jobs";
import { statsRefreshJob } from "@/lib/stats/jobs";

let t: TestDb;
const TOKEN = "metrics-test-token-0123456789";

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  process.env.METRICS_TOKEN = TOKEN;
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

async function scrape(): Promise<string> {
  const res = await metricsRoute.GET(new Request("http://localhost:3000/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }), {
    params: Promise.resolve({}),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

/** The value of one sample, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

const discover = (json: unknown, ip: string) =>
  call(discoverRoute.POST, "/api/discover", { method: "POST", json, headers: { "x-forwarded-for": ip } });

describe("GET /api/metrics", () => {
  it("answers 401 problem+json without the token", async () => {
    const res = await call(metricsRoute.GET, "/api/metrics");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe("unauthorized");
  });

  it("counts API answers by operation and status, with their latency", async () => {
    const before = await scrape();
    const ok = { operation: "POST /discover", status: "200" };
    const bad = { operation: "POST /discover", status: "422" };
    expect((await discover({ capability_id: "weather.current" }, "198.51.100.1")).status).toBe(200);
    expect((await discover({ capability_id: "weather.current" }, "198.51.100.1")).status).toBe(200);
    expect((await discover({ capability_id: 7 }, "198.51.100.1")).status).toBe(422);
    const after = await scrape();
    expect(sample(after, "capdex_http_requests_total", ok) - sample(before, "capdex_http_requests_total", ok)).toBe(2);
    expect(sample(after, "capdex_http_requests_total", bad) - sample(before, "capdex_http_requests_total", bad)).toBe(1);
    expect(sample(after, "capdex_http_request_duration_seconds_count", ok) - sample(before, "capdex_http_request_duration_seconds_count", ok)).toBe(2);
    expect(after).toMatch(/capdex_http_request_duration_seconds_bucket\{le="0.005",operation="POST \/discover",status="200"\}/);
  });

  it("counts rate-limit decisions and how discover resolved", async () => {
    const before = await scrape();
    const ip = "198.51.100.77";
    for (let i = 0; i < 61; i++) await discover({ capability_id: "weather.current" }, ip);
    expect((await discover({ capability_id: "weather.nowhere" }, "198.51.100.78")).status).toBe(404);
    await discover({ intent: "will it rain tomorrow in Paris" }, "198.51.100.79");
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("capdex_rate_limit_decisions_total", { policy: "discover", decision: "limited", store: "postgres" })).toBe(1);
    expect(delta("capdex_rate_limit_decisions_total", { policy: "discover", decision: "allowed", store: "postgres" })).toBe(62);
    expect(delta("capdex_discover_resolutions_total", { kind: "capability_id" })).toBe(60);
    expect(delta("capdex_discover_resolutions_total", { kind: "unresolved" })).toBe(1);
    expect(delta("capdex_discover_resolutions_total", { kind: "intent" })).toBe(1);
  });

  it("reports background job runs, their duration and lag, and the process's figures", async () => {
    expect(await runIfDue(t.db, statsRefreshJob, { force: true })).not.toBeNull();
    const text = await scrape();
    expect(sample(text, "capdex_job_runs_total", { job: "stats.refresh" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "capdex_job_failures_total", { job: "stats.refresh" })).toBe(0);
    expect(sample(text, "capdex_job_duration_seconds_count", { job: "stats.refresh" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "capdex_job_last_success_timestamp_seconds", { job: "stats.refresh" })).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    expect(text).toContain("process_resident_memory_bytes");
    expect(text).toContain("nodejs_heap_size_used_bytes");
  });
});
