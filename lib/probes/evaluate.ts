// Judges one probe: does the endpoint answer as it is listed? Pure functions from the listing and
// the answer (or the failure) to a stable reason and the parsed facts worth keeping.
import type { NetError, SafeResponse } from "@/lib/net";
import { NETWORKS, normalizeNetwork } from "@/lib/schemas/networks";
import { priceToAtomic } from "./assets";
import { parseChallenge, type Challenge, type Offer, type ResourceFacts } from "./challenge";
import type { DeclarationResult } from "./declaration";

export type ProbeReason =
  | "ok"
  | "price_above_listing"
  | "network_mismatch"
  | "no_payment_challenge"
  | "invalid_challenge"
  | "unexpected_status"
  | "redirect_not_followed"
  | "body_too_large"
  | NetError["code"];

export type Listing = { url: string; method: string; pricePerCall: number; network: string };

/** An x402 v2 payment requirement, as Capdex stores and re-serves what a 402 offered. */
export type PaymentRequirement = {
  scheme: string;
  /** CAIP-2 */
  network: string;
  /** atomic units */
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown> | null;
};

/** What a valid challenge showed, whatever the verdict: the offers, the resource and its declaration. */
export type SeenChallenge = { version: 1 | 2; accepts: PaymentRequirement[]; resource: ResourceFacts; declaration: DeclarationResult };

export type ProbeVerdict = {
  ok: boolean;
  reason: ProbeReason;
  status: number | null;
  latencyMs: number | null;
  /** Parsed facts only, never the body: what was expected and what was offered. */
  detail: Record<string, unknown>;
  /** Present when the answer was a valid x402 challenge. */
  seen?: SeenChallenge;
};

export function judgeResponse(listing: Listing, res: SafeResponse): ProbeVerdict {
  const paid = listing.pricePerCall > 0;
  const base = { status: res.status, latencyMs: res.elapsedMs };
  const expected = { expected: paid ? "402 with x402 challenge" : "2xx", listed_network: listing.network, listed_price: listing.pricePerCall };
  const fail = (reason: ProbeReason, more: Record<string, unknown> = {}): ProbeVerdict => ({ ok: false, reason, ...base, detail: { ...expected, ...more } });

  if (res.status >= 300 && res.status < 400) return fail("redirect_not_followed");
  if (res.status >= 200 && res.status < 300) {
    return paid ? fail("no_payment_challenge", { problem: "answered without asking for payment" }) : { ok: true, reason: "ok", ...base, detail: expected };
  }
  if (res.status !== 402) return fail("unexpected_status");

  const parsed = parseChallenge(res, listing.method);
  if (!parsed.ok) return fail(parsed.reason, parsed.problem ? { problem: parsed.problem } : {});
  const { version, offers } = parsed.challenge;
  const seen = seenOf(parsed.challenge);
  const facts = { ...expected, x402_version: version, offers: offers.map(offerFacts), declaration: declarationFacts(parsed.challenge.declaration) };
  // A free listing that asks for payment costs more than listed.
  if (!paid) return { ...fail("price_above_listing", facts), seen };

  const listedNetwork = normalizeNetwork(listing.network);
  const onNetwork = offers.filter((o) => listedNetwork !== null && o.networkName === listedNetwork);
  if (!onNetwork.length) return { ok: false, reason: "network_mismatch", ...base, detail: facts, seen };
  const affordable = onNetwork.find((o) => o.amount <= priceToAtomic(listing.pricePerCall, o.decimals));
  if (!affordable) return { ok: false, reason: "price_above_listing", ...base, detail: facts, seen };
  return { ok: true, reason: "ok", ...base, detail: { ...facts, matched: offerFacts(affordable) }, seen };
}

function seenOf(c: Challenge): SeenChallenge {
  return {
    version: c.version,
    accepts: c.offers.map((o) => ({
      scheme: o.scheme,
      network: o.networkName ? NETWORKS[o.networkName] : o.network,
      amount: o.amount.toString(),
      asset: o.asset,
      payTo: o.payTo,
      maxTimeoutSeconds: o.maxTimeoutSeconds,
      extra: o.extra,
    })),
    resource: c.resource,
    declaration: c.declaration,
  };
}

/** The declaration's verdict in a probe's stored facts: valid, absent, or why it was ignored. */
function declarationFacts(d: DeclarationResult) {
  return d.status === "rejected" ? { status: d.reason, problem: d.problem } : { status: d.status };
}

export function judgeError(listing: Listing, err: NetError, elapsedMs: number | null): ProbeVerdict {
  return {
    ok: false,
    reason: err.code,
    status: null,
    latencyMs: err.code === "timeout" ? elapsedMs : null,
    detail: { expected: listing.pricePerCall > 0 ? "402 with x402 challenge" : "2xx", problem: err.message },
  };
}

function offerFacts(o: Offer) {
  return {
    scheme: o.scheme,
    network: o.networkName ?? o.network,
    amount: o.amount.toString(),
    asset: o.asset,
    decimals: o.decimals,
    decimals_source: o.decimalsSource,
    price: o.price,
  };
}
