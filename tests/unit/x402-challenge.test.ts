import { describe, expect, it } from "vitest";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { SafeResponse } from "@/lib/net";
import { NetError } from "@/lib/net";
import { parseChallenge } from "@/lib/probes/challenge";
import { judgeError, judgeResponse, type Listing } from "@/lib/probes/evaluate";
import { assetDecimals, atomicToPrice, priceToAtomic, USDC_ADDRESSES } from "@/lib/probes/assets";
import { v1Challenge, v2Challenge } from "../helpers/x402-server";

function response(status: number, opts: { headers?: Record<string, string>; body?: string; truncated?: boolean } = {}): SafeResponse {
  const body = Buffer.from(opts.body ?? "");
  return {
    url: "https://api.test/x",
    status,
    headers: new Headers(opts.headers ?? {}),
    body,
    truncated: opts.truncated ?? false,
    remoteAddress: "203.0.113.7",
    elapsedMs: 42,
    text: () => body.toString("utf8"),
  };
}

const v1 = (r: Parameters<typeof v1Challenge>[1]) => response(402, { body: JSON.stringify(v1Challenge("https://api.test/x", r)) });
const v2 = (r: Parameters<typeof v2Challenge>[1]) =>
  response(402, { headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(v2Challenge("https://api.test/x", r) as never) } });

const paid: Listing = { url: "https://api.test/x", method: "GET", pricePerCall: 0.001, network: "base" };
const free: Listing = { ...paid, pricePerCall: 0 };

describe("atomic amounts", () => {
  it("converts listed prices exactly", () => {
    expect(priceToAtomic(0.001, 6)).toBe(BigInt(1000));
    expect(priceToAtomic(0.0015, 6)).toBe(BigInt(1500));
    expect(priceToAtomic(0.1 + 0.2, 6)).toBe(BigInt(300000));
    expect(priceToAtomic(1.23, 6)).toBe(BigInt(1230000));
    expect(priceToAtomic(0.0000005, 6)).toBe(BigInt(1)); // rounds half up
    expect(priceToAtomic(2, 0)).toBe(BigInt(2));
    expect(priceToAtomic(0.001, 18)).toBe(BigInt("1000000000000000"));
  });

  it("converts atomic amounts back", () => {
    expect(atomicToPrice(BigInt(1000), 6)).toBe(0.001);
    expect(atomicToPrice(BigInt(1230000), 6)).toBe(1.23);
    expect(atomicToPrice(BigInt(7), 0)).toBe(7);
  });

  it("knows USDC by address, else trusts extra.decimals, else assumes 6", () => {
    expect(assetDecimals("base", USDC_ADDRESSES.base!.toLowerCase(), null)).toMatchObject({ decimals: 6, source: "known_usdc" });
    expect(assetDecimals("base", "0xdead", { decimals: 18 })).toMatchObject({ decimals: 18, source: "extra" });
    expect(assetDecimals("base", "0xdead", { decimals: "8" })).toMatchObject({ decimals: 8, source: "extra" });
    expect(assetDecimals("base", "0xdead", { decimals: -1 })).toMatchObject({ decimals: 6, source: "assumed" });
    expect(assetDecimals(null, "0xdead", null)).toMatchObject({ decimals: 6, source: "assumed" });
  });
});

describe("parsing x402 challenges", () => {
  it("reads a version 1 challenge from the JSON body", () => {
    const r = parseChallenge(v1({ network: "base", amount: "1000" }));
    expect(r).toMatchObject({ ok: true, challenge: { version: 1, offers: [{ scheme: "exact", networkName: "base", amount: BigInt(1000), decimals: 6, price: 0.001 }] } });
  });

  it("reads a version 2 challenge from the PAYMENT-REQUIRED header (CAIP-2 network)", () => {
    const r = parseChallenge(v2({ network: "base-sepolia", amount: "2500" }));
    expect(r).toMatchObject({ ok: true, challenge: { version: 2, offers: [{ network: "eip155:84532", networkName: "base-sepolia", amount: BigInt(2500) }] } });
  });

  it.each([
    ["a header that is not base64", response(402, { headers: { "payment-required": "%%%not base64%%%" } })],
    ["a header that is base64 but not JSON", response(402, { headers: { "payment-required": Buffer.from("hello").toString("base64") } })],
    ["a v2 header missing accepts", response(402, { headers: { "payment-required": Buffer.from(JSON.stringify({ x402Version: 2, resource: { url: "x" } })).toString("base64") } })],
    ["a v1 body missing payTo", response(402, { body: JSON.stringify({ x402Version: 1, accepts: [{ scheme: "exact", network: "base", maxAmountRequired: "1" }] }) })],
    ["an unknown version", response(402, { body: JSON.stringify({ x402Version: 3, accepts: [] }) })],
    ["an empty accepts list", response(402, { body: JSON.stringify({ x402Version: 1, accepts: [] }) })],
    ["a decimal amount", v1({ network: "base", amount: "0.001" })],
    ["a negative amount", v2({ network: "base", amount: "-5" })],
  ])("calls %s an invalid challenge", (_label, res) => {
    expect(parseChallenge(res)).toMatchObject({ ok: false, reason: "invalid_challenge" });
  });

  it.each([
    ["a text body", response(402, { body: "Payment Required" })],
    ["JSON without x402Version", response(402, { body: '{"error":"pay up"}' })],
    ["an empty body", response(402)],
  ])("calls a 402 with %s no payment challenge", (_label, res) => {
    expect(parseChallenge(res)).toMatchObject({ ok: false, reason: "no_payment_challenge" });
  });

  it("says so when the body was cut at the read limit", () => {
    expect(parseChallenge(response(402, { body: '{"x402Version":1,', truncated: true }))).toEqual({ ok: false, reason: "body_too_large" });
  });
});

describe("judging a probe against its listing", () => {
  it("passes a paid endpoint whose challenge offers the listed network at the listed price", () => {
    expect(judgeResponse(paid, v1({ network: "base", amount: "1000" }))).toMatchObject({ ok: true, reason: "ok", status: 402, latencyMs: 42 });
    expect(judgeResponse(paid, v2({ network: "base", amount: "999" }))).toMatchObject({ ok: true, reason: "ok" });
  });

  it("fails a challenge one atomic unit above the listed price", () => {
    const v = judgeResponse(paid, v1({ network: "base", amount: "1001" }));
    expect(v).toMatchObject({ ok: false, reason: "price_above_listing", detail: { listed_price: 0.001, offers: [{ amount: "1001", price: 0.001001 }] } });
  });

  it("fails a challenge on another network", () => {
    expect(judgeResponse(paid, v2({ network: "polygon", amount: "1000" }))).toMatchObject({ ok: false, reason: "network_mismatch", detail: { offers: [{ network: "polygon" }] } });
    expect(judgeResponse(paid, v1({ network: "some-chain", amount: "1" }))).toMatchObject({ ok: false, reason: "network_mismatch" });
  });

  it("passes when any one offer fits, among several", () => {
    const body = v1Challenge("https://api.test/x", { network: "polygon", amount: "1" });
    body.accepts.push(v1Challenge("https://api.test/x", { network: "base", amount: "900" }).accepts[0]);
    const v = judgeResponse(paid, response(402, { body: JSON.stringify(body) }));
    expect(v).toMatchObject({ ok: true, detail: { matched: { network: "base", amount: "900" } } });
  });

  it("uses the asset's decimals: 18-decimal tokens are not read as USDC", () => {
    const v = judgeResponse(paid, v1({ network: "base", amount: "1000", asset: "0xdead", extra: { decimals: 18 } }));
    expect(v).toMatchObject({ ok: true }); // 1000 wei-units is far below 0.001
    const w = judgeResponse(paid, v1({ network: "base", amount: "2000000000000000", asset: "0xdead", extra: { decimals: 18 } }));
    expect(w).toMatchObject({ ok: false, reason: "price_above_listing" });
  });

  it("fails a paid endpoint that answers without asking for payment", () => {
    expect(judgeResponse(paid, response(200, { body: "{}" }))).toMatchObject({ ok: false, reason: "no_payment_challenge", status: 200 });
  });

  it("passes a free endpoint on 2xx and fails it when it asks for payment", () => {
    expect(judgeResponse(free, response(204))).toMatchObject({ ok: true, reason: "ok" });
    expect(judgeResponse(free, v1({ network: "base", amount: "1" }))).toMatchObject({ ok: false, reason: "price_above_listing" });
  });

  it("fails redirects and other statuses", () => {
    expect(judgeResponse(paid, response(301, { headers: { location: "http://127.0.0.1/" } }))).toMatchObject({ ok: false, reason: "redirect_not_followed", status: 301 });
    expect(judgeResponse(free, response(500))).toMatchObject({ ok: false, reason: "unexpected_status", status: 500 });
    expect(judgeResponse(paid, response(404))).toMatchObject({ ok: false, reason: "unexpected_status", status: 404 });
  });

  it("keeps parsed facts only, never the body", () => {
    const res = response(402, { body: JSON.stringify({ ...v1Challenge("https://api.test/x", { network: "base", amount: "5000" }), secret: "s3cr3t-token" }) });
    const v = judgeResponse(paid, res);
    expect(JSON.stringify(v.detail)).not.toContain("s3cr3t-token");
    expect(JSON.stringify(v.detail)).not.toContain("test resource");
  });

  it("turns network failures into their reasons", () => {
    expect(judgeError(paid, new NetError("timeout", "no answer"), 5001)).toMatchObject({ ok: false, reason: "timeout", status: null, latencyMs: 5001 });
    expect(judgeError(paid, new NetError("private_address", "x"), 3)).toMatchObject({ reason: "private_address", latencyMs: null });
  });
});
