// The log in a terminal: each JSON event turned into one line a person reads at a glance,
//   07:12:03.123 INFO  POST /discover 200 3.2 ms anonymous  req=4f1c...
//   07:12:04.002 WARN  rate-limit store failed  policy=submit
// A dozen lines instead of pino-pretty and its dependencies; used only when stdout is a terminal
// (or LOG_FORMAT=pretty), so its JSON parse never costs a production server anything.
const COLOURS: Record<string, string> = { trace: "90", debug: "36", info: "32", warn: "33", error: "31", fatal: "35" };
const SHOWN_FIRST = new Set(["level", "time", "pid", "msg", "request_id", "operation", "status", "duration_ms", "principal"]);

export function formatLine(line: string, colour = false): string {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(line);
  } catch {
    return line + "\n";
  }
  const level = String(e.level ?? "info");
  const time = typeof e.time === "number" ? new Date(e.time).toISOString().slice(11, 23) : "";
  const tag = level.toUpperCase().padEnd(5);
  const head =
    e.operation !== undefined && e.status !== undefined
      ? `${e.operation} ${e.status} ${e.duration_ms} ms ${e.principal ?? ""}`.trimEnd()
      : String(e.msg ?? "");
  const rest = Object.entries(e)
    .filter(([k]) => !SHOWN_FIRST.has(k) && !(k === "msg" && e.operation !== undefined))
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  if (e.request_id) rest.unshift(`req=${e.request_id}`);
  const label = colour ? `\u001b[${COLOURS[level] ?? "0"}m${tag}\u001b[0m` : tag;
  return `${time} ${label} ${head}${rest.length ? "  " + rest.join(" ") : ""}\n`;
}

export function prettyStream(sink: { write: (line: string) => boolean }, tty: boolean): { write: (chunk: string) => boolean } {
  const colour = tty && !process.env.NO_COLOR;
  return { write: (chunk) => sink.write(formatLine(chunk.trimEnd(), colour)) };
}
