// Log-spaced latency buckets: bucket 0 is [0, 1) ms, bucket i >= 1 is [1.1^(i-1), 1.1^i) ms, so a
// percentile read from the histogram (the middle of its bucket) is within 4.9% of the exact one.
import { sql, type SQL } from "drizzle-orm";

export const BUCKET_RATIO = 1.1;
export const BUCKET_COUNT = 142; // 1.1^141 ms > 600,000 ms, the largest latency accepted

export type Histogram = Record<string, number>;

export function bucketOf(latencyMs: number): number {
  if (!(latencyMs >= 1)) return 0;
  return Math.min(BUCKET_COUNT - 1, Math.floor(Math.log(latencyMs) / Math.log(BUCKET_RATIO)) + 1);
}

/** The same bucket function in SQL, for aggregation inside the database. */
export function bucketSql(latency: SQL): SQL {
  // float8 throughout, so the database computes exactly what bucketOf computes in JS.
  const ratio = sql.raw(`${BUCKET_RATIO}::float8`);
  return sql`least(${sql.raw(String(BUCKET_COUNT - 1))}, case when ${latency} < 1 then 0
    else floor(ln(${latency}::float8) / ln(${ratio}))::int + 1 end)`;
}

export function bucketBounds(i: number): [number, number] {
  if (i <= 0) return [0, 1];
  return [Math.pow(BUCKET_RATIO, i - 1), Math.pow(BUCKET_RATIO, i)];
}

export function mergeHistograms(into: Histogram, from: Histogram | null | undefined): Histogram {
  if (!from) return into;
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + Number(v);
  return into;
}

/**
 * The q-quantile (0..1) of a histogram, nearest-rank: the geometric middle of the bucket holding the
 * ceil(q * n)-th value. That value lies in the same bucket, whose ends differ by BUCKET_RATIO, so the
 * answer is within sqrt(1.1) - 1 < 4.9% of the exact one whatever the distribution. Null when empty.
 */
export function quantileOf(hist: Histogram, q: number): number | null {
  const entries = Object.entries(hist)
    .map(([k, v]) => [Number(k), Number(v)] as const)
    .filter(([, v]) => v > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, v]) => s + v, 0);
  if (total <= 0) return null;
  // A hair below q * total, so that float rounding never skips the bucket holding the rank.
  const target = q * total * (1 - 1e-12);
  let seen = 0;
  for (const [bucket, weight] of entries) {
    seen += weight;
    if (seen >= target) return middleOf(bucket);
  }
  return middleOf(entries[entries.length - 1][0]);
}

function middleOf(bucket: number): number {
  const [lo, hi] = bucketBounds(bucket);
  return bucket === 0 ? (lo + hi) / 2 : Math.sqrt(lo * hi);
}
