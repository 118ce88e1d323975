// The background jobs as one explicit list (lib/jobs/all.ts), and the scheduler that starts and stops
// it: stop() starts no new run, aborts the running ones' signal and waits for them to return.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { runIfDue, startJobs, type Job } from "@/lib/jobs";
import { ALL_JOBS } from "@/lib/jobs/all";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "none" });
});
afterAll(async () => {
  await t?.close();
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("the list of jobs", () => {
  it("names every domain's jobs once", () => {
    const names = ALL_JOBS.map((j) => j.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(["outcomes.rollup", "stats.refresh", "probes.run", "submissions.recheck_pending", "ratelimit.cleanup"]),
    );
    for (const job of ALL_JOBS) expect(job.everyMs).toBeGreaterThan(0);
  });

  it("is the only place that points at the scheduler: no domain imports lib/jobs", () => {
    const lib = path.join(process.cwd(), "lib");
    const offenders = filesUnder(lib)
      .filter((f) => !f.startsWith(path.join(lib, "jobs") + path.sep) && !f.startsWith(path.join(lib, "server") + path.sep))
      .filter((f) => /from\s+["']@\/lib\/jobs|import\s+["']@\/lib\/jobs/.test(fs.readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("the scheduler", () => {
  it("stops at a safe point: no new run, the running one sees its signal aborted and is awaited", async () => {
    const seen: string[] = [];
    let release!: () => void;
    const slow: Job = {
      name: "test.slow",
      everyMs: 60_000,
      run: async (_db, { signal }) => {
        seen.push("started");
        await new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
        seen.push(signal.aborted ? "stopped at the safe point" : "released");
        return { aborted: signal.aborted };
      },
    };
    const scheduler = startJobs(t.db, [slow], { tickMs: 10 });
    while (!seen.length) await new Promise((r) => setTimeout(r, 10));
    await scheduler.stop();
    expect(seen).toEqual(["started", "stopped at the safe point"]);
    release();
    const [claim] = await queryRows<{ claimed_until: string | null; last_result: unknown }>(
      t.db,
      sql`select claimed_until, last_result from job_claims where name = 'test.slow'`,
    );
    // The run ended normally: its claim is released and its summary kept.
    expect(claim).toEqual({ claimed_until: null, last_result: { aborted: true } });
  });

  it("releases a claim whose release failed as soon as the database answers again", async () => {
    // A handle whose database can be made unreachable: every statement fails while `down`.
    let down = false;
    const flaky = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === "execute" && down) return () => Promise.reject(Object.assign(new Error("connection lost"), { code: "CONNECTION_CLOSED" }));
        return Reflect.get(target, prop, receiver);
      },
    }) as typeof t.db;
    const job: Job = {
      name: "test.outage",
      everyMs: 60_000,
      run: async () => {
        down = true;
        return {};
      },
    };
    await expect(runIfDue(flaky, job)).rejects.toThrow("connection lost");
    const claim = () => queryRows<{ held: boolean }>(t.db, sql`select claimed_until > now() as held from job_claims where name = 'test.outage'`);
    expect(await claim()).toEqual([{ held: true }]);
    down = false;
    const scheduler = startJobs(flaky, [], { tickMs: 10 });
    for (let i = 0; i < 100 && (await claim())[0].held; i++) await new Promise((r) => setTimeout(r, 20));
    await scheduler.stop();
    expect(await claim()).toEqual([{ held: null }]);
  });

  it("runs a job once when two instances try it together", async () => {
    let runs = 0;
    const job: Job = { name: "test.once", everyMs: 60_000, run: async () => ({ run: ++runs }) };
    const results = await Promise.all([runIfDue(t.db, job), runIfDue(t.db, job)]);
    expect(results.filter((r) => r !== null)).toEqual([{ run: 1 }]);
  });
});
