// `npm run bench`: seeds the benchmark-sized registry on the local Postgres (once; reused while it
// matches), starts the production server, and drives it with autocannon at 32 connections:
// GET /api/health (the trivial route) beside POST /api/discover, POST /api/report_outcome, and
// discover with the rate limiter on (counters in Postgres, then in Redis at BENCH_REDIS_URL, default
// redis://127.0.0.1:6379, when one answers). Prints markdown tables and writes bench-results/latest.json.
//
// The server keeps getting faster for a minute or more after start (JIT), and the machine's two
// cores are shared with Postgres and autocannon, so one 10 s run per scenario drifts by 20-30%.
// Hence: each scenario has its own phase, warmed up first and then measured in rounds interleaved
// with health (health, discover, health, discover, ...), and each ratio is the median of the
// per-round ratios, so that both sides of a ratio were measured seconds apart. Beside req/s it
// records the server's CPU time per request (the process tree's utime+stime), which is far steadier
// than req/s, and the latency at a fixed offered rate (--rate, open loop: scripts/bench-fixed-rate.ts), which shows
// service time and stalls rather than the queueing of a saturated server.
//
//   npm run bench                      # all scenarios
//   npm run bench -- --only discover   # one scenario (health always runs for the ratio)
//   npm run bench -- --only limiter    # discover with the limiter on: Postgres, then Redis
//   npm run bench -- --only discover_id,discover_intent,x402_list,x402_search
//   npm run bench -- --only soak --soak 300   # 5 minutes of mixed load, then the server's memory
//   npm run bench -- --node /usr/bin/node     # the server on another Node (CAPDEX_BENCH_OLD_NODE=1)
//   npm run bench -- --only soak --server-node-options --max-old-space-size=512
//   npm run bench -- --rounds 5 --duration 10 --warmup 10 --rate 300
//   npm run bench -- --reseed          # rebuild the benchmark database
//   npm run bench -- --scale 5000 --seed-only   # seed (or check) that scale's database, measure nothing
//   npm run bench -- --scale 5000      # 5,000 capabilities, 100,000 endpoints (database capdex_bench_5000)
//   npm run bench -- --sizes 50,500,5000 --only discover,report,x402_list,x402_search
//                                      # one run per scale (20 endpoints a capability: 1k, 10k, 100k
//                                      # endpoints), each on its own database, then the cost curve
//   npm run bench -- --only report --report-limiter on --report-endpoints 370 --report-keys 1
//                                      # report_outcome as an outside benchmark sends it (the limiter on)
import fs from "node:fs";
import { execSync } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import Redis from "ioredis";
import postgres from "postgres";
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { openDb, queryRows } from "@/lib/db/client";
import { seedScale } from "@/lib/seed";
import { hasBuild, startServer, type TestServer } from "@/tests/helpers/server";
import { withDatabase } from "@/tests/helpers/pg";
import { runFixedRate, type FixedRateRequest, type FixedRateResult } from "./bench-fixed-rate";

const args = process.argv.slice(2);
const flagValue = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SCALE = Number(flagValue("--scale") ?? 1000);
/** Scales to run one after the other (each a child run of this script with --scale), then the cost curve. */
const SIZES = flagValue("--sizes")?.split(",").map(Number);
/** report_outcome with the rate limiter on (its own server), spread over this many endpoints and API keys. */
const REPORT_LIMITER = flagValue("--report-limiter") === "on";
const REPORT_ENDPOINTS = Number(flagValue("--report-endpoints") ?? 5000);
/** 0: anonymous reports (one client address); N: spread over N API keys. */
const REPORT_KEYS = Number(flagValue("--report-keys") ?? 0);
const DURATION = Number(flagValue("--duration") ?? 10);
const CONNECTIONS = Number(flagValue("--connections") ?? 32);
/** Comma-separated scenarios to run (all when absent); health always runs beside them. */
const ONLY = flagValue("--only")?.split(",");
const runs = (name: string) => !ONLY || ONLY.includes(name);
/** Seconds of mixed discover + report load before the server's memory is read (--soak 0: none). */
const SOAK = Number(flagValue("--soak") ?? 300);
/** The Node that runs the server (default: this script's, the project's Node 24). */
const SERVER_NODE = flagValue("--node");
/** NODE_OPTIONS for the server only, e.g. "--max-old-space-size=512" (the memory it is allowed). */
const SERVER_NODE_OPTIONS = flagValue("--server-node-options");
// A fresh server runs slowly for its first seconds (JIT, pools, caches): warm each scenario up first.
const WARMUP = Number(flagValue("--warmup") ?? 10);
const ROUNDS = Number(flagValue("--rounds") ?? 3);
/** Offered load (requests/s over all connections) of the fixed-rate latency runs. */
const RATE = Number(flagValue("--rate") ?? 300);
const BASE = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// BENCH_DB_NAME lets several people bench on one Postgres server without reseeding each other's copy.
// Scales other than the default get their own database, so a curve over sizes seeds each once.
const DB_NAME = process.env.BENCH_DB_NAME ?? (SCALE === 1000 ? "capdex_bench" : `capdex_bench_${SCALE}`);
const DB_URL = withDatabase(BASE, DB_NAME);
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisReachable(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

type Result = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; requests: number; cpu_ms_per_request: number };

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

/**
 * Every run leaves dead rows behind (reports marked rolled up, caps and figures rewritten). On this
 * machine's Postgres autovacuum is off (conf.d/90-ci.conf), so without this each run measured a
 * more bloated database than the last: after a few runs an idle rollup pass walked 30 MB of dead
 * index entries and discover's p99 rose from 45 to 55 ms. Production Postgres runs autovacuum.
 */
async function vacuum(): Promise<void> {
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const t0 = Date.now();
  await db.unsafe("vacuum (analyze)");
  console.log(`vacuumed ${DB_NAME} in ${Date.now() - t0} ms`);
  await db.end();
}

async function loadFixtures() {
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  // Capabilities with listed endpoints (below scale 403 the catalogue's others have none, and
  // asking for them would measure empty answers).
  const caps = (await db`select id, title from capabilities c
                         where exists (select 1 from endpoints e where e.capability_id = c.id and e.status = 'listed') order by id`) as unknown as Array<{ id: string; title: string }>;
  const eps = (await db`select id from endpoints order by id limit ${REPORT_ENDPOINTS}`) as unknown as Array<{ id: string }>;
  const [{ n: listed }] = await db`select count(*)::int as n from endpoints where status = 'listed'`;
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
  return { caps, endpointIds: eps.map((e) => e.id), keys, listed: Number(listed) };
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
/** What agents send as intents: long sentences, other languages, values (discover_intent alone). */
const LONG_INTENTS = [
  ...INTENTS,
  "I need to know whether I should bring an umbrella to the office in Berlin this afternoon",
  "my agent has to turn a recorded customer call (mp3) into text it can search",
  "quel temps fait-il à Lyon en ce moment",
  "übersetze diesen Absatz ins Englische bitte",
  "necesito el precio actual del bitcoin en dólares",
  "check whether the domain example.org is still available to register",
  "extract the tables from https://example.com/report-2025.pdf",
  "what is 250 EUR in JPY at today's rate",
  "validate the email address jane.doe@example.com before we send the invoice",
  "resumir este artigo em três frases",
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

/** One kind of discover request only: by capability id, or by intent. */
function discoverOneKind(i: number, caps: Array<{ id: string }>, kind: "id" | "intent"): string {
  const body: Record<string, unknown> = kind === "intent" ? { intent: LONG_INTENTS[i % LONG_INTENTS.length] } : { capability_id: caps[(i * 7919) % caps.length].id };
  if (i % 2 === 0) body.constraints = { max_price: 0.05 };
  return JSON.stringify(body);
}

const CLK_TCK = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

/** The /proc/<pid>/stat fields after the command name, of every process now running. */
function processStats(): Map<number, string[]> {
  const stats = new Map<number, string[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(path.join("/proc", entry, "stat"), "utf8");
      stats.set(Number(entry), text.slice(text.lastIndexOf(")") + 2).split(" "));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return stats;
}

/** A process and all its descendants (the server may run children). */
function processTree(rootPid: number, stats = processStats()): number[] {
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    tree.push(pid);
    for (const [child, fields] of stats) if (Number(fields[1]) === pid) queue.push(child);
  }
  return tree;
}

/** CPU seconds (user + system) used so far by a process and all its descendants. */
function treeCpuSeconds(rootPid: number): number {
  const stats = processStats();
  let ticks = 0;
  for (const pid of processTree(rootPid, stats)) {
    const fields = stats.get(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLK_TCK;
}

/** Resident memory (MB) of a process and its descendants, and of the largest of them. */
function treeRssMb(rootPid: number): { total: number; largest: number } {
  let total = 0;
  let largest = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const mb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
      total += mb;
      largest = Math.max(largest, mb);
    } catch {
      /* ended meanwhile */
    }
  }
  return { total: Math.round(total), largest: Math.round(largest) };
}

async function measure(server: TestServer, name: string, sc: Scenario, duration = DURATION): Promise<Result> {
  const cpu0 = treeCpuSeconds(server.pid);
  const r = await autocannon({ url: server.url, connections: CONNECTIONS, duration, ...cannon(sc) });
  const cpu = treeCpuSeconds(server.pid) - cpu0;
  const result: Result = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r.requests.total,
    cpu_ms_per_request: r.requests.total ? +((cpu * 1000) / r.requests.total).toFixed(3) : 0,
  };
  console.log(
    `${name.padEnd(30)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  server CPU ${result.cpu_ms_per_request} ms/req  non-2xx ${result.non2xx}  errors ${result.errors}`,
  );
  return result;
}

/** Latency at RATE requests/s, open loop (scripts/bench-fixed-rate.ts). */
async function measureFixedRate(server: TestServer, name: string, sc: Scenario): Promise<FixedRateResult> {
  const r = await runFixedRate(server.url, () => sc.request(counter++), { rate: RATE, durationS: DURATION, connections: CONNECTIONS, onStatus: sc.onStatus });
  console.log(`${name.padEnd(30)} ${String(r.sent).padStart(6)} sent  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  non-2xx ${r.non2xx}  errors ${r.errors}`);
  return r;
}

/** A fresh server warms its caches (intent index, candidates) in the background: measure after that. */
async function settle(server: TestServer) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !server.logs.join("").match(/discovery warm(ed|-up failed)/)) {
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 3_000));
}

/** One scenario's requests: the i-th request, and what to do with each status (both drivers). */
type Scenario = { request: (i: number) => FixedRateRequest; onStatus?: (status: number) => void };

let counter = 0;
/** autocannon options that send the scenario's requests. */
function cannon(sc: Scenario): Partial<autocannon.Options> {
  return {
    requests: [
      {
        setupRequest: (req: autocannon.Request) => ({ ...req, ...sc.request(counter++) }),
        ...(sc.onStatus && { onResponse: (status: number) => sc.onStatus!(status) }),
      } as autocannon.Request,
    ],
  };
}

const health: Scenario = { request: () => ({ method: "GET", path: "/api/health" }) };

function discoverScenario(caps: Array<{ id: string }>, keys?: string[]): Scenario {
  return {
    request: (i) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (keys) headers.authorization = `Bearer ${keys[i % keys.length]}`;
      return { method: "POST", path: "/api/discover", headers, body: discoverBody(i, caps) };
    },
  };
}

function discoverKindScenario(caps: Array<{ id: string }>, kind: "id" | "intent"): Scenario {
  return { request: (i) => ({ method: "POST", path: "/api/discover", headers: { "content-type": "application/json" }, body: discoverOneKind(i, caps, kind) }) };
}

/**
 * The x402 discovery API (docs/x402-discovery.md): pages of the listing anywhere in it (offsets up to
 * the registry's size, as the official client pages), and searches.
 */
function x402ListScenario(listed: number): Scenario {
  const span = Math.max(2_000, listed);
  return {
    request: (i) => ({ method: "GET", path: `/api/x402/discovery/resources?limit=20&offset=${((i * 7919) % Math.ceil(span / 20)) * 20}${i % 3 === 0 ? "&network=eip155:8453" : ""}` }),
  };
}
const X402_QUERIES = ["weather", "translate text", "transcribe audio", "stock price", "pdf to markdown", "send sms", "geocode", "image generation"];
const x402Search: Scenario = {
  request: (i) => ({ method: "GET", path: `/api/x402/discovery/search?query=${encodeURIComponent(X402_QUERIES[i % X402_QUERIES.length])}&limit=10` }),
};

/** Soak load: two discovers to one report, as agents call (scripts the mix, not the ratio). */
function mixedScenario(caps: Array<{ id: string }>, endpointIds: string[]): Scenario {
  const d = discoverScenario(caps);
  const r = reportScenario(endpointIds);
  return { request: (i) => (i % 3 === 2 ? r.request(i) : d.request(i)), onStatus: r.onStatus };
}

let accepted = 0;
function reportScenario(endpointIds: string[], keys: string[] = []): Scenario {
  return {
    request: (i) => ({
      method: "POST",
      path: "/api/report_outcome",
      headers: { "content-type": "application/json", ...(keys.length && { authorization: `Bearer ${keys[i % keys.length]}` }) },
      body: JSON.stringify({ endpoint_id: endpointIds[i % endpointIds.length], success: i % 10 !== 0, latency_ms: 50 + (i % 400), status_code: i % 10 ? 200 : 502 }),
    }),
    onStatus: (status) => {
      if (status === 202) accepted++;
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type Summary = { rps: number; p50: number; p99: number; cpu_ms_per_request: number; non2xx: number; errors: number; requests: number; ratio?: number; rounds: Result[] };

/** Medians over the rounds; the ratio is the median of per-round ratios to the yardstick's rounds. */
function summarise(rounds: Result[], yardstick?: Result[]): Summary {
  return {
    rps: Math.round(median(rounds.map((r) => r.rps))),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpu_ms_per_request: +median(rounds.map((r) => r.cpu_ms_per_request)).toFixed(3),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    requests: rounds.reduce((s, r) => s + r.requests, 0),
    ...(yardstick && { ratio: +median(rounds.map((r, i) => r.rps / yardstick[i].rps)).toFixed(2) }),
    rounds,
  };
}

async function storedCounts(db: postgres.Sql) {
  const [reports] = await db`select count(*)::int as n from outcome_reports`;
  const [rolled] = await db`select coalesce(sum(reports), 0)::int as n from outcome_rollups`;
  return { reports: reports.n as number, rolled: rolled.n as number };
}

/** Every accepted report stored, and every stored report counted into the rollups by the job. */
async function checkReports(db: postgres.Sql, before: { reports: number; rolled: number }) {
  let now = await storedCounts(db);
  for (let i = 0; i < 120 && now.rolled - before.rolled < now.reports - before.reports; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    now = await storedCounts(db);
  }
  const stored = now.reports - before.reports;
  const counted = now.rolled - before.rolled;
  // Responses still in flight when autocannon stops are stored but not seen as accepted, so the
  // check is: every accepted report stored, and every stored report counted.
  const lost = Math.max(0, accepted - stored) + Math.max(0, stored - counted);
  console.log(`  reports: accepted ${accepted}, stored ${stored}, counted in rollups ${counted}, lost ${lost}`);
  return { accepted, stored, counted, lost };
}

/**
 * SOAK seconds of saturated mixed load (discover and report), the server's resident memory read
 * every minute and at the end, and then again after 30 s idle: what an operator sizes a box by.
 */
async function soakPhase(server: TestServer, sc: Scenario) {
  console.log(`soak: ${SOAK} s of discover + report at ${CONNECTIONS} connections`);
  const samples: Array<{ s: number; rss_mb: number }> = [];
  const t0 = Date.now();
  const timer = setInterval(() => samples.push({ s: Math.round((Date.now() - t0) / 1000), rss_mb: treeRssMb(server.pid).total }), 60_000);
  const r = await measure(server, `soak (${SOAK} s, discover + report)`, sc, SOAK);
  clearInterval(timer);
  const end = treeRssMb(server.pid);
  await new Promise((res) => setTimeout(res, 30_000));
  const idle = treeRssMb(server.pid);
  console.log(`  RSS every minute: ${samples.map((x) => `${x.rss_mb} MB`).join(", ")}; at the end ${end.total} MB (largest process ${end.largest} MB); 30 s idle later ${idle.total} MB`);
  // A server that died under the soak (a heap limit too small, say) is a result, with its reason.
  const died = await Promise.race([server.exited, new Promise<null>((res) => setTimeout(() => res(null), 10))]);
  if (died) console.log(`  THE SERVER DIED during the soak (exit code ${died.code}, signal ${died.signal}); its last output:\n${server.logs.join("").slice(-3_000)}`);
  return { ...r, seconds: SOAK, rss_mb_per_minute: samples, rss_mb_at_end: end, rss_mb_after_idle: idle, server_died: died };
}

async function main() {
  if (!hasBuild()) {
    console.log("no production build: running npm run build");
    execSync("npm run build", { stdio: "inherit" });
  }
  if (SIZES) return curve(SIZES);
  await ensureDatabase();
  // Seeding a large scale takes most of an hour on a busy machine: do it apart, measure later.
  if (args.includes("--seed-only")) return;
  await vacuum();
  const { caps, endpointIds, keys, listed } = await loadFixtures();
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    scale: SCALE,
    connections: CONNECTIONS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    rounds: ROUNDS,
    fixed_rate: RATE,
    endpoints: listed,
    load_average: loadAverage(),
    ...(REPORT_LIMITER && { report_limiter: "on", report_endpoints: endpointIds.length, report_keys: REPORT_KEYS }),
  };
  const env: Record<string, string> = { DATABASE_URL: DB_URL, ROLLUP_INTERVAL_MS: "1000", ...(!REPORT_LIMITER && { CAPDEX_RATE_LIMIT: "off" }) };
  const db = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const scenarios: Array<[string, Scenario]> = [];
  if (runs("discover")) scenarios.push(["discover", discoverScenario(caps)]);
  if (runs("discover_id")) scenarios.push(["discover_id", discoverKindScenario(caps, "id")]);
  if (runs("discover_intent")) scenarios.push(["discover_intent", discoverKindScenario(caps, "intent")]);
  if (runs("x402_list")) scenarios.push(["x402_list", x402ListScenario(listed)]);
  if (runs("x402_search")) scenarios.push(["x402_search", x402Search]);
  if (runs("report")) scenarios.push(["report_outcome", reportScenario(endpointIds, REPORT_KEYS ? keys.slice(0, REPORT_KEYS) : [])]);
  const soak = runs("soak") && SOAK > 0;
  const start = (extra: Record<string, string>) =>
    startServer({ ...extra, ...(SERVER_NODE && { CAPDEX_BENCH_OLD_NODE: "1" }), ...(SERVER_NODE_OPTIONS && { NODE_OPTIONS: SERVER_NODE_OPTIONS }) }, { node: SERVER_NODE });
  if (SERVER_NODE_OPTIONS) results.server_node_options = SERVER_NODE_OPTIONS;
  if (SERVER_NODE) results.server_node = execSync(`${SERVER_NODE} --version`).toString().trim();
  else results.server_node = process.version;

  let server: TestServer;
  // --only limiter skips this phase (and its server).
  if (scenarios.length || soak) {
    server = await start(env);
    await settle(server);
    results.rss_mb_at_start = treeRssMb(server.pid);
    const before = await storedCounts(db);
    try {
      // One phase per scenario, each interleaved with health: a scenario's own background work
      // (reports leave figures to recompute and capabilities to reload) falls in its own phase, not
      // in the next scenario's rounds. Discover goes first; the report phase's aftermath is measured
      // by the report rounds that follow each other.
      const rounds: Record<string, Result[]> = { health: [] };
      const fixed: Record<string, FixedRateResult> = {};
      const healthOf: Record<string, Result[]> = {};
      for (const [name, sc] of scenarios) {
        console.log(`${LABELS[name]} beside ${LABELS.health}: warm-up ${WARMUP} s each, then ${ROUNDS} rounds`);
        await measure(server, `(warm-up) ${LABELS.health}`, health, WARMUP);
        await measure(server, `(warm-up) ${LABELS[name]}`, sc, WARMUP);
        const own: Result[] = [];
        healthOf[name] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          healthOf[name].push(await measure(server, LABELS.health, health));
          own.push(await measure(server, LABELS[name], sc));
        }
        rounds[name] = own;
        rounds.health.push(...healthOf[name]);
        if (!fixed.health) fixed.health = await measureFixedRate(server, `${LABELS.health} @${RATE}/s`, health);
        fixed[name] = await measureFixedRate(server, `${LABELS[name]} @${RATE}/s`, sc);
      }
      if (scenarios.length) results.health = { ...summarise(rounds.health), at_fixed_rate: fixed.health };
      for (const [name] of scenarios) results[name] = { ...summarise(rounds[name], healthOf[name]), at_fixed_rate: fixed[name] };
      if (rounds.report_outcome) Object.assign(results.report_outcome as object, await checkReports(db, before));
      if (soak) results.soak = await soakPhase(server, mixedScenario(caps, endpointIds));
      results.rss_mb_at_end = treeRssMb(server.pid);
    } finally {
      await server.stop();
    }
  }
  if (runs("limiter")) {
    // The limiter on, its counters in Postgres (the default) and then in Redis (REDIS_URL).
    const stores: Array<[string, Record<string, string>]> = [["postgres", {}]];
    if (await redisReachable(REDIS)) stores.push(["redis", { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `capdex-bench:${randomBytes(4).toString("hex")}:` }]);
    else console.log(`limiter with Redis skipped: nothing answers at ${REDIS}`);
    for (const [store, extra] of stores) {
      server = await start({ DATABASE_URL: DB_URL, ROLLUP_INTERVAL_MS: "1000", ...extra });
      await settle(server);
      try {
        const opts = discoverScenario(caps, keys);
        // Interleaved with health on this server too: servers differ from one start to the next
        // (JIT, heap), so the limiter's cost is the ratio to health here against the ratio to
        // health on the limiter-off server, not req/s across servers.
        await measure(server, `(warm-up) ${LABELS.health}`, health, WARMUP);
        await measure(server, `(warm-up) discover, limiter on (${store})`, opts, WARMUP);
        const on: Result[] = [];
        const yard: Result[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          yard.push(await measure(server, LABELS.health, health));
          on.push(await measure(server, `POST /api/discover (limiter on, ${store})`, opts));
        }
        const off = results.discover as Summary | undefined;
        const limited = summarise(on, yard);
        results[store === "postgres" ? "discover_limited" : `discover_limited_${store}`] = {
          ...limited,
          health_rps: summarise(yard).rps,
          ratio_to_limiter_off: off?.ratio && limited.ratio ? +(limited.ratio / off.ratio).toFixed(2) : null,
          rps_ratio_to_limiter_off: off ? +(limited.rps / off.rps).toFixed(2) : null,
        };
      } finally {
        await server.stop();
      }
    }
  }
  fs.mkdirSync("bench-results", { recursive: true });
  results.load_average_at_end = loadAverage();
  fs.writeFileSync("bench-results/latest.json", JSON.stringify(results, null, 2));
  console.log("\n" + markdown(results));
  // Tidy up the bench keys so repeated runs don't accumulate them.
  await db`delete from api_keys where user_id = 'bench-user'`;
  await db.end();
}

/** The 1, 5 and 15 minute load averages (the machine is shared: say how busy it was). */
function loadAverage(): string {
  return fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

/**
 * --sizes: one child run of this script per scale (same flags otherwise, each on its own database),
 * then the cost curve: per scenario and size, req/s, p50, p99, server CPU per request and the
 * server's resident memory at the end of the run.
 */
async function curve(sizes: number[]) {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--sizes" || args[i] === "--scale") i++;
    else rest.push(args[i]);
  }
  const runsBySize: Array<[number, Record<string, unknown>]> = [];
  for (const size of sizes) {
    console.log(`\n=== scale ${size} (${size * 20} endpoints) ===`);
    execSync(`npx tsx scripts/bench.ts --scale ${size} ${rest.map((a) => JSON.stringify(a)).join(" ")}`, { stdio: "inherit" });
    const r = JSON.parse(fs.readFileSync("bench-results/latest.json", "utf8")) as Record<string, unknown>;
    fs.writeFileSync(`bench-results/scale-${size}.json`, JSON.stringify(r, null, 2));
    runsBySize.push([size, r]);
  }
  const rows = [
    "| scenario | endpoints | req/s | p50 ms | p99 ms | server CPU ms/req | ratio to health | RSS at end MB | load average (start / end) |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [key, label] of Object.entries(LABELS)) {
    for (const [, r] of runsBySize) {
      const s = r[key] as Summary | undefined;
      if (!s) continue;
      const rss = (r.rss_mb_at_end as { total: number } | undefined)?.total ?? "";
      rows.push(`| ${label} | ${r.endpoints} | ${s.rps} | ${s.p50} | ${s.p99} | ${s.cpu_ms_per_request} | ${key === "health" ? "1.00" : s.ratio} | ${rss} | ${r.load_average} / ${r.load_average_at_end} |`);
    }
  }
  const table = rows.join("\n");
  fs.writeFileSync("bench-results/curve.md", table + "\n");
  console.log("\n" + table);
}

const LABELS: Record<string, string> = {
  health: "GET /api/health",
  discover: "POST /api/discover",
  discover_id: "POST /api/discover (capability_id only)",
  discover_intent: "POST /api/discover (intent only)",
  x402_list: "GET /api/x402/discovery/resources",
  x402_search: "GET /api/x402/discovery/search",
  report_outcome: "POST /api/report_outcome",
};

function markdown(results: Record<string, unknown>): string {
  const rows: string[] = [
    `Saturated: ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION} s after a ${WARMUP} s warm-up each.`,
    "",
    "| scenario | req/s | p50 ms | p99 ms | server CPU ms/req | ratio to health | notes |",
    "|---|---|---|---|---|---|---|",
  ];
  const fixedRows: string[] = [
    `At a fixed ${RATE} requests/s, open loop (latency from when each request was due; at most ${CONNECTIONS} connections):`,
    "",
    "| scenario | p50 ms | p99 ms | max ms | non-2xx |",
    "|---|---|---|---|---|",
  ];
  const names: Array<[string, string]> = Object.entries(LABELS).map(([k, v]) => [k, k === "discover" ? `${v} (mix, limiter off)` : v]);
  for (const [key, name] of names) {
    const r = results[key] as (Summary & { at_fixed_rate: FixedRateResult; stored?: number; lost?: number }) | undefined;
    if (!r) continue;
    const notes = key === "report_outcome" ? `stored ${r.stored}, lost ${r.lost}` : `${r.requests} requests, non-2xx ${r.non2xx}`;
    rows.push(`| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpu_ms_per_request} | ${key === "health" ? "1.00" : r.ratio} | ${notes} |`);
    fixedRows.push(`| ${name} | ${r.at_fixed_rate.p50} | ${r.at_fixed_rate.p99} | ${r.at_fixed_rate.max} | ${r.at_fixed_rate.non2xx} |`);
  }
  for (const [key, store] of [["discover_limited", "Postgres"], ["discover_limited_redis", "Redis"]]) {
    const l = results[key] as (Summary & { ratio_to_limiter_off: number | null; health_rps: number }) | undefined;
    if (l) {
      rows.push(
        `| POST /api/discover (limiter on, ${store}, 200 keys) | ${l.rps} | ${l.p50} | ${l.p99} | ${l.cpu_ms_per_request} | ${l.ratio} (${l.ratio_to_limiter_off} of limiter off) | health on that server ${l.health_rps} req/s; non-2xx ${l.non2xx} |`,
      );
    }
  }
  const soak = results.soak as { rps: number; p99: number; rss_mb_per_minute: Array<{ rss_mb: number }>; rss_mb_at_end: { total: number }; rss_mb_after_idle: { total: number } } | undefined;
  const start = results.rss_mb_at_start as { total: number } | undefined;
  const memory = soak
    ? [
        "",
        `Server (Node ${results.server_node}) resident memory: ${start?.total} MB after start and warm-up; under ${SOAK} s of discover + report at ${CONNECTIONS} connections (${soak.rps} req/s, p99 ${soak.p99} ms) ${soak.rss_mb_per_minute.map((x) => x.rss_mb).join(" / ")} MB at each minute, ${soak.rss_mb_at_end.total} MB at the end, ${soak.rss_mb_after_idle.total} MB after 30 s idle.`,
      ]
    : [];
  return [...rows, "", ...fixedRows, ...memory].join("\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
