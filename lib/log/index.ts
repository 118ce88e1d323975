// The process's log: one JSON line per event on stdout (pino), at LOG_LEVEL (default info); in a
// terminal, one readable line instead (./pretty.ts). Events carry ids, names, statuses and
// durations, never request bodies, headers, keys, tokens or e-mail addresses; errors keep their
// code, first message line and stack frames (errorFields), not a failed query's parameters.
import pino from "pino";
import { prettyStream } from "./pretty";
import { openLogSink, type LogSink, type LogSinkStats } from "./sink";

export type Logger = pino.Logger;

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);
const shared = globalThis as unknown as { __capdexLogger?: Logger; __capdexLogFd?: 1 | 2; __capdexLogSink?: LogSink };

/** Sends the log to stderr (the CLI, whose stdout is its answer); call before the first log line. */
export function logToStderr(): void {
  shared.__capdexLogFd = 2;
}

function createLogger(): Logger {
  const wanted = (process.env.LOG_LEVEL ?? "info").toLowerCase();
  const level = LEVELS.has(wanted) ? wanted : "info";
  const fd = shared.__capdexLogFd ?? 1;
  const out = fd === 2 ? process.stderr : process.stdout;
  const pretty = process.env.LOG_FORMAT === "pretty" || (process.env.LOG_FORMAT !== "json" && out.isTTY === true);
  // Asynchronous writes: a request never waits for a write(2), and lines that come while one is in
  // flight go out together in the next. A pipe nobody reads, or whose reader is gone, never blocks
  // the process or its exit: lines beyond a bounded queue are dropped and counted (./sink.ts).
  const sink = (shared.__capdexLogSink = openLogSink(fd));
  const destination = pretty ? prettyStream(sink, out.isTTY === true) : sink;
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      // Milliseconds since the epoch (pino's default, cheaper than an ISO string); levels by name.
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  if (!LEVELS.has(wanted)) log.warn({ LOG_LEVEL: wanted }, "LOG_LEVEL is not a level; using info");
  return log;
}

/** The process's logger (one per process, whichever bundle asks). */
export function logger(): Logger {
  return (shared.__capdexLogger ??= createLogger());
}

/** What an error may show in a log: its name, code and first message line, its cause's, and its stack frames. */
export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err).split("\n")[0].slice(0, 300) };
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const code = (err as Error & { code?: unknown }).code;
  return {
    error: err.message.split("\n")[0].slice(0, 300),
    error_name: err.name,
    ...(typeof code === "string" && { error_code: code }),
    ...(cause && typeof cause.message === "string" && { cause: cause.message.split("\n")[0].slice(0, 300) }),
    ...(cause && typeof cause.code === "string" && { cause_code: cause.code }),
    stack: (err.stack ?? "")
      .split("\n")
      .filter((l) => l.startsWith("    at "))
      .slice(0, 8)
      .map((l) => l.trim()),
  };
}

/** Writes what is buffered if the log's reader takes it now (shutdown, before process.exit); never waits. */
export function flushLog(): void {
  shared.__capdexLogSink?.flushOnce();
}

/** Lines written and dropped so far (metrics), or null before the first log line. */
export function logSinkStats(): LogSinkStats | null {
  return shared.__capdexLogSink?.snapshot() ?? null;
}
