// The log's sink on real pipes: a child process logs through it to its stdout while this test reads
// the pipe, stops reading it, or closes it. Whatever the reader does, the child keeps running and exits
// at once; what could not be written is dropped and counted.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LogSinkStats } from "@/lib/log/sink";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-log-sink-"));
const script = path.join(dir, "child.mts");
// 10,000 lines of about 250 bytes (2.5 MB, far more than a pipe, 64 KiB, or the queue, 1 MiB, holds):
// at once for a reader that stalls or is gone, 250 every 40 ms for one that reads.
fs.writeFileSync(
  script,
  `import { openLogSink } from ${JSON.stringify(path.resolve("lib/log/sink.ts"))};
const sink = openLogSink(1);
const line = JSON.stringify({ level: "info", msg: "request", pad: "x".repeat(220) }) + "\\n";
const perTick = Number(process.env.PER_TICK);
let rounds = 0;
const tick = setInterval(() => {
  for (let i = 0; i < perTick; i++) sink.write(line);
  if (++rounds < 10_000 / perTick) return;
  clearInterval(tick);
  setTimeout(() => {
    process.stderr.write(JSON.stringify(sink.snapshot()) + "\\n");
    process.exit(0);
  }, 200);
}, 40);
`,
);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function runChild(reader: "reads" | "stalls" | "gone"): Promise<{ stats: LogSinkStats; ms: number; lines: number; code: number | null }> {
  const t0 = Date.now();
  const env = { ...process.env, PER_TICK: reader === "reads" ? "250" : "10000" };
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "pipe"], env });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  if (reader === "reads") child.stdout.on("data", (d) => (out += d));
  else if (reader === "stalls") child.stdout.pause();
  else child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ms = Date.now() - t0;
  child.stdout.destroy();
  return { stats: JSON.parse(err.trim().split("\n").at(-1) ?? "{}"), ms, lines: out.split("\n").length - 1, code };
}

describe("the log sink", () => {
  it("writes every line to a reader that keeps up", async () => {
    const r = await runChild("reads");
    expect(r.code).toBe(0);
    expect(r.stats.dropped).toBe(0);
    expect(r.stats.written).toBe(10_000);
    expect(r.lines).toBe(10_000);
  });

  it("drops and counts lines beyond its queue when nobody reads the pipe, and still exits at once", async () => {
    const r = await runChild("stalls");
    expect(r.code).toBe(0);
    expect(r.stats.droppedFull).toBeGreaterThan(0);
    expect(r.stats.stopped).toBeNull();
    expect(r.ms).toBeLessThan(5_000);
  });

  it("stops writing when the reader is gone (EPIPE) and counts what it could not write", async () => {
    const r = await runChild("gone");
    expect(r.code).toBe(0);
    expect(r.stats.stopped).toBe("EPIPE");
    expect(r.stats.droppedClosed).toBeGreaterThan(0);
    expect(r.stats.written + r.stats.dropped).toBe(10_000);
    expect(r.ms).toBeLessThan(5_000);
  });
});
