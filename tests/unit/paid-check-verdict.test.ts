// The verdict rules of paid test calls (lib/paid-checks/verdict.ts), the settings they read
// (lib/paid-checks/config.ts), the offer Capdex would pay, and how a failed paid call weighs on the score.
import { describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { contentTypeFits, judgeCall, judgeOutput, type CallFacts } from "@/lib/paid-checks/verdict";
import { parseBudgets, readPaidCheckConfig } from "@/lib/paid-checks/config";
import { chooseOffer, requestOf } from "@/lib/paid-checks";
import { availabilityShare, FAILED_DELIVERY_SHARE, FAILED_PROBE_SHARE } from "@/lib/discovery/scoring";
import { pickExplorer } from "@/lib/discovery/exploration";
import type { Offer } from "@/lib/probes/challenge";

const SCHEMA = { type: "object", properties: { temperature_c: { type: "number" } }, required: ["temperature_c"] };
const facts = (f: Partial<CallFacts>): CallFacts => ({
  paymentSent: true,
  settled: true,
  status: 200,
  error: null,
  contentType: "application/json",
  body: '{"temperature_c": 4.5}',
  truncated: false,
  output: { type: "json", schema: SCHEMA },
  ...f,
});

describe("paid check verdicts", () => {
  it("delivered: paid, 2xx, the declared type, the schema holds", () => {
    expect(judgeCall(facts({}))).toEqual({ verdict: "delivered", reason: "ok" });
    // No declared output: any 2xx answer is delivered, JSON only has to parse.
    expect(judgeCall(facts({ output: null, contentType: "text/plain", body: "hello" }))).toEqual({ verdict: "delivered", reason: "ok" });
    // Settlement is not needed to deliver (the seller may settle later).
    expect(judgeCall(facts({ settled: null, status: 201 }))).toMatchObject({ verdict: "delivered" });
  });

  it("wrong_output: the wrong content type, a body that is not JSON, or one the schema refuses", () => {
    expect(judgeCall(facts({ contentType: "text/html" }))).toMatchObject({ verdict: "wrong_output", reason: "wrong_content_type" });
    expect(judgeCall(facts({ body: "<html>" }))).toMatchObject({ verdict: "wrong_output", reason: "unparseable_body" });
    expect(judgeCall(facts({ body: '{"error":"later"}' }))).toMatchObject({ verdict: "wrong_output", reason: "schema_mismatch", problem: expect.stringContaining("temperature_c") });
    expect(judgeCall(facts({ body: '{"temperature_c":"warm"}' }))).toMatchObject({ verdict: "wrong_output", reason: "schema_mismatch" });
  });

  it("a schema Capdex cannot use is not held against the seller; a cut-off body is not checked", () => {
    const remote = { type: "json", schema: { $ref: "https://elsewhere.example/schema.json" } };
    expect(judgeOutput({ contentType: "application/json", body: "{}", truncated: false, output: remote })).toMatchObject({ verdict: "delivered", schemaChecked: false });
    expect(judgeOutput({ contentType: "application/json", body: '{"temp', truncated: true, output: { type: "json", schema: SCHEMA } })).toMatchObject({ verdict: "delivered", schemaChecked: false });
    expect(judgeOutput({ contentType: "application/json", body: '{"temperature_c":1}', truncated: false, output: { type: "json", schema: SCHEMA } })).toMatchObject({ schemaChecked: true });
  });

  it("paid_not_delivered: settled, then an error status, a timeout or a dropped connection", () => {
    expect(judgeCall(facts({ status: 500 }))).toEqual({ verdict: "paid_not_delivered", reason: "error_status" });
    expect(judgeCall(facts({ status: null, error: "timeout" }))).toEqual({ verdict: "paid_not_delivered", reason: "timeout" });
    expect(judgeCall(facts({ status: null, error: "connection_failed" }))).toEqual({ verdict: "paid_not_delivered", reason: "connection_failed" });
  });

  it("unpaid_error: nothing sent, or signed but refused unsettled", () => {
    expect(judgeCall(facts({ paymentSent: false, settled: null, status: 503 }))).toEqual({ verdict: "unpaid_error", reason: "error_status" });
    expect(judgeCall(facts({ settled: false, status: 402 }))).toEqual({ verdict: "unpaid_error", reason: "payment_refused" });
    expect(judgeCall(facts({ settled: null, status: 500 }))).toEqual({ verdict: "unpaid_error", reason: "unsettled_error" });
  });

  it("content types fit the declared output type", () => {
    expect(contentTypeFits("json", "application/json; charset=utf-8")).toBe(true);
    expect(contentTypeFits("json", "application/problem+json")).toBe(true);
    expect(contentTypeFits("json", "text/html")).toBe(false);
    expect(contentTypeFits("text", "text/csv")).toBe(true);
    expect(contentTypeFits("image", "image/png")).toBe(true);
    expect(contentTypeFits("image/png", "image/jpeg")).toBe(false);
    expect(contentTypeFits("application/json", "application/ld+json")).toBe(true);
    expect(contentTypeFits("text", null)).toBe(false);
  });
});

describe("paid check settings", () => {
  const key = generatePrivateKey();
  const base = { CAPDEX_PAID_CHECK_KEY: key, CAPDEX_RPC_URLS: "base=https://rpc.example,base-sepolia=https://rpc2.example" };

  it("parses budgets per network in millionths of a dollar, refusing bad pairs", () => {
    const problems: string[] = [];
    expect([...parseBudgets("eip155:8453=5.00, base-sepolia=1,nowhere=2,base-sepolia=x", problems)]).toEqual([
      ["base", 5_000_000],
      ["base-sepolia", 1_000_000],
    ]);
    expect(problems).toHaveLength(2);
  });

  it("is on only with a key, a budget above 0 and an RPC, and pays in USDC plus the assets named", () => {
    const on = readPaidCheckConfig({ ...base, CAPDEX_PAID_CHECK_BUDGETS: "base=5,base-sepolia=0", CAPDEX_PAID_CHECK_ASSETS: "base=0x00000000000000000000000000000000000000AA" });
    expect(on.problems).toEqual([]);
    expect(on.config!.account.address).toBe(privateKeyToAccount(key).address);
    expect([...on.config!.networks.keys()]).toEqual(["eip155:8453"]);
    expect(on.config!.networks.get("eip155:8453")!.assets).toEqual(["0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "0x00000000000000000000000000000000000000aa"]);
    expect(readPaidCheckConfig({ ...base, CAPDEX_PAID_CHECK_BUDGETS: "solana=5" })).toMatchObject({ config: null, problems: [expect.stringContaining("not an EVM network")] });
    expect(readPaidCheckConfig({ CAPDEX_PAID_CHECK_KEY: key, CAPDEX_PAID_CHECK_BUDGETS: "base=5" })).toMatchObject({ config: null, problems: [expect.stringContaining("no RPC")] });
    const badKey = readPaidCheckConfig({ ...base, CAPDEX_PAID_CHECK_KEY: "0x1234", CAPDEX_PAID_CHECK_BUDGETS: "base=5" });
    expect(badKey.config).toBeNull();
    expect(badKey.problems.join(" ")).not.toContain("1234");
    expect(readPaidCheckConfig({ ...base, CAPDEX_PAID_CHECK_KEY_FILE: "/nonexistent/key", CAPDEX_PAID_CHECK_KEY: "", CAPDEX_PAID_CHECK_BUDGETS: "base=5" })).toMatchObject({
      config: null,
      problems: ["CAPDEX_PAID_CHECK_KEY_FILE cannot be read"],
    });
  });

  it("pays the cheapest exact offer on a budgeted network in an accepted asset, and makes only calls it can", () => {
    const cfg = readPaidCheckConfig({ ...base, CAPDEX_PAID_CHECK_BUDGETS: "base=5" }).config!;
    const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const offer = (o: Partial<Offer>): Offer => ({
      scheme: "exact",
      network: "eip155:8453",
      networkName: "base",
      amount: 10_000n,
      asset: usdc,
      decimals: 6,
      decimalsSource: "known_usdc",
      price: 0.01,
      payTo: "0x0000000000000000000000000000000000000001",
      maxTimeoutSeconds: 60,
      extra: null,
      ...o,
    });
    expect(chooseOffer([offer({ amount: 20_000n }), offer({ amount: 5_000n }), offer({ scheme: "upto", amount: 1n })], cfg)).toMatchObject({ micros: 5_000, caip2: "eip155:8453" });
    expect(chooseOffer([offer({ asset: "0x00000000000000000000000000000000000000bb" }), offer({ networkName: "polygon", network: "eip155:137" })], cfg)).toBeNull();
    const t = { id: "x", url: "https://api.example/w", method: "GET" };
    const call = (input: Record<string, unknown>) => ({ source: "declared" as const, method: "POST", input: input as never, updated_at: "" });
    expect(requestOf({ ...t, call: { ...call({ kind: "query", example: { city: "Oslo" } }), method: "GET" } })).toEqual({ method: "GET", url: "https://api.example/w?city=Oslo" });
    expect(requestOf({ ...t, call: call({ kind: "body", example: { q: 1 } }) })).toEqual({ method: "POST", url: t.url, body: '{"q":1}', contentType: "application/json" });
    expect(requestOf({ ...t, call: call({ kind: "mcp", tool: "x" }) })).toBeNull();
    expect(requestOf({ ...t, call: call({ kind: "body", body_type: "form-data" }) })).toBeNull();
    expect(requestOf({ ...t, call: null })).toBeNull();
  });
});

describe("a failed paid call on the ranking", () => {
  it("keeps a quarter of the score while the last paid call failed, on top of the probes' share", () => {
    expect(availabilityShare({ lastCheckOk: true, consecutiveFailures: 0, delivery: { last_verdict: "delivered" } })).toBe(1);
    expect(availabilityShare({ lastCheckOk: true, consecutiveFailures: 0, delivery: { last_verdict: "paid_not_delivered" } })).toBe(FAILED_DELIVERY_SHARE);
    expect(availabilityShare({ lastCheckOk: true, consecutiveFailures: 0, delivery: { last_verdict: "wrong_output" } })).toBe(FAILED_DELIVERY_SHARE);
    expect(availabilityShare({ lastCheckOk: false, consecutiveFailures: 1, delivery: { last_verdict: "wrong_output" } })).toBe(FAILED_PROBE_SHARE * FAILED_DELIVERY_SHARE);
    expect(availabilityShare({ lastCheckOk: true, consecutiveFailures: 0, delivery: null })).toBe(1);
  });

  it("never lets exploration pick an endpoint whose last paid call failed", () => {
    const c = (id: string, verdict: string | null) => ({ id, checkState: "verified", figures: { weighted_total_7d: 0 }, delivery: verdict ? { last_verdict: verdict } : null });
    for (let w = 0; w < 200; w++) {
      expect(pickExplorer("weather.current", [c("a", "paid_not_delivered"), c("b", "wrong_output")], w, 1)).toBeNull();
      expect(pickExplorer("weather.current", [c("a", "paid_not_delivered"), c("b", "delivered")], w, 1)).toBe("b");
    }
  });
});
