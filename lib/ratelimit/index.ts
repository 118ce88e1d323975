// The shared rate limiter: API.md's table per operation and tier, one counter per policy and caller
// (in Postgres, or in Redis when REDIS_URL is set), IETF RateLimit headers on every limited answer,
// 429 rate_limited over the limit. If the counter's store fails, reads are served unlimited and
// writes get 503 (docs/auth.md).
import type { Db } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { ApiError } from "@/lib/http/errors";
import { metrics } from "@/lib/metrics";
import { POLICIES, READ_POLICIES, type PolicyName } from "./policies";
import { hitRedis, redisUrl } from "./redis";
import { hit } from "./store";
import { errorFields, logger } from "@/lib/log";

export { POLICIES, READ_POLICIES, type PolicyName } from "./policies";

type Decision = "allowed" | "limited" | "store_failed_allowed" | "store_failed_refused";
const DECISIONS: Decision[] = ["allowed", "limited", "store_failed_allowed", "store_failed_refused"];
// One label set per policy and decision, made once: this runs on every limited request.
const decisionLabels = (store: string) =>
  Object.fromEntries(
    (Object.keys(POLICIES) as PolicyName[]).map((policy) => [policy, Object.fromEntries(DECISIONS.map((decision) => [decision, { policy, decision, store }]))]),
  ) as Record<PolicyName, Record<Decision, { policy: string; decision: string; store: string }>>;
const LABELS = { postgres: decisionLabels("postgres"), redis: decisionLabels("redis") };

function countDecision(store: keyof typeof LABELS, policy: PolicyName, decision: Decision) {
  metrics().rateLimit.inc(LABELS[store][policy][decision]);
}

export type RateLimitResult = { allowed: true; headers: Record<string, string> } | { allowed: false; headers: Record<string, string>; error: ApiError };

/** CAPDEX_RATE_LIMIT=off switches the limiter off (benchmarks only; start-up and /api/ready warn). */
export function rateLimitingEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.CAPDEX_RATE_LIMIT !== "off";
}

export function limitOf(policy: PolicyName, principal: Principal): number {
  return POLICIES[policy][principal.kind];
}

export async function checkRateLimit(db: Db, policy: PolicyName, principal: Principal): Promise<RateLimitResult> {
  if (!rateLimitingEnabled()) return { allowed: true, headers: {} };
  const { windowSeconds } = POLICIES[policy];
  const limit = limitOf(policy, principal);
  const redis = redisUrl();
  const store = redis ? "redis" : "postgres";
  const key = `${policy}:${principal.key}`;
  let count: number;
  let resetSeconds: number;
  try {
    ({ count, resetSeconds } = redis ? await hitRedis(redis, key, windowSeconds) : await hit(db, key, windowSeconds));
  } catch (err) {
    return storageFailed(store, policy, err);
  }
  const headers = {
    "RateLimit-Policy": `"${policy}";q=${limit};w=${windowSeconds}`,
    RateLimit: `"${policy}";r=${Math.max(0, limit - count)};t=${resetSeconds}`,
  };
  if (count <= limit) {
    countDecision(store, policy, "allowed");
    return { allowed: true, headers };
  }
  countDecision(store, policy, "limited");
  const retryAfter = Math.max(1, resetSeconds);
  const tier = principal.kind === "authenticated" ? "this API key" : "anonymous callers from this address";
  const error = new ApiError(
    "rate_limited",
    `The ${policy} limit for ${tier} is ${limit} per ${windowSeconds === 3600 ? "hour" : windowSeconds === 60 ? "minute" : `${windowSeconds} s`}; try again in ${retryAfter} s.${principal.kind === "anonymous" ? " An API key (see /account) raises the limit tenfold." : ""}`,
    { headers: { "Retry-After": String(retryAfter) }, extras: { retry_after: retryAfter, violated_policy: policy } },
  );
  return { allowed: false, headers, error };
}

let lastFailureLog = 0;

function storageFailed(store: keyof typeof LABELS, policy: PolicyName, err: unknown): RateLimitResult {
  const now = Date.now();
  if (now - lastFailureLog > 10_000) {
    lastFailureLog = now;
    logger().error({ store, policy, ...errorFields(err) }, "rate-limit store failed; reads are served unlimited, writes get 503");
  }
  // A read served without a counter costs little; a write without one would let anyone flood the registry.
  if (READ_POLICIES.has(policy)) {
    countDecision(store, policy, "store_failed_allowed");
    return { allowed: true, headers: {} };
  }
  countDecision(store, policy, "store_failed_refused");
  const error = new ApiError("unavailable", "Rate limiting is unavailable, so writes are paused; try again shortly.", {
    headers: { "Retry-After": "5" },
  });
  return { allowed: false, headers: {}, error };
}
