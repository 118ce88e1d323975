// `npm run bench`: seeds the benchmark-sized registry on the local Postgres (once; reused while it
// matches), starts the production server, and drives it with autocannon at 32 connections:
// GET /api/health (the trivial route) beside POST /api/discover, POST /api/report_outcome, and
// discover with the rate limiter on. Prints a markdown table and writes bench-results/latest.json.
//
//   npm run bench                      # all scenarios, 10 s each
//   npm run bench -- --only discover   # one scenario (health always runs for the ratio)
//   npm run bench -- --reseed          # rebuild the benchmark database
import fs from "node:fs";
import { execSync } from "node:child_process";
import autocannon from "autocannon";
import postgres from "postgres";
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { openDb, queryRows } from "@/lib/db/client";
import { seedScale } from "@/lib/db/seed";
import { hasBuild, startServer, type TestServer } from "@/tests/helpers/server";
import { withDatabase } from "@/tests/helpers/pg";

const args = process.argv.slice(2);
const flagValue = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SCALE = Number(flagValue("--scale") ?? 1000);
const DURATION = Number(flagValue("--duration") ?? 10);
const CONNECTIONS = Number(flagValue("--connections") ?? 32);
const ONLY = flagValue("--only");
// A fresh server runs slowly for its first seconds (JIT, pools, caches): warm each scenario up first.
const WARMUP = Number(flagValue("--warmup") ?? 8);
const BASE = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `capdex_bench`;
const DB_URL = withDatabase(BASE, DB_NAME);

type Result = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; requests: number };

async function ensureDatabase(): Promise<void> {
  const admin = postgres(withDatabase(BASE, "postgres"), { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${DB_NAME}`).length > 0;
  let ready = false;
  if (exists && !args.includes("--reseed")) {
    const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
    try {
      const [row] = await db`select value from meta where key = 'bench_scale'`;
      ready = Number(row?.value) === SCALE;
    } catch {
      ready = false;
    }
    await db.end();
  }
  if (!ready) {
    console.log(`seeding ${DB_NAME} at scale ${SCALE} (a few minutes)...`);
    await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await admin.unsafe(`create database ${DB_NAME}`);
    const h = await openDb({ url: DB_URL });
    const counts = await seedScale(h.db, SCALE, (m) => console.log(`  ${m}`));
    await queryRows(h.db, sql`insert into meta (key, value) values ('bench_scale', ${SCALE}) on conflict (key) do update set value = excluded.value`);
    await h.close();
    console.log(`  seeded: ${JSON.stringify(counts)}`);
  }
  await admin.end();
}

async function loadFixtures() {
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const caps = (await db`select id, title from capabilities order by id`) as unknown as Array<{ id: string; title: string }>;
  const eps = (await db`select id from endpoints order by id limit 5000`) as unknown as Array<{ id: string }>;
  // API keys for the limiter-on run, owned by one bench user (created once).
  await db`insert into users (id, email, name) values ('bench-user', 'bench@capdex.invalid', 'bench') on conflict do nothing`;
  const keys: string[] = [];
  for (let i = 0; i < 200; i++) {
    const key = `cdx_bench${randomBytes(24).toString("hex").slice(0, 32)}`;
    keys.push(key);
    const hash = createHash("sha256").update(key).digest("hex");
    await db`insert into api_keys (user_id, name, prefix, hash) values ('bench-user', ${"bench " + i}, ${key.slice(0, 12)}, ${hash})`;
  }
  await db.end();
  return { caps, endpointIds: eps.map((e) => e.id), keys };
}

const INTENTS = [
  "current weather in Oslo",
  "will it rain tomorrow in Paris",
  "convert pdf to markdown",
  "eth gas fees",
  "transcribe this audio file",
  "translate text to german",
  "stock price of AAPL",
  "geocode an address",
  "send an sms",
  "screenshot a web page",
];
const NETWORKS = ["base", "eip155:8453", "polygon", "solana", undefined];

function discoverBody(i: number, caps: Array<{ id: string }>): string {
  const body: Record<string, unknown> = {};
  if (i % 3 === 0) body.intent = INTENTS[i % INTENTS.length];
  else body.capability_id = caps[(i * 7919) % caps.length].id;
  const network = NETWORKS[i % NETWORKS.length];
  if (i % 2 === 0) body.constraints = { max_price: 0.05, ...(network ? { network } : {}) };
  if (i % 4 === 1) body.preferences = { ranking_preset: "reliability", limit: 5 };
  return JSON.stringify(body);
}

async function run(name: string, url: string, opts: Partial<autocannon.Options>): Promise<Result> {
  // Warm up (JIT, caches, pools) before measuring.
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, ...opts });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...opts });
  const result: Result = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r.requests.total,
  };
  console.log(`${name.padEnd(34)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`);
  return result;
}

/** A fresh server warms its caches (intent index, candidates) in the background: measure after that. */
async function settle(server: TestServer) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !server.logs.join("").match(/discovery warm(ed|-up failed)/)) {
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 3_000));
}

let counter = 0;
function discoverRequests(caps: Array<{ id: string }>, keys?: string[]): autocannon.Request[] {
  return [
    {
      method: "POST",
      path: "/api/discover",
      setupRequest: (req: autocannon.Request) => {
        const i = counter++;
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (keys) headers.authorization = `Bearer ${keys[i % keys.length]}`;
        return { ...req, headers, body: discoverBody(i, caps) };
      },
    } as autocannon.Request,
  ];
}

async function benchReports(server: TestServer, endpointIds: string[]): Promise<Result & { stored: number; counted: number; lost: number }> {
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const [before] = await db`select count(*)::int as n from outcome_reports`;
  const [rolledBefore] = await db`select coalesce(sum(reports), 0)::int as n from outcome_rollups`;
  let accepted = 0;
  const requests = [
    {
      method: "POST",
      path: "/api/report_outcome",
      setupRequest: (req: autocannon.Request) => {
        const i = counter++;
        return {
          ...req,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ endpoint_id: endpointIds[i % endpointIds.length], success: i % 10 !== 0, latency_ms: 50 + (i % 400), status_code: i % 10 ? 200 : 502 }),
        };
      },
      onResponse: (status: number) => {
        if (status === 202) accepted++;
      },
    } as autocannon.Request,
  ];
  // The warm-up inside run() also sends reports: count acceptance over both runs.
  const result = await run("POST /api/report_outcome", server.url, { requests });
  // Wait for the rollup job to count everything that was accepted.
  const [after] = await db`select count(*)::int as n from outcome_reports`;
  const stored = after.n - before.n;
  let counted = 0;
  for (let i = 0; i < 120; i++) {
    const [rolled] = await db`select coalesce(sum(reports), 0)::int as n from outcome_rollups`;
    counted = rolled.n - rolledBefore.n;
    if (counted >= stored) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  await db.end();
  // Responses still in flight when autocannon stops are stored but not seen as accepted, so the
  // check is: every accepted report stored, and every stored report counted.
  const lost = Math.max(0, accepted - stored) + Math.max(0, stored - counted);
  console.log(`  accepted ${accepted}, stored ${stored}, counted in rollups ${counted}, lost ${lost}`);
  return { ...result, stored, counted, lost };
}

async function main() {
  if (!hasBuild()) {
    console.log("no production build: running npm run build");
    execSync("npm run build", { stdio: "inherit" });
  }
  await ensureDatabase();
  const { caps, endpointIds, keys } = await loadFixtures();
  const results: Record<string, unknown> = { date: new Date().toISOString(), scale: SCALE, connections: CONNECTIONS, duration_s: DURATION };
  const env = { DATABASE_URL: DB_URL, CAPDEX_RATE_LIMIT: "off", ROLLUP_INTERVAL_MS: "1000" };

  let server = await startServer(env);
  await settle(server);
  try {
    const health = await run("GET /api/health", `${server.url}/api/health`, { method: "GET" });
    results.health = health;
    if (!ONLY || ONLY === "discover") {
      const discover = await run("POST /api/discover (limiter off)", server.url, { requests: discoverRequests(caps) });
      results.discover = { ...discover, ratio: +(discover.rps / health.rps).toFixed(2) };
    }
    if (!ONLY || ONLY === "report") {
      const report = await benchReports(server, endpointIds);
      results.report_outcome = { ...report, ratio: +(report.rps / health.rps).toFixed(2) };
    }
  } finally {
    await server.stop();
  }
  if (!ONLY || ONLY === "limiter") {
    server = await startServer({ DATABASE_URL: DB_URL, ROLLUP_INTERVAL_MS: "1000" });
    await settle(server);
    try {
      const off = results.discover as Result | undefined;
      const on = await run("POST /api/discover (limiter on)", server.url, { requests: discoverRequests(caps, keys) });
      results.discover_limited = { ...on, ratio_to_limiter_off: off ? +(on.rps / off.rps).toFixed(2) : null };
    } finally {
      await server.stop();
    }
  }
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync("bench-results/latest.json", JSON.stringify(results, null, 2));
  console.log("\n" + markdown(results));
  // Tidy up the bench keys so repeated runs don't accumulate them.
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  await db`delete from api_keys where user_id = 'bench-user'`;
  await db.end();
}

function markdown(results: Record<string, unknown>): string {
  const rows: string[] = ["| scenario | req/s | p50 ms | p99 ms | ratio | notes |", "|---|---|---|---|---|---|"];
  const h = results.health as Result;
  rows.push(`| GET /api/health | ${h.rps} | ${h.p50} | ${h.p99} | 1.00 | trivial route |`);
  const d = results.discover as (Result & { ratio: number }) | undefined;
  if (d) rows.push(`| POST /api/discover (limiter off) | ${d.rps} | ${d.p50} | ${d.p99} | ${d.ratio} | non-2xx ${d.non2xx} |`);
  const r = results.report_outcome as (Result & { ratio: number; lost: number; stored: number }) | undefined;
  if (r) rows.push(`| POST /api/report_outcome | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ratio} | stored ${r.stored}, lost ${r.lost} |`);
  const l = results.discover_limited as (Result & { ratio_to_limiter_off: number }) | undefined;
  if (l) rows.push(`| POST /api/discover (limiter on, 200 keys) | ${l.rps} | ${l.p50} | ${l.p99} | ${l.ratio_to_limiter_off} of limiter off | non-2xx ${l.non2xx} |`);
  return rows.join("\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
