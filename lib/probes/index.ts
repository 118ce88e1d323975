// Endpoint checks: one unpaid request with the listed method, judged against the listing, stored in
// endpoint_checks and on the endpoint, and fed to the outcome figures as first-party data.
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { endpoints } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { NetError, safeFetch } from "@/lib/net";
import { recordProbeOutcome } from "@/lib/outcomes";
import { judgeError, judgeResponse, type Listing, type ProbeVerdict } from "./evaluate";
import { alertFailing } from "./alerts";
import { recordSeenChallenge } from "./seen";
import { recordProbe, type RecordedState } from "./state";
import { errorFields, logger } from "@/lib/log";

export type { ProbeReason, ProbeVerdict, Listing, PaymentRequirement, SeenChallenge } from "./evaluate";
export { expireVerified, listEndpointChecks, probeIntervalSeconds } from "./state";

export type ProbeResult =
  | ({ endpointId: string; skipped: null; state: RecordedState | null } & ProbeVerdict)
  | { endpointId: string; skipped: "demo" | "not_listed" | "stopping" };

// Failures that say nothing about how the endpoint serves callers (we refused to send the request).
const NOT_OBSERVED = new Set(["private_address", "invalid_url", "insecure_scheme"]);

/** Sends the probe request and judges the answer; never throws for network trouble. */
export async function runProbe(listing: Listing, opts: { signal?: AbortSignal } = {}): Promise<ProbeVerdict> {
  const started = performance.now();
  const method = listing.method.toUpperCase();
  const hasBody = method === "POST" || method === "PUT" || method === "PATCH";
  try {
    const res = await safeFetch(listing.url, {
      method,
      // An empty JSON object, so payment middleware in front of a JSON API answers before validation does.
      ...(hasBody ? { body: "{}", headers: { "content-type": "application/json" } } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return judgeResponse(listing, res);
  } catch (err) {
    const netErr = err instanceof NetError ? err : new NetError("connection_failed", "request failed");
    return judgeError(listing, netErr, Math.round(performance.now() - started));
  }
}

/** Probes one endpoint now and stores the result (demo and delisted endpoints are skipped). */
export async function probeEndpoint(db: Db, endpointId: string): Promise<ProbeResult> {
  const [e] = await db
    .select({ id: endpoints.id, url: endpoints.url, method: endpoints.method, pricePerCall: endpoints.pricePerCall, network: endpoints.network, isDemo: endpoints.isDemo, status: endpoints.status })
    .from(endpoints)
    .where(eq(endpoints.id, endpointId))
    .limit(1);
  if (!e) throw new ApiError("endpoint_not_found", `No endpoint has the id ${endpointId}.`);
  if (e.isDemo) return { endpointId, skipped: "demo" };
  if (e.status !== "listed") return { endpointId, skipped: "not_listed" };
  return probeListing(db, e);
}

/**
 * Probes a listing the caller already holds (the schedule has it from its claim). A probe cut short
 * by `signal` (the process is stopping) is not stored: it says nothing of the endpoint. Its claim is
 * released, so another instance probes it when due.
 */
export async function probeListing(db: Db, e: Listing & { id: string }, opts: { signal?: AbortSignal } = {}): Promise<ProbeResult> {
  const verdict = await runProbe(e, opts);
  if (opts.signal?.aborted) {
    await db.execute(sql`update endpoints set check_claimed_until = null where id = ${e.id}::uuid`);
    return { endpointId: e.id, skipped: "stopping" };
  }
  const state = await recordProbe(db, e.id, verdict);
  if (state && verdict.seen) await recordSeenChallenge(db, e.id, verdict.seen);
  if (state && !NOT_OBSERVED.has(verdict.reason)) {
    await recordProbeOutcome(db, { endpointId: e.id, success: verdict.ok, latencyMs: verdict.latencyMs, statusCode: verdict.status }).catch((err) => {
      // The check itself is stored; a lost figure sample is not worth failing the probe for.
      logger().error({ endpoint_id: e.id, ...errorFields(err) }, "probe outcome not recorded");
    });
  }
  // Once per run of failures: the probe that made it failing tells its provider.
  if (state?.becameFailing) await alertFailing(db, e.id, verdict, state.consecutiveFailures);
  return { endpointId: e.id, skipped: null, state, ...verdict };
}
