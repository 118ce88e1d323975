// Two production servers (`next start`) on one Postgres database, both running their background
// jobs: every endpoint is probed once per interval, not once per server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { startServer, createServerDatabase, type TestServer } from "../helpers/server";
import { startX402Server, type X402TestServer } from "../helpers/x402-server";

const COUNT = 16;
const servers: TestServer[] = [];
let database: { url: string; drop: () => Promise<void> };
let sqlc: postgres.Sql;
let x402: X402TestServer;

async function until<T>(what: string, probe: () => Promise<T | null>, deadlineMs = 120_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  x402 = await startX402Server();
  database = await createServerDatabase();
  const env = {
    DATABASE_URL: database.url,
    CAPDEX_SEED: "catalogue",
    ALLOW_PRIVATE_TARGETS: "1",
    PROBE_INTERVAL_SECONDS: "3600",
    PROBE_TICK_MS: "500",
    PROBE_CONCURRENCY: "4",
  };
  // One after the other: the first migrates and seeds, the second finds the database ready.
  servers.push(await startServer(env, { timeoutMs: 240_000 }));
  servers.push(await startServer(env, { timeoutMs: 240_000 }));
  sqlc = postgres(database.url, { max: 2, onnotice: () => {} });
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await sqlc?.end();
  await database?.drop();
  await x402?.close();
});

describe("probing with two server instances", () => {
  it("probes each endpoint once per interval", async () => {
    const [{ id: capability }] = await sqlc<{ id: string }[]>`select id from capabilities order by id limit 1`;
    const [{ id: provider }] = await sqlc<{ id: string }[]>`insert into providers (name) values ('Two Servers Labs') returning id`;
    const paths = Array.from({ length: COUNT }, (_, i) => `/two/${i}`);
    for (const p of paths) x402.route(p, { kind: "v1", network: "base", amount: "1000", delayMs: 100 });
    await sqlc`insert into endpoints ${sqlc(
      paths.map((p) => ({ capability_id: capability, provider_id: provider, url: x402.url(p), host: "127.0.0.1", domain: "127.0.0.1", price_per_call: 0.001 })),
    )}`;

    await until("every endpoint to be probed", async () => {
      const [{ n }] = await sqlc<{ n: number }[]>`select count(distinct endpoint_id)::int as n from endpoint_checks`;
      return n === COUNT ? n : null;
    });
    // Let both servers run the probe job a few more times: nothing is due again for an hour.
    const runsAfter = await probeRuns();
    await until("three more runs of probes.run", async () => ((await probeRuns()) >= runsAfter + 3 ? true : null));

    expect(paths.map((p) => x402.hits(p))).toEqual(paths.map(() => 1));
    const rows = await sqlc<{ n: number; state: string }[]>`
      select (select count(*)::int from endpoint_checks c where c.endpoint_id = e.id) as n, e.check_state as state
      from endpoints e where e.provider_id = ${provider}`;
    expect(rows).toEqual(paths.map(() => ({ n: 1, state: "verified" })));
  }, 300_000);
});

/** How many times probes.run has finished, counted from job_claims' run stamps (either server). */
let runs = 0;
let lastRunAt: string | null = null;
async function probeRuns(): Promise<number> {
  const [row] = await sqlc<{ at: string | null }[]>`select last_run_at::text as at from job_claims where name = 'probes.run'`;
  if (row?.at && row.at !== lastRunAt) {
    lastRunAt = row.at;
    runs += 1;
  }
  return runs;
}
