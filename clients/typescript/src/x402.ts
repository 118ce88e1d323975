// Paying with x402: the caller's fetch wrapped by the official @x402/fetch with the caller's own
// x402 client (its schemes and signers). Kept apart from ./index.ts so the client itself needs no
// payment packages.
import { wrapFetchWithPayment, type x402Client, type x402HTTPClient } from "@x402/fetch";

export { x402Client } from "@x402/fetch";

/** A fetch that answers a 402 by paying (once) with the given x402 client, then retries. */
export function payingFetchOf(client: x402Client | x402HTTPClient, base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return wrapFetchWithPayment(base, client) as typeof fetch;
}
