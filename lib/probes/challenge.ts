// x402 payment challenges (HTTP 402 answers), parsed with the official @x402/core schemas:
// version 2 in the PAYMENT-REQUIRED header (base64 JSON), version 1 as the JSON body. Besides the
// offers it keeps the resource's own description and its bazaar declaration (./declaration.ts).
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { PaymentRequiredV1Schema, PaymentRequiredV2Schema } from "@x402/core/schemas";
import type { PaymentRequirementsV1 } from "@x402/core/types";
import { normalizeNetwork, type NetworkName } from "@/lib/schemas/networks";
import type { SafeResponse } from "@/lib/net";
import { assetDecimals, atomicToPrice, type AssetDecimals } from "./assets";
import { readDeclarationV1, readDeclarationV2, type DeclarationResult } from "./declaration";

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
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown> | null;
};

/** What the resource says about itself (v2 `resource`, v1 the first offer's fields), capped. */
export type ResourceFacts = { description?: string; mimeType?: string; serviceName?: string; tags?: string[] };

export type Challenge = { version: 1 | 2; offers: Offer[]; resource: ResourceFacts; declaration: DeclarationResult };

export type ChallengeResult =
  | { ok: true; challenge: Challenge }
  | { ok: false; reason: "no_payment_challenge" | "invalid_challenge" | "body_too_large"; problem?: string };

const MAX_OFFERS = 20;
const ATOMIC = /^\d{1,78}$/;

/** Reads the challenge of a 402 answer, if it carries one (`method`: the listed one, for the call). */
export function parseChallenge(res: SafeResponse, method = "GET"): ChallengeResult {
  const header = res.headers.get("payment-required");
  if (header) {
    let decoded: unknown;
    try {
      decoded = decodePaymentRequiredHeader(header.trim());
    } catch {
      return { ok: false, reason: "invalid_challenge", problem: "PAYMENT-REQUIRED is not base64 JSON" };
    }
    return fromV2(decoded, method);
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
  if (version === 2) return fromV2(body, method);
  if (version !== 1) return { ok: false, reason: "invalid_challenge", problem: "unsupported x402Version" };
  const parsed = PaymentRequiredV1Schema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "invalid_challenge", problem: describeIssue(parsed.error.issues) };
  const first = parsed.data.accepts[0];
  return toChallenge(
    1,
    parsed.data.accepts.map((a) => ({ ...a, amount: a.maxAmountRequired })),
    { description: first?.description, mimeType: first?.mimeType },
    () => readDeclarationV1(first as unknown as PaymentRequirementsV1 | undefined, method),
  );
}

function fromV2(value: unknown, method: string): ChallengeResult {
  const parsed = PaymentRequiredV2Schema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: "invalid_challenge", problem: describeIssue(parsed.error.issues) };
  const r = parsed.data.resource;
  return toChallenge(
    2,
    parsed.data.accepts,
    { description: r.description, mimeType: r.mimeType, serviceName: r.serviceName, tags: r.tags },
    () => readDeclarationV2(parsed.data.extensions, method),
  );
}

type RawOffer = {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown> | null;
};

const MAX_EXTRA_BYTES = 2048;

function toChallenge(version: 1 | 2, raw: RawOffer[], resource: ResourceFacts, declaration: () => DeclarationResult): ChallengeResult {
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
      payTo: cap(a.payTo),
      maxTimeoutSeconds: a.maxTimeoutSeconds,
      extra: smallExtra(a.extra),
    });
  }
  return { ok: true, challenge: { version, offers, resource: capResource(resource), declaration: declaration() } };
}

/** `extra` (EIP-712 name and version, decimals...) is kept when small; a huge one is not ours to store. */
function smallExtra(extra: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!extra) return null;
  try {
    return JSON.stringify(extra).length <= MAX_EXTRA_BYTES ? extra : null;
  } catch {
    return null;
  }
}

function capResource(r: ResourceFacts): ResourceFacts {
  const out: ResourceFacts = {};
  if (r.description) out.description = r.description.slice(0, 500);
  if (r.mimeType) out.mimeType = r.mimeType.slice(0, 100);
  if (r.serviceName) out.serviceName = r.serviceName.slice(0, 100);
  if (r.tags?.length) out.tags = r.tags.slice(0, 10).map((t) => t.slice(0, 50));
  return out;
}

/** Provider-written strings are kept short: we store facts, not whatever they sent. */
function cap(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

function describeIssue(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const first = issues[0];
  return first ? `${first.path.map(String).join(".") || "challenge"}: ${first.message}`.slice(0, 200) : "invalid";
}
