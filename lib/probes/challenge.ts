// x402 payment challenges (HTTP 402 answers), parsed with the official @x402/core schemas:
// version 2 in the PAYMENT-REQUIRED header (base64 JSON), version 1 as the JSON body.
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { PaymentRequiredV1Schema, PaymentRequiredV2Schema } from "@x402/core/schemas";
import { normalizeNetwork, type NetworkName } from "@/lib/schemas/networks";
import type { SafeResponse } from "@/lib/net";
import { assetDecimals, atomicToPrice, type AssetDecimals } from "./assets";

/** One way to pay that a challenge offers, reduced to the facts we compare and keep. */
export type Offer = {
  scheme: string;
  /** As the provider wrote it (capped in length). */
  network: string;
  networkName: NetworkName | null;
  amount: bigint;
  asset: string;
  decimals: number;
  decimalsSource: AssetDecimals["source"];
  /** amount in whole asset units */
  price: number;
};

export type Challenge = { version: 1 | 2; offers: Offer[] };

export type ChallengeResult =
  | { ok: true; challenge: Challenge }
  | { ok: false; reason: "no_payment_challenge" | "invalid_challenge" | "body_too_large"; problem?: string };

const MAX_OFFERS = 20;
const ATOMIC = /^\d{1,78}$/;

/** Reads the challenge of a 402 answer, if it carries one. */
export function parseChallenge(res: SafeResponse): ChallengeResult {
  const header = res.headers.get("payment-required");
  if (header) {
    let decoded: unknown;
    try {
      decoded = decodePaymentRequiredHeader(header.trim());
    } catch {
      return { ok: false, reason: "invalid_challenge", problem: "PAYMENT-REQUIRED is not base64 JSON" };
    }
    return fromV2(decoded);
  }
  if (res.truncated) return { ok: false, reason: "body_too_large" };
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    return { ok: false, reason: "no_payment_challenge", problem: "402 without PAYMENT-REQUIRED header or JSON body" };
  }
  const version = body && typeof body === "object" ? (body as { x402Version?: unknown }).x402Version : undefined;
  if (version === undefined) return { ok: false, reason: "no_payment_challenge", problem: "402 body has no x402Version" };
  if (version === 2) return fromV2(body);
  if (version !== 1) return { ok: false, reason: "invalid_challenge", problem: "unsupported x402Version" };
  const parsed = PaymentRequiredV1Schema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "invalid_challenge", problem: describeIssue(parsed.error.issues) };
  return toChallenge(
    1,
    parsed.data.accepts.map((a) => ({ scheme: a.scheme, network: a.network, amount: a.maxAmountRequired, asset: a.asset, extra: a.extra })),
  );
}

function fromV2(value: unknown): ChallengeResult {
  const parsed = PaymentRequiredV2Schema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: "invalid_challenge", problem: describeIssue(parsed.error.issues) };
  return toChallenge(
    2,
    parsed.data.accepts.map((a) => ({ scheme: a.scheme, network: a.network, amount: a.amount, asset: a.asset, extra: a.extra })),
  );
}

type RawOffer = { scheme: string; network: string; amount: string; asset: string; extra?: Record<string, unknown> | null };

function toChallenge(version: 1 | 2, raw: RawOffer[]): ChallengeResult {
  if (!raw.length) return { ok: false, reason: "invalid_challenge", problem: "accepts is empty" };
  const offers: Offer[] = [];
  for (const a of raw.slice(0, MAX_OFFERS)) {
    if (!ATOMIC.test(a.amount)) return { ok: false, reason: "invalid_challenge", problem: "amount is not a whole number of atomic units" };
    const networkName = normalizeNetwork(a.network);
    const d = assetDecimals(networkName, a.asset, a.extra);
    const amount = BigInt(a.amount);
    offers.push({
      scheme: cap(a.scheme),
      network: cap(a.network),
      networkName,
      amount,
      asset: cap(a.asset),
      decimals: d.decimals,
      decimalsSource: d.source,
      price: atomicToPrice(amount, d.decimals),
    });
  }
  return { ok: true, challenge: { version, offers } };
}

/** Provider-written strings are kept short: we store facts, not whatever they sent. */
function cap(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

function describeIssue(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const first = issues[0];
  return first ? `${first.path.map(String).join(".") || "challenge"}: ${first.message}`.slice(0, 200) : "invalid";
}
