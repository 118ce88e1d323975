// The operator's RPC endpoints, one per payment network (CAPDEX_RPC_URLS), through which Capdex
// reads the transactions that outcome reports name. Without one for a network, payments on it are
// stored as unverified and never verified.
import { createPublicClient, http, type PublicClient } from "viem";
import { NETWORKS, normalizeNetwork } from "@/lib/schemas/networks";

/**
 * CAPDEX_RPC_URLS: comma-separated `network=url` pairs; a network is a friendly name (`base`) or a
 * CAIP-2 id (`eip155:8453`). Pairs with an unknown network or a URL that is not http(s) are ignored.
 */
export function rpcUrls(env: string | undefined = process.env.CAPDEX_RPC_URLS): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (env ?? "").split(",")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const name = normalizeNetwork(part.slice(0, i));
    const url = part.slice(i + 1).trim();
    if (!name || !/^https?:\/\/\S+$/i.test(url)) continue;
    out.set(NETWORKS[name], url);
  }
  return out;
}

/** How long verifying one payment may take on the request path (CAPDEX_PAYMENT_VERIFY_TIMEOUT_MS, default 3000). */
export function verifyTimeoutMs(): number {
  const n = Number(process.env.CAPDEX_PAYMENT_VERIFY_TIMEOUT_MS);
  return process.env.CAPDEX_PAYMENT_VERIFY_TIMEOUT_MS?.trim() && Number.isFinite(n) && n > 0 ? Math.min(n, 30_000) : 3_000;
}

const clients = new Map<string, { client: PublicClient; chainId: Promise<number | null> }>();

/** A client for the network's RPC (null without one), and the chain id the RPC says it serves. */
export function rpcClient(caip2: string): { client: PublicClient; chainId: Promise<number | null> } | null {
  const url = rpcUrls().get(caip2);
  if (!url) return null;
  const key = `${caip2} ${url}`;
  let c = clients.get(key);
  if (!c) {
    // No retries: the whole check has one deadline, and a second try would not fit in it.
    const client = createPublicClient({ transport: http(url, { timeout: verifyTimeoutMs(), retryCount: 0 }) }) as PublicClient;
    const chainId = client.getChainId().catch(() => null);
    c = { client, chainId };
    // A failed chain id lookup is asked again next time, not cached.
    void chainId.then((id) => {
      if (id === null) clients.delete(key);
    });
    clients.set(key, c);
  }
  return c;
}
