// The signal handling every Capdex process shares (lib/server/shutdown.ts): the first signal runs the
// stop steps and exits 0; a failure or the deadline exits 1; a second signal exits at once.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { installShutdown } from "@/lib/server/shutdown";

function harness(stop: () => Promise<void>, deadlineMs = 1_000) {
  const signals = new EventEmitter();
  const exits: number[] = [];
  let exited!: (code: number) => void;
  const exitedOnce = new Promise<number>((r) => (exited = r));
  installShutdown({
    stop,
    deadlineMs,
    signals,
    log: () => {},
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
  });
  return { signals, exits, exitedOnce };
}

describe("graceful shutdown", () => {
  it("runs the stop steps once on SIGTERM and exits 0 when they finish", async () => {
    let runs = 0;
    const h = harness(async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
    });
    h.signals.emit("SIGTERM");
    expect(await h.exitedOnce).toBe(0);
    expect(runs).toBe(1);
  });

  it("exits at once on a second signal, without waiting for the steps", async () => {
    const h = harness(() => new Promise(() => {}));
    h.signals.emit("SIGTERM");
    h.signals.emit("SIGINT");
    expect(await h.exitedOnce).toBe(130);
  });

  it("exits 1 when the steps outlast the deadline", async () => {
    const t0 = Date.now();
    const h = harness(() => new Promise(() => {}), 50);
    h.signals.emit("SIGTERM");
    expect(await h.exitedOnce).toBe(1);
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("exits 1 when a step fails", async () => {
    const h = harness(async () => {
      throw new Error("pool would not close");
    });
    h.signals.emit("SIGINT");
    expect(await h.exitedOnce).toBe(1);
    expect(h.exits).toEqual([1]);
  });
});
