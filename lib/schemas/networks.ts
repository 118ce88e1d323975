// Payment networks Capdex knows: friendly names (as x402 v1 uses them) and CAIP-2 ids (x402 v2).

export const NETWORKS = {
  base: "eip155:8453",
  "base-sepolia": "eip155:84532",
  ethereum: "eip155:1",
  polygon: "eip155:137",
  arbitrum: "eip155:42161",
  optimism: "eip155:10",
  avalanche: "eip155:43114",
  solana: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "solana-devnet": "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
} as const;

export type NetworkName = keyof typeof NETWORKS;
export const NETWORK_NAMES = Object.keys(NETWORKS) as NetworkName[];

const BY_LOWER = new Map<string, NetworkName>();
for (const [name, caip] of Object.entries(NETWORKS) as Array<[NetworkName, string]>) {
  BY_LOWER.set(name, name);
  BY_LOWER.set(caip.toLowerCase(), name);
}

/** The friendly name of a network given by name or CAIP-2 id (case-insensitive), or null. */
export function normalizeNetwork(input: string): NetworkName | null {
  return BY_LOWER.get(input.trim().toLowerCase()) ?? null;
}
