// Discovery's tunables from the environment, read at most once a second (process.env is slow to
// read on every request, and tests change it while the process runs).
import { numberSetting } from "@/lib/env";

const envNumber = (name: string, fallback: number) => numberSetting(process.env[name], fallback);
export type DiscoverySettings = {
  /** How often cached candidates are checked for changes in the database: DISCOVERY_CACHE_MS, default 5 s. */
  cacheMs: number;
  /** Share of 5-minute windows in which a capability explores: DISCOVERY_EXPLORATION_RATE, 0..0.5, default 0.1. */
  explorationRate: number;
  /** Most often the discovery log is written: DISCOVERY_FLUSH_MS, default 1 s. */
  flushMs: number;
};

export const DEFAULT_EXPLORATION_RATE = 0.1;
const MAX_EXPLORATION_RATE = 0.5;

let cached: { at: number; value: DiscoverySettings } | null = null;

export function discoverySettings(): DiscoverySettings {
  const now = Date.now();
  if (cached && now - cached.at < 1000) return cached.value;
  const value: DiscoverySettings = {
    cacheMs: envNumber("DISCOVERY_CACHE_MS", 5_000),
    explorationRate: Math.min(MAX_EXPLORATION_RATE, envNumber("DISCOVERY_EXPLORATION_RATE", DEFAULT_EXPLORATION_RATE)),
    flushMs: envNumber("DISCOVERY_FLUSH_MS", 1_000),
  };
  cached = { at: now, value };
  return value;
}

/** Forget the cached settings (tests that change the environment). */
export function reloadDiscoverySettings(): void {
  cached = null;
}
