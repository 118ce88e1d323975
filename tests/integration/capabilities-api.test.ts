import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as list from "@/app/api/capabilities/route";
import * as one from "@/app/api/capabilities/[id]/route";
import * as descriptor from "@/app/api/route";
import * as catchAll from "@/app/api/[...path]/route";
import * as ready from "@/app/api/ready/route";
import * as health from "@/app/api/health/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "demo" });
});
afterAll(async () => t?.close());

describe("GET /api", () => {
  it("returns the descriptor with every public operation", async () => {
    const res = await call(descriptor.GET, "/api");
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Capdex");
    expect(res.body.version).toMatch(/^0\.\d+$/);
    expect(res.body.docs).toBe("http://localhost:3000/docs");
    expect(Object.keys(res.body.endpoints as object)).toEqual(
      expect.arrayContaining(["POST /discover", "GET /capabilities", "GET /stats", "POST /submit", "POST /report_outcome"]),
    );
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("GET /api/capabilities", () => {
  it("lists the registry ordered by id, 100 per page by default", async () => {
    const res = await call(list.GET, "/api/capabilities");
    expect(res.status).toBe(200);
    const caps = res.body.capabilities as Array<{ id: string; endpoint_count?: number }>;
    expect(res.body.total).toBe(CATALOGUE.capabilities.length);
    expect(caps).toHaveLength(100);
    expect(caps.map((c) => c.id)).toEqual([...caps.map((c) => c.id)].sort());
    expect(caps[0]).not.toHaveProperty("endpoint_count");
    expect(typeof res.body.next_cursor).toBe("string");
  });

  it("filters by keyword over id, title, description and tags", async () => {
    const res = await call(list.GET, "/api/capabilities?search=forecast");
    const ids = (res.body.capabilities as Array<{ id: string }>).map((c) => c.id);
    expect(ids).toContain("weather.forecast");
    expect(ids).not.toContain("crypto.price");
  });

  it("filters by category (and its alias tag) and includes endpoint counts on request", async () => {
    const res = await call(list.GET, "/api/capabilities?category=weather&with_endpoints=true");
    const caps = res.body.capabilities as Array<{ id: string; category: string; endpoint_count: number }>;
    expect(caps.length).toBe(5);
    expect(caps.every((c) => c.category === "weather")).toBe(true);
    expect(caps.every((c) => c.endpoint_count >= 2 && c.endpoint_count <= 6)).toBe(true);
    const byTag = await call(list.GET, "/api/capabilities?tag=weather&with_endpoints=0");
    expect((byTag.body.capabilities as unknown[]).length).toBe(5);
  });

  it("pages with limit and cursor without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(list.GET, `/api/capabilities?limit=30${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.capabilities as Array<{ id: string }>).map((c) => c.id));
      cursor = res.body.next_cursor as string | null;
    } while (cursor);
    expect(seen).toHaveLength(CATALOGUE.capabilities.length);
    expect(new Set(seen).size).toBe(CATALOGUE.capabilities.length);
  });

  it.each(["limit=-1", "limit=1e9", "limit=abc", "limit=0", "limit=501", "with_endpoints=yes", "cursor=%25%25%25"])(
    "answers 422 problem+json for %s",
    async (qs) => {
      const res = await call(list.GET, `/api/capabilities?${qs}`);
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.status).toBe(422);
      expect((res.body.errors as Array<{ pointer: string }>)[0].pointer).toMatch(/^#\//);
    },
  );

  it("rejects a NUL character in a query parameter", async () => {
    const res = await call(list.GET, "/api/capabilities?search=a%00b");
    expect(res.status).toBe(422);
  });

  it("ignores unknown query parameters", async () => {
    const res = await call(list.GET, "/api/capabilities?utm_source=x&category=geo");
    expect(res.status).toBe(200);
    expect((res.body.capabilities as unknown[]).length).toBe(5);
  });
});

describe("GET /api/capabilities/{id}", () => {
  it("returns one capability", async () => {
    const res = await call(one.GET, "/api/capabilities/weather.current", { params: { id: "weather.current" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "weather.current", category: "weather", title: "Current weather" });
    expect(res.body).not.toHaveProperty("endpoints");
  });

  it("lists its endpoints in rank order with observed figures on request", async () => {
    // The demo capability whose endpoints have the most weighted history (a quiet one may have none
    // with weight: its few reports anonymous).
    const [top] = await queryRows<{ id: string }>(
      t.db,
      sql`select e.capability_id as id from endpoints e join endpoint_figures f on f.endpoint_id = e.id
          where e.is_demo group by 1 having count(*) >= 2 order by sum(f.w_total) desc, 1 limit 1`,
    );
    const res = await call(one.GET, `/api/capabilities/${top.id}?with_endpoints=true`, { params: { id: top.id } });
    const eps = res.body.endpoints as Array<{ score: number; observed: { success_rate_7d: number; sample_size_7d: number }; payment: { type: string } }>;
    expect(eps.length).toBe(res.body.endpoint_count);
    expect(eps.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < eps.length; i++) expect(eps[i - 1].score).toBeGreaterThanOrEqual(eps[i].score);
    expect(eps[0].payment.type).toBe("x402");
    expect(eps.some((e) => e.observed.sample_size_7d > 0 && e.observed.success_rate_7d !== null)).toBe(true);
  });

  it("answers 404 capability_not_found with suggestions", async () => {
    const res = await call(one.GET, "/api/capabilities/weather.curent", { params: { id: "weather.curent" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("capability_not_found");
    expect(res.body.suggestions).toContain("weather.current");
  });

  it("answers 405 with Allow for a wrong method", async () => {
    const res = await call(one.POST, "/api/capabilities/weather.current", { method: "POST", params: { id: "weather.current" } });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("everything else under /api", () => {
  it("answers problem+json 404 for unknown paths, whatever the method", async () => {
    for (const handler of [catchAll.GET, catchAll.POST, catchAll.DELETE]) {
      const res = await call(handler, "/api/nope/nothing", { method: handler === catchAll.GET ? "GET" : "POST" });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
      expect(res.body.type).toBe("http://localhost:3000/docs/errors#not_found");
    }
  });

  it("reports health and readiness", async () => {
    expect((await call(health.GET, "/api/health")).body).toEqual({ status: "ok" });
    const keyInQuery = await call(health.GET, "/api/health?api_key=cdx_abc");
    expect(keyInQuery.status).toBe(400);
    expect(keyInQuery.body).toMatchObject({ code: "bad_request", status: 400 });
    expect(keyInQuery.headers.get("content-type")).toBe("application/problem+json");
    const r = await call(ready.GET, "/api/ready");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("ready");
    expect(r.body.migrations).toBeGreaterThanOrEqual(1);
  });
});
