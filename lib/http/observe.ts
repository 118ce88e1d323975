// Each API answer counted and timed (lib/metrics) and logged as one line (lib/log): request id,
// operation, status, duration and the caller's kind; never its address, key or body.
import type { Principal } from "@/lib/auth/principal";
import { errorFields, logger, type Logger } from "@/lib/log";
import { requestRecorder } from "@/lib/metrics";

export type AnswerObserver = (requestId: string, status: number, started: number, principal: Principal | undefined) => void;

export function answerObserver(operation: string): AnswerObserver {
  const record = requestRecorder(operation);
  // A child logger per operation: pino serialises its bindings once, not on every line.
  let log: Logger | undefined;
  return (requestId, status, started, principal) => {
    const ms = performance.now() - started;
    record(status, ms / 1000);
    log ??= logger().child({ operation });
    if (!log.isLevelEnabled("info")) return;
    log.info({ request_id: requestId, status, duration_ms: Math.round(ms * 10) / 10, principal: principal?.kind ?? "unknown" }, "request");
  };
}

const shared = globalThis as unknown as { __capdexUnavailableLoggedAt?: number };

/**
 * A 5xx's cause, for the operator: what failed, never the query's parameters. A 500 is a bug and
 * logged each time; a 503 (database or limiter store unreachable) is expected during an outage and
 * logged once per 10 s, since every request of the outage gets one.
 */
export function logServerError(requestId: string, operation: string, status: number, err: unknown): void {
  if (status === 503) {
    const now = Date.now();
    if (now - (shared.__capdexUnavailableLoggedAt ?? 0) < 10_000) return;
    shared.__capdexUnavailableLoggedAt = now;
    logger().warn({ request_id: requestId, operation, ...errorFields(err), stack: undefined }, "answering 503: a dependency is unreachable (logged once per 10 s)");
    return;
  }
  logger().error({ request_id: requestId, operation, ...errorFields(err) }, "request failed");
}
