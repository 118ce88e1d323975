// Each API answer counted and timed (lib/metrics), by operation and status.
import type { Principal } from "@/lib/auth/principal";
import { requestRecorder } from "@/lib/metrics";

export type AnswerObserver = (requestId: string, status: number, started: number, principal: Principal | undefined) => void;

export function answerObserver(operation: string): AnswerObserver {
  const record = requestRecorder(operation);
  return (_requestId, status, started) => {
    record(status, (performance.now() - started) / 1000);
  };
}

export function logServerError(requestId: string, _operation: string, err: unknown): void {
  console.error(`[capdex] request ${requestId} failed:`, err);
}
