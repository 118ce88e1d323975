// Which payment networks an endpoint accepts: its listed ones (`network` first) and any its 402 offered.
// A free endpoint takes no payment, so it accepts no network and no network constraint excludes it.
import type { PaymentSeenValue } from "@/lib/db/schema";
import { normalizeNetwork } from "@/lib/schemas/networks";

/** Friendly names, the listed network first; empty when the endpoint is free. */
export function acceptedNetworksOf(
  listing: { pricePerCall: number; network: string; networks: readonly string[] | null },
  seen: PaymentSeenValue | null,
): string[] {
  if (!(listing.pricePerCall > 0)) return [];
  const out = new Set<string>();
  for (const n of [listing.network, ...(listing.networks ?? []), ...(seen?.accepts ?? []).map((a) => a.network)]) {
    out.add(normalizeNetwork(n) ?? n);
  }
  return [...out];
}

/** Whether an endpoint with these accepted networks (and price) meets a `network` constraint. */
export function meetsNetwork(c: { pricePerCall: number; networks: readonly string[] }, network: string): boolean {
  return !(c.pricePerCall > 0) || c.networks.includes(network);
}
