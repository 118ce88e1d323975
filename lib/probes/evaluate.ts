// Judges one probe: does the endpoint answer as it is listed? Pure functions from the listing and
// the answer (or the failure) to a stable reason and the parsed facts worth keeping.
import type { NetError, SafeResponse } from "@/lib/net";
import { normalizeNetwork } from "@/lib/schemas/networks";
import { priceToAtomic } from "./assets";
import { parseChallenge, type Offer } from "./challenge";

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

export type ProbeVerdict = {
  ok: boolean;
  reason: ProbeReason;
  status: number | null;
  latencyMs: number | null;
  /** Parsed facts only, never the body: what was expected and what was offered. */
  detail: Record<string, unknown>;
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

  const parsed = parseChallenge(res);
  if (!parsed.ok) return fail(parsed.reason, parsed.problem ? { problem: parsed.problem } : {});
  const { version, offers } = parsed.challenge;
  const facts = { ...expected, x402_version: version, offers: offers.map(offerFacts) };
  // A free listing that asks for payment costs more than listed.
  if (!paid) return fail("price_above_listing", facts);

  const listedNetwork = normalizeNetwork(listing.network);
  const onNetwork = offers.filter((o) => listedNetwork !== null && o.networkName === listedNetwork);
  if (!onNetwork.length) return { ok: false, reason: "network_mismatch", ...base, detail: facts };
  const affordable = onNetwork.find((o) => o.amount <= priceToAtomic(listing.pricePerCall, o.decimals));
  if (!affordable) return { ok: false, reason: "price_above_listing", ...base, detail: facts };
  return { ok: true, reason: "ok", ...base, detail: { ...facts, matched: offerFacts(affordable) } };
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
