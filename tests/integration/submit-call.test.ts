// A provider without the bazaar extension describes how to call the endpoint when submitting: the
// description is checked like a declaration, listed with the endpoint as `submitted`, and replaced
// by the endpoint's own declaration once a probe reads one.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints, submissions } from "@/lib/db/schema";
import { approveSubmission } from "@/lib/submissions/operator";
import { probeEndpoint } from "@/lib/probes";
import * as submit from "@/app/api/submit/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startHonoX402Server, type HonoX402Server } from "../helpers/x402-hono";

let t: TestDb;
let hono: HonoX402Server;
let ip = 0;
const post = (json: unknown) => call(submit.POST, "/api/submit", { method: "POST", json, headers: { "x-forwarded-for": `198.51.100.${++ip % 250}` } });

const base = { capability_id: "weather.current", contact_email: "ops@example.test", provider_name: "Call Co", price_per_call: 0.01 };
const callOf = (example: Record<string, unknown>) => ({
  input: { kind: "query", example, schema: { properties: { city: { type: "string" } }, required: ["city"] } },
  output: { type: "json", example: { temperature_c: 3 } },
});

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  hono = await startHonoX402Server([
    { method: "GET", path: "/undeclared", price: "$0.01" },
    { method: "GET", path: "/declared", price: "$0.01", bazaar: { input: { q: "Paris" }, inputSchema: { properties: { q: { type: "string" } }, required: ["q"] } } },
  ]);
});
afterAll(async () => {
  await hono.close();
  await t.close();
});

describe("POST /api/submit with a call description", () => {
  it("refuses an example that contradicts its schema, pointing at call", async () => {
    const res = await post({ ...base, endpoint_url: hono.url("/undeclared"), call: callOf({ city: 7 }) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", errors: [{ pointer: "#/call", detail: expect.stringContaining("city") }] });
  });

  it("refuses a body for a GET, and unknown fields inside call", async () => {
    const body = await post({ ...base, endpoint_url: hono.url("/undeclared"), call: { input: { kind: "body", example: { a: 1 } } } });
    expect(body.status).toBe(422);
    expect(body.body.detail).toContain("POST, PUT or PATCH");
    const typo = await post({ ...base, endpoint_url: hono.url("/undeclared"), call: { input: { kind: "query", exmaple: {} } } });
    expect(typo).toMatchObject({ status: 422, body: { code: "unknown_field", errors: [{ pointer: "#/call/input/exmaple" }] } });
  });

  it("lists the endpoint with the submitted call", async () => {
    const res = await post({ ...base, endpoint_url: hono.url("/undeclared"), call: callOf({ city: "Oslo" }) });
    expect(res.status).toBe(202);
    const id = res.body.submission_id as string;
    const [sub] = await t.db.select().from(submissions).where(eq(submissions.id, id));
    expect(sub.call).toMatchObject({ method: "GET", input: { kind: "query", example: { city: "Oslo" } } });
    const listed = await approveSubmission(t.db, id);
    expect(listed.ok).toBe(true);
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.submissionId, id));
    // listing probed it at once; its 402 declares nothing, so the submitted call stands
    expect(e.lastCheckOk).toBe(true);
    expect(e.call).toMatchObject({
      source: "submitted",
      method: "GET",
      input: { kind: "query", example: { city: "Oslo" }, schema: { properties: { city: { type: "string" } }, required: ["city"] } },
      output: { type: "json", example: { temperature_c: 3 } },
      updated_at: expect.any(String),
    });
  });

  it("gives way to the endpoint's own declaration", async () => {
    const res = await post({ ...base, endpoint_url: hono.url("/declared"), call: callOf({ city: "Oslo" }) });
    const id = res.body.submission_id as string;
    await approveSubmission(t.db, id);
    const [e] = await t.db.select().from(endpoints).where(eq(endpoints.submissionId, id));
    expect(e.call).toMatchObject({ source: "declared", input: { kind: "query", example: { q: "Paris" } } });
    await probeEndpoint(t.db, e.id);
    const [again] = await t.db.select().from(endpoints).where(eq(endpoints.id, e.id));
    expect(again.call).toEqual(e.call);
  });
});
