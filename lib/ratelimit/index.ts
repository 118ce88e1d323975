// The shared rate limiter. The database-backed check lands with the accounts issue; until then
// every request is allowed and no headers are sent.
import type { Db } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { ApiError } from "@/lib/http/errors";
import type { PolicyName } from "./policies";

export { POLICIES, type PolicyName } from "./policies";

export type RateLimitResult = { allowed: true; headers: Record<string, string> } | { allowed: false; headers: Record<string, string>; error: ApiError };

export async function checkRateLimit(_db: Db, _policy: PolicyName, _principal: Principal): Promise<RateLimitResult> {
  return { allowed: true, headers: {} };
}
