// POST /api/report_outcome as a caller sees it: 202 with a report id, precise problems for bad
// input, and nothing stored or counted when a request is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { queryRows } from "@/lib/db/client";
import { WEIGHTS, rollUpAll } from "@/lib/outcomes";
import * as reportRoute from "@/app/api/report_outcome/route";
import { addAccount, addDiscovery, addEndpoint, rollupOf } from "./outcomes-fixtures";

let t: TestDb;
let ep: string;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  ep = await addEndpoint(t.db);
});
afterAll(async () => t?.close());

const post = (json: unknown, init: RequestInit = {}) => call(reportRoute.POST, "/api/report_outcome", { method: "POST", json, ...init });

/** Everything a refused request could have changed (after counting whatever is pending). */
async function snapshot() {
  await rollUpAll(t.db);
  const [r] = await queryRows<Record<string, number>>(
    t.db,
    sql`select (select count(*) from outcome_reports)::int as reports,
               (select count(*) from outcome_reports where not rolled_up)::int as pending,
               (select coalesce(sum(reports), 0) from outcome_rollups)::int as rolled,
               (select coalesce(sum(w_total), 0) from outcome_rollups)::float8 as weight,
               (select count(*) from reporter_weights)::int as caps`,
  );
  return r;
}

describe("POST /api/report_outcome", () => {
  it("accepts a report with 202 { accepted, report_id } and stores it as sent", async () => {
    const res = await post({ endpoint_id: ep, success: false, latency_ms: 231.6, status_code: 503 });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["accepted", "report_id"]);
    expect(res.body.accepted).toBe(true);
    expect(res.body.report_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const [row] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select endpoint_id::text, success, latency_ms, status_code, reporter_kind, weight, rolled_up
          from outcome_reports where id = ${res.body.report_id as string}::uuid`,
    );
    expect(row).toMatchObject({ endpoint_id: ep, success: false, latency_ms: 232, status_code: 503, reporter_kind: "anonymous", rolled_up: false });
    // Without an API key a report is stored and counted as a report, at no weight.
    expect(Number(row.weight)).toBe(WEIGHTS.anonymous);
    expect(WEIGHTS.anonymous).toBe(0);
  });

  it("takes only endpoint_id and success; the rest is optional", async () => {
    const before = await rollupOf(t.db, ep);
    const res = await post({ endpoint_id: ep, success: true });
    expect(res.status).toBe(202);
    await rollUpAll(t.db);
    const after = await rollupOf(t.db, ep);
    expect(after.reports - before.reports).toBeGreaterThanOrEqual(1);
    expect(after.successes - before.successes).toBe(1);
  });

  it("counts a report with the caller's own fresh discovery_id double, and an expired or foreign one at the base weight", async () => {
    const me = await addAccount(t.db, "api-1");
    const stranger = await addAccount(t.db, "api-2");
    const counted: number[] = [];
    for (const [minutesAgo, who] of [[5, me], [60 * 20, me], [1, stranger]] as const) {
      const target = await addEndpoint(t.db);
      const discovery_id = await addDiscovery(t.db, who, [target], minutesAgo);
      const res = await post({ endpoint_id: target, success: true, discovery_id }, { headers: { authorization: `Bearer ${me.secret}` } });
      expect(res.status).toBe(202);
      await rollUpAll(t.db);
      counted.push((await rollupOf(t.db, target)).w_total);
    }
    expect(counted).toEqual([8, 4, 4]);
  });

  it("stores what went wrong and what the call cost, alone and when reports are written together", async () => {
    const one = await post({ endpoint_id: ep, success: false, failure: "payment_failed", paid_amount: 0 });
    expect(one.status).toBe(202);
    const batch = await Promise.all([
      post({ endpoint_id: ep, success: false, failure: "timeout", paid_amount: 0.002, latency_ms: 30_000 }),
      post({ endpoint_id: ep, success: false, failure: "wrong_output", paid_amount: 0.0015 }),
      post({ endpoint_id: ep, success: true, paid_amount: 0.001 }),
    ]);
    const ids = [one, ...batch].map((r) => r.body.report_id as string);
    const rows = await queryRows<{ id: string; failure: string | null; paid_amount: number | null }>(
      t.db,
      sql`select id::text, failure, paid_amount from outcome_reports where id = any(${`{${ids.join(",")}}`}::uuid[])`,
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, [r.failure, r.paid_amount === null ? null : Number(r.paid_amount)]]));
    expect(ids.map((id) => byId[id])).toEqual([["payment_failed", 0], ["timeout", 0.002], ["wrong_output", 0.0015], [null, 0.001]]);
  });

  it("lists the accepted fields when a field is unknown, in the detail and in accepted_fields", async () => {
    const res = await post({ endpoint_id: ep, success: false, error: "timeout" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_field");
    const accepted = ["endpoint_id", "success", "latency_ms", "status_code", "discovery_id", "failure", "paid_amount", "payment"];
    expect(res.body.accepted_fields).toEqual(accepted);
    expect(res.body.detail).toBe(`This operation does not take error. It takes ${accepted.join(", ")}.`);
  });

  it("answers 405 with Allow to other methods", async () => {
    const res = await call(reportRoute.GET, "/api/report_outcome");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("bad input changes nothing", () => {
  const unknownId = "0b7c4a57-2f7e-4c1f-9a35-8d6d1f1f9b0e";
  const cases: Array<[string, () => unknown, number, string, string?]> = [
    ["a non-UUID endpoint_id", () => ({ endpoint_id: "endpoint-1", success: true }), 422, "validation_failed", "#/endpoint_id"],
    ["an unknown endpoint_id", () => ({ endpoint_id: unknownId, success: true }), 404, "endpoint_not_found"],
    ["success as a string", () => ({ endpoint_id: ep, success: "true" }), 422, "validation_failed", "#/success"],
    ["no success at all", () => ({ endpoint_id: ep }), 422, "validation_failed", "#/success"],
    ["a negative latency", () => ({ endpoint_id: ep, success: true, latency_ms: -1 }), 422, "validation_failed", "#/latency_ms"],
    ["a latency of 1e308", () => ({ endpoint_id: ep, success: true, latency_ms: 1e308 }), 422, "validation_failed", "#/latency_ms"],
    ["a latency as a string", () => ({ endpoint_id: ep, success: true, latency_ms: "5" }), 422, "validation_failed", "#/latency_ms"],
    ["status_code 42", () => ({ endpoint_id: ep, success: true, status_code: 42 }), 422, "validation_failed", "#/status_code"],
    ["status_code 700", () => ({ endpoint_id: ep, success: true, status_code: 700 }), 422, "validation_failed", "#/status_code"],
    ["a fractional status_code", () => ({ endpoint_id: ep, success: true, status_code: 200.5 }), 422, "validation_failed", "#/status_code"],
    ["a non-UUID discovery_id", () => ({ endpoint_id: ep, success: true, discovery_id: "abc" }), 422, "validation_failed", "#/discovery_id"],
    ["a weight field", () => ({ endpoint_id: ep, success: true, weight: 100 }), 422, "unknown_field", "#/weight"],
    ["a score field", () => ({ endpoint_id: ep, success: true, score: 1 }), 422, "unknown_field", "#/score"],
    ["an unknown failure", () => ({ endpoint_id: ep, success: false, failure: "slow" }), 422, "validation_failed", "#/failure"],
    ["a negative paid_amount", () => ({ endpoint_id: ep, success: true, paid_amount: -0.01 }), 422, "validation_failed", "#/paid_amount"],
    ["paid_amount as a string", () => ({ endpoint_id: ep, success: true, paid_amount: "0.01" }), 422, "validation_failed", "#/paid_amount"],
    ["an array body", () => [{ endpoint_id: ep, success: true }], 422, "validation_failed"],
  ];

  for (const [name, body, status, code, pointer] of cases) {
    it(`refuses ${name} with ${status} ${code}`, async () => {
      const before = await snapshot();
      const res = await post(body());
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(res.body.code).toBe(code);
      expect(res.body.status).toBe(status);
      if (pointer) expect((res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toContain(pointer);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("refuses a latency that overflows JSON numbers (1e400) and malformed JSON", async () => {
    const before = await snapshot();
    const overflow = await call(reportRoute.POST, "/api/report_outcome", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"endpoint_id":"${ep}","success":true,"latency_ms":1e400}`,
    });
    expect(overflow.status).toBe(422);
    expect((overflow.body.errors as Array<{ pointer: string }>)[0].pointer).toBe("#/latency_ms");
    const broken = await call(reportRoute.POST, "/api/report_outcome", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"endpoint_id":"${ep}","success":tru`,
    });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("invalid_json");
    const text = await call(reportRoute.POST, "/api/report_outcome", { method: "POST", body: "success=true" });
    expect(text.status).toBe(415);
    expect(await snapshot()).toEqual(before);
  });
});
