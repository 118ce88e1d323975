// Graceful shutdown of a production server (`next start`, on Postgres): on SIGTERM it fails
// /api/ready and /api/health and closes each connection after its answer for SHUTDOWN_DELAY_MS, then stops taking
// connections, answers the request in flight, writes the buffered discovery log, stops its jobs,
// closes its pool and exits 0; a second signal ends it at once. The worker (`npm run worker`) stops
// its jobs and exits 0 the same way. Needs a production build.
import { spawn } from "node:child_process";
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, queryRows, type DbHandle } from "@/lib/db/client";
import { createServerDatabase, startServer } from "../helpers/server";

let database: { url: string; drop: () => Promise<void> };
let handle: DbHandle;
// The log is written only at shutdown (a minute's flush interval), and jobs run on the server.
const env = () => ({
  DATABASE_URL: database.url,
  CAPDEX_SEED: "demo",
  DISCOVERY_FLUSH_MS: "60000",
  ROLLUP_INTERVAL_MS: "200",
  SHUTDOWN_DELAY_MS: "1000",
});

const discoverInit = (): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ capability_id: "weather.current" }),
});

/** A started server that has finished warming up, so it reads a request as soon as it arrives. */
async function startWarmServer(extra: Record<string, string> = {}) {
  const server = await startServer({ ...env(), ...extra }, { timeoutMs: 240_000 });
  while (!/discovery warm(ed|-up failed)/.test(server.logs.join(""))) await new Promise((r) => setTimeout(r, 100));
  return server;
}

beforeAll(async () => {
  database = await createServerDatabase();
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/** A discover request whose body arrives in two parts, so it is in flight until `finish()`. */
function slowDiscover(port: number) {
  const body = JSON.stringify({ capability_id: "weather.current" });
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (d) => (answer += d));
  const ended = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  socket.write(
    `POST /api/discover HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  return { finish: () => socket.write(body.slice(5)), ended, socket };
}

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    (err: { cause?: { code?: string } }) => err.cause?.code === "ECONNREFUSED",
  );

describe("a server on SIGTERM", () => {
  it("answers the request in flight, refuses new connections, writes the discovery log and exits 0", async () => {
    const server = await startWarmServer();
    handle = await openDb({ url: database.url, migrate: false });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/discover`, discoverInit());
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { discovery_id: string }).discovery_id);
    }
    const inFlight = slowDiscover(server.port);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    process.kill(server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 200));

    // During the delay: not ready, not healthy for a balancer, still serving, each answer closing
    // its connection.
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("1");
    expect((await fetch(`${server.url}/api/health`)).status).toBe(503);
    const during = await fetch(`${server.url}/api/discover`, discoverInit());
    expect(during.status).toBe(200);
    expect(during.headers.get("connection")).toBe("close");
    ids.push(((await during.json()) as { discovery_id: string }).discovery_id);

    await new Promise((r) => setTimeout(r, 1_200));
    expect(await refused(`${server.url}/api/health`)).toBe(true);
    inFlight.finish();
    const answer = await inFlight.ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    ids.push(/"discovery_id":"([0-9a-f-]{36})"/.exec(answer)![1]);

    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const rows = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from discoveries where id = any(${`{${ids.join(",")}}`}::uuid[])`);
    expect(rows[0].n).toBe(5);
    // Its jobs stopped between runs: no claim is left held.
    const held = await queryRows<{ name: string }>(handle.db, sql`select name from job_claims where claimed_until > now()`);
    expect(held).toEqual([]);
    expect(server.logs.join("")).toContain("shut down cleanly");
  }, 300_000);

  it("exits at once on a second signal while a request is still in flight", async () => {
    // No jobs: a run cut short would hold its claim for a minute, and the worker's test needs them.
    const server = await startWarmServer({ CAPDEX_WORKER: "off" });
    const inFlight = slowDiscover(server.port);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.pid, "SIGTERM");
    const early = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r("still running"), 1_000))]);
    expect(early).toBe("still running");
    const t0 = Date.now();
    process.kill(server.pid, "SIGINT");
    expect(await server.exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - t0).toBeLessThan(3_000);
    inFlight.socket.destroy();
  }, 300_000);
});

describe("the worker on SIGTERM", () => {
  it("stops its jobs at a safe point, releases their claims, closes its pool and exits 0", async () => {
    handle ??= await openDb({ url: database.url, migrate: false });
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: { ...process.env, DATABASE_URL: database.url, ROLLUP_INTERVAL_MS: "100", PROBE_TICK_MS: "100", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    while (!out.includes("worker running jobs")) {
      if (child.exitCode !== null) throw new Error(out);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Let a few runs happen, then stop it.
    await new Promise((r) => setTimeout(r, 1_500));
    const t0 = Date.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(out).toContain("shut down cleanly");
    const held = await queryRows<{ name: string }>(
      handle.db,
      sql`select name from job_claims where claimed_until > now() and claimed_by like ${`%:${child.pid}:%`}`,
    );
    expect(held).toEqual([]);
    const ran = await queryRows<{ name: string }>(handle.db, sql`select name from job_claims where name = 'outcomes.rollup' and last_run_at > now() - interval '1 minute'`);
    expect(ran).toHaveLength(1);
  }, 120_000);
});
