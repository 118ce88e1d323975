// Formatting of figures for the portal: the same numbers the API returns, written for people.
// Pure functions (no locale or time-zone dependence) so server and client render the same text.

export function formatPrice(usd: number): string {
  if (usd === 0) return "Free";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  // Up to 6 decimals, trailing zeros dropped: $0.0015, $0.02
  return `$${usd.toFixed(6).replace(/0+$/, "").replace(/\.$/, "")}`;
}

/** How an endpoint is paid for: "Free" (a free endpoint takes no payment, so names no network), else its networks and assets. */
export function formatPayment(payment: { price_per_call: number; network: string; networks?: string[]; accepted_assets: string[] }): {
  networks: string;
  assets: string;
} {
  if (payment.price_per_call === 0) return { networks: "Free", assets: "no payment" };
  const networks = payment.networks?.length ? payment.networks : [payment.network];
  return { networks: networks.join(", "), assets: payment.accepted_assets.join(", ") };
}

export function formatPercent(rate: number | null | undefined, digits = 1): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return "—";
  return `${(rate * 100).toFixed(digits)}%`;
}

/**
 * A probability as people read it: never "100%" or "0%", which a calibrated resolver never means
 * ("99.7%", "0.3%", "<0.1%"); whole percents in between.
 */
export function formatProbability(p: number): string {
  if (p >= 0.999) return ">99.9%";
  if (p < 0.001) return "<0.1%";
  if (p >= 0.99 || p < 0.01) return `${(p * 100).toFixed(1)}%`;
  return `${Math.round(p * 100)}%`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

export function formatInt(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatScore(score: number): string {
  return score.toFixed(3);
}

/** "5 min ago" relative to `now` (both as Dates or ISO strings). */
export function formatAgo(when: Date | string | null | undefined, now: Date = new Date()): string {
  if (!when) return "never";
  const t = typeof when === "string" ? new Date(when) : when;
  const s = Math.max(0, Math.round((now.getTime() - t.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** "14:03:22 UTC": a clock time that does not depend on the reader's time zone. */
export function formatUtcTime(when: Date | string): string {
  const t = typeof when === "string" ? new Date(when) : when;
  return `${t.toISOString().slice(11, 19)} UTC`;
}

/** "2025-01-31 14:03 UTC". */
export function formatUtcDateTime(when: Date | string): string {
  const t = typeof when === "string" ? new Date(when) : when;
  return `${t.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const REASON_TEXT: Record<string, string> = {
  failed_recent_checks: "failing its recent checks",
  unverified: "not verified",
  over_max_price: "over the maximum price",
  network_mismatch: "on another network",
  beyond_limit: "beyond the result limit",
  asset_mismatch: "does not take the asset asked for",
  scheme_mismatch: "does not offer the payment scheme asked for",
  not_callable: "how to call it is not known",
};

/** Why discover left an endpoint out of the ranking, in words. */
export function describeExclusion(reason: string): string {
  return REASON_TEXT[reason] ?? reason.replace(/_/g, " ");
}
