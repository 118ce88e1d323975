// First-party probes in the simulation: the schedule and state rules of lib/probes/state.ts
// (interval with +-10% jitter, failing after 3 failures in a row, back-off from the fourth, up to
// 6 hours), applied in memory. Each probe is also an outcome report, as probeListing records it.
import { FAILING_AFTER, probeIntervalSeconds } from "@/lib/probes/state";
import { uniform } from "./random";

const BACKOFF_CAP_SECONDS = 6 * 3600;
// PROBE_INTERVAL_SECONDS, read once (the simulation asks for it half a million times a world).
const INTERVAL = probeIntervalSeconds();

export type ProbeState = {
  checkState: "verified" | "failing" | "unverified";
  consecutiveFailures: number;
  lastCheckOk: boolean | null;
  nextAt: number;
  /** Probes so far (keys the probe's random draws). */
  n: number;
};

/** A new endpoint is due at once; the network's first probes are spread over one interval. */
export function newProbeState(seed: number, capability: number, endpoint: number, startMs: number): ProbeState {
  const first = startMs + Math.floor(uniform(seed, 30, capability, endpoint) * INTERVAL * 1000);
  return { checkState: "unverified", consecutiveFailures: 0, lastCheckOk: null, nextAt: first, n: 0 };
}

/** Folds a probe's result into the state, as recordProbe's statement does. */
export function recordProbeResult(s: ProbeState, ok: boolean, at: number, seed: number, key: number): void {
  const interval = INTERVAL;
  const failures = ok ? 0 : s.consecutiveFailures + 1;
  s.consecutiveFailures = failures;
  s.checkState = ok ? "verified" : failures >= FAILING_AFTER ? "failing" : "unverified";
  s.lastCheckOk = ok;
  const seconds = Math.max(interval, Math.min(interval * Math.pow(2, Math.max(0, failures - FAILING_AFTER)), BACKOFF_CAP_SECONDS));
  s.nextAt = at + Math.round(seconds * (0.9 + 0.2 * uniform(seed, 31, key, s.n)) * 1000);
  s.n++;
}
