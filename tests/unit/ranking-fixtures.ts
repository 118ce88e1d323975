// Candidates with chosen figures, for the ranking unit tests.
import type { Candidate } from "@/lib/discovery/candidates";
import { emptyFigures, type ObservedFigures } from "@/lib/outcomes/figures";

let n = 0;
/** A uuid-shaped id whose order follows the given number (ids sort like the numbers). */
export function idOf(k: number): string {
  return `00000000-0000-4000-8000-${String(k).padStart(12, "0")}`;
}

export type Spec = {
  id?: number;
  price?: number;
  network?: string;
  checkState?: "verified" | "unverified" | "failing";
  /** successes / reports (weight 1 each) */
  ok?: number;
  total?: number;
  p95?: number | null;
  days?: Array<number | null>;
  lastCheckOk?: boolean | null;
  consecutiveFailures?: number;
  domainVerified?: boolean;
  source?: string;
  call?: Candidate["call"];
  assetKeys?: string[];
  schemes?: string[];
  /** Every network it accepts (default: [network]); ignored for a free endpoint (it accepts none). */
  networks?: string[];
};

export function figures(spec: Spec): ObservedFigures {
  const f = emptyFigures();
  const total = spec.total ?? 0;
  const ok = spec.ok ?? 0;
  f.sample_size_7d = total;
  f.weighted_total_7d = total;
  f.weighted_success_7d = ok;
  f.success_rate_7d = total ? ok / total : null;
  f.p95_latency_ms = spec.p95 ?? null;
  f.daily_success = spec.days ?? (total ? Array(7).fill(ok / total) : Array(7).fill(null));
  return f;
}

export function candidate(spec: Spec = {}): Candidate {
  const k = spec.id ?? ++n + 1000;
  const state = spec.checkState ?? "verified";
  return {
    id: idOf(k),
    providerName: `Provider ${k}`,
    url: `https://api.p${k}.example/v1`,
    method: "GET",
    paymentType: "x402",
    pricePerCall: spec.price ?? 0.01,
    network: spec.network ?? "base",
    networkName: spec.network ?? "base",
    networks: (spec.price ?? 0.01) > 0 ? (spec.networks ?? [spec.network ?? "base"]) : [],
    acceptedAssets: ["USDC"],
    checkState: state,
    domainVerified: spec.domainVerified ?? true,
    consecutiveFailures: spec.consecutiveFailures ?? (state === "failing" ? 3 : 0),
    lastCheckOk: spec.lastCheckOk === undefined ? state !== "failing" : spec.lastCheckOk,
    lastVerifiedAt: state === "verified" ? "2025-01-01T00:00:00.000Z" : null,
    figures: figures(spec),
    source: spec.source ?? "submission",
    call: spec.call ?? null,
    assetKeys: spec.assetKeys ?? ["usdc"],
    schemes: spec.schemes ?? ["exact"],
    description: "",
    declaration: null,
    paymentSeen: null,
    changedAt: "2025-01-01T00:00:00.000Z",
  };
}
