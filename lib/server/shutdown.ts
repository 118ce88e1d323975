// Graceful shutdown of a process (web server or worker): the first SIGTERM or SIGINT runs its stop
// steps and exits 0, or 1 if they fail or outlast the deadline (10 s); a second signal exits at once.
import { EventEmitter } from "node:events";
import { flushLog, logger } from "@/lib/log";

export const SHUTDOWN_DEADLINE_MS = 10_000;

/** Shutdown's lines in the process log, written out before each exit. */
export function shutdownLog(level: "info" | "warn" | "error", message: string): void {
  logger()[level](message);
  flushLog();
}

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof SIGNAL_CODES;

export type ShutdownOptions = {
  /** Runs once, on the first signal: stop taking work, finish what is in flight, close resources. */
  stop: (signal: Signal) => Promise<void>;
  deadlineMs?: number;
  log?: (level: "info" | "warn" | "error", message: string) => void;
  /** Test seams: where signals come from, and how the process ends. */
  signals?: Pick<EventEmitter, "on">;
  exit?: (code: number) => void;
};

/** Installs the handlers; returns a function that starts the same shutdown without a signal. */
export function installShutdown(opts: ShutdownOptions): (signal?: Signal) => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const log = opts.log ?? ((level, message) => console[level](`[capdex] ${message}`));
  const deadlineMs = opts.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  let stopping = false;
  const begin = (signal: Signal = "SIGTERM") => {
    if (stopping) {
      log("warn", `${signal} again: exiting now`);
      exit(SIGNAL_CODES[signal]);
      return;
    }
    stopping = true;
    const t0 = Date.now();
    log("info", `${signal}: shutting down (a second signal exits at once)`);
    const deadline = setTimeout(() => {
      log("error", `shutdown still running after ${deadlineMs} ms: exiting`);
      exit(1);
    }, deadlineMs);
    opts.stop(signal).then(
      () => {
        clearTimeout(deadline);
        log("info", `shut down cleanly in ${Date.now() - t0} ms`);
        exit(0);
      },
      (err) => {
        clearTimeout(deadline);
        log("error", `shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        exit(1);
      },
    );
  };
  const signals = opts.signals ?? process;
  for (const signal of Object.keys(SIGNAL_CODES) as Signal[]) signals.on(signal, () => begin(signal));
  return begin;
}
