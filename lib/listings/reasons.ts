// Why an endpoint is or is not listed: stable reason codes of GET /api/listing_status, each with a
// title and what a provider can do, documented at /docs/errors#<code>.

export const LISTING_REASONS = {
  probe_no_402: {
    title: "The endpoint did not ask for payment",
    help: "A paid listing must answer an unpaid request with 402 and an x402 challenge; it answered another status (200, 400, 404...). Put the x402 middleware in front of the route, for the listed method.",
  },
  probe_invalid_challenge: {
    title: "The 402 answer is not a valid x402 challenge",
    help: "Version 2: a base64 JSON PAYMENT-REQUIRED header; version 1: a JSON body with x402Version and accepts[]. Use the official x402 server packages, which build it for you.",
  },
  price_above_listing: {
    title: "The challenge asks more than the listed price",
    help: "Every offer on the listed network costs more than the listing says (amounts are compared in the asset's atomic units). Lower the price in the challenge, or list the endpoint at its real price.",
  },
  network_mismatch: {
    title: "The challenge offers no payment on the listed network",
    help: "Add an offer on the listed network to the challenge, or list the endpoint on a network it accepts.",
  },
  probe_unreachable: {
    title: "The endpoint could not be reached",
    help: "The name did not resolve, the connection failed or timed out (5 s), TLS failed, or the host resolves to a non-public address. Check DNS, TLS and that the endpoint answers from the public internet.",
  },
  probe_redirect: {
    title: "The endpoint answered with a redirect",
    help: "Probes do not follow redirects: list the final URL.",
  },
  paid_call_not_delivered: {
    title: "A paid call was not delivered",
    help: "Capdex's last paid test call of the endpoint paid (the payment settled) and got no 2xx answer, or none in time. Its score is cut to a quarter until a paid call is delivered. Make sure the route answers after the payment settles (docs/paid-checks.md).",
  },
  paid_call_wrong_output: {
    title: "A paid call returned the wrong output",
    help: "Capdex's last paid test call of the endpoint, made with its declared call example, got an answer of another content type than declared, a body that does not parse, or one that does not validate against the declared output schema. Fix the answer or the declaration (docs/paid-checks.md).",
  },
  awaiting_first_probe: {
    title: "Not probed yet",
    help: "Imported endpoints are probed before they are ranked; the first probe runs within minutes. Nothing to do.",
  },
  dns_record_missing: {
    title: "The DNS TXT record is missing",
    help: "Publish the record the submission page shows (at _capdex-challenge.<host> or <registrable domain>), then press Check now. A listed endpoint whose record has gone is not ranked until it is back.",
  },
  challenge_expired: {
    title: "The submission expired",
    help: "The record was not found within 7 days. Submit the endpoint again and publish the new record.",
  },
  already_listed: {
    title: "Someone else listed this URL first",
    help: "The same URL and capability were listed by another submission. If it is yours, claim your domain or contact the operators.",
  },
  pending_capability: {
    title: "Waiting for its proposed capability",
    help: "The domain is proven; the submission proposed a capability that is not in the registry yet. It is listed as soon as an operator accepts the proposal (GET /api/capabilities/proposals shows it). Nothing to do.",
  },
  capability_rejected: {
    title: "The proposed capability was not added",
    help: "An operator rejected the capability this submission proposed; the submission page says why. Submit the endpoint again under an existing capability.",
  },
  rejected_by_operator: {
    title: "Rejected by an operator",
    help: "An operator rejected the submission or delisted the endpoint; the submission page says why.",
  },
  unmapped_capability: {
    title: "Waiting for a capability",
    help: "A catalogue lists the endpoint, but its description did not clearly match a capability. An operator maps it (the candidates are shown); a clearer description in your 402 (resource.description, serviceName, tags) helps, or submit it yourself under the right capability.",
  },
  ignored_by_operator: {
    title: "Ignored by an operator",
    help: "An operator chose to keep this imported URL out of Capdex. Submit it yourself, or contact the operators.",
  },
  dropped_by_source: {
    title: "The catalogue stopped listing it",
    help: "The catalogue it was imported from has not listed it for 3 runs in a row, so it was delisted. It comes back when the catalogue lists it again; or submit it yourself.",
  },
  boilerplate_description: {
    title: "Held back: the description is boilerplate",
    help: "The catalogue's description is a stock phrase (\"Premium API Access\", \"... | Powered by Questflow\", a price such as \"0.1 USDC on base\"), or the same short phrase many listings of the host share, so it says nothing about what this endpoint does. Set resource.description in your 402 to one sentence saying what the endpoint returns, for what input; the next import reads it.",
  },
  empty_description: {
    title: "Held back: nothing says what it does",
    help: "The listing has no description (or a few words), and no name, tags, declared input or URL path says what it does. Add resource.description and a bazaar declaration (declareDiscoveryExtension from @x402/extensions) to your 402; the next import reads them.",
  },
  duplicate_listing: {
    title: "Held back: one of many identical listings",
    help: "Many URLs of the host are listed with the same description and the same declared input; Capdex lists one of them (the first by URL) and holds back the rest. If they do different things, describe each one differently (resource.description) or declare their inputs.",
  },
  testnet_only: {
    title: "Held back: testnet only",
    help: "Every payment offer is on a testnet (base-sepolia, solana-devnet), so no agent pays for real calls. Add an offer on a main network (base, solana, ...) to the 402; the next import lists it.",
  },
  content_paywall: {
    title: "Held back: a payment for content, not an API",
    help: "The listing sells access to one piece of content (an IPFS CID, a paywalled article, file or image), which Capdex does not list: it lists APIs agents call for a capability. If it is an API, describe what it returns for what input.",
  },
  token_mint: {
    title: "Held back: a token or NFT mint",
    help: "Paying mints or sells a token or NFT; Capdex lists APIs agents call for a capability, not sales. If the endpoint does more, describe what it returns for what input.",
  },
  domain_not_claimed: {
    title: "Imported, domain not claimed",
    help: "The listing came from a catalogue and its provider has not proven the domain: it ranks, but not under verified_only. Claim the listings of your domain with one DNS record.",
  },
  declaration_invalid: {
    title: "The bazaar declaration does not validate",
    help: "The 402's extensions.bazaar info does not validate against its own schema (or breaks the protocol's rules), so it was ignored and agents do not see how to call the endpoint. Build it with declareDiscoveryExtension from @x402/extensions.",
  },
  declaration_too_large: {
    title: "The bazaar declaration is over 32 KiB",
    help: "Declarations larger than 32 KiB are ignored. Trim the examples and schemas.",
  },
} as const;

export type ListingReason = keyof typeof LISTING_REASONS;

/** A probe's stored reason (lib/probes) as the listing reason a provider acts on. */
export function reasonOfProbe(reason: string | null): ListingReason | null {
  switch (reason) {
    case null:
    case "ok":
      return null;
    case "no_payment_challenge":
    case "unexpected_status":
      return "probe_no_402";
    case "invalid_challenge":
    case "body_too_large":
      return "probe_invalid_challenge";
    case "price_above_listing":
    case "network_mismatch":
      return reason;
    case "redirect_not_followed":
      return "probe_redirect";
    default:
      return "probe_unreachable";
  }
}
