// Decimals of the assets x402 challenges name, so atomic amounts can be compared with listed prices.
// USDC is known by contract address per network (6 decimals); otherwise the challenge's own
// extra.decimals is used, and failing that 6 (every stablecoin x402 uses today has 6).
import type { NetworkName } from "@/lib/schemas/networks";

export const USDC_DECIMALS = 6;

/** Circle's native USDC per network (EVM addresses compared case-insensitively). */
export const USDC_ADDRESSES: Partial<Record<NetworkName, string>> = {
  base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  "base-sepolia": "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  ethereum: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  polygon: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
  arbitrum: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
  optimism: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
  avalanche: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
  solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "solana-devnet": "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
};

export type AssetDecimals = { decimals: number; source: "known_usdc" | "extra" | "assumed"; symbol: string | null };

function sameAsset(a: string, b: string): boolean {
  return a.startsWith("0x") ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** How many decimals `asset` has on `network`, and how we know. */
export function assetDecimals(network: NetworkName | null, asset: string, extra: Record<string, unknown> | null | undefined): AssetDecimals {
  const usdc = network ? USDC_ADDRESSES[network] : undefined;
  if (usdc && sameAsset(usdc, asset)) return { decimals: USDC_DECIMALS, source: "known_usdc", symbol: "USDC" };
  const fromExtra = extra?.decimals;
  const n = typeof fromExtra === "string" ? Number(fromExtra) : fromExtra;
  if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 36) return { decimals: n, source: "extra", symbol: null };
  return { decimals: USDC_DECIMALS, source: "assumed", symbol: null };
}

/** A listed decimal price in atomic units (rounded to the nearest unit). */
export function priceToAtomic(price: number, decimals: number): bigint {
  // toFixed keeps decimal digits exact where price * 10^d in floating point would not.
  const [whole, frac = ""] = price.toFixed(Math.min(decimals + 1, 100)).split(".");
  const digits = `${whole}${frac.slice(0, decimals).padEnd(decimals, "0")}`;
  const roundUp = frac.length > decimals && Number(frac[decimals]) >= 5;
  return BigInt(digits) + (roundUp ? BigInt(1) : BigInt(0));
}

/** Atomic units as a decimal number (for display and stored facts). */
export function atomicToPrice(amount: bigint, decimals: number): number {
  const s = amount.toString().padStart(decimals + 1, "0");
  return Number(`${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals) || "0"}`);
}
