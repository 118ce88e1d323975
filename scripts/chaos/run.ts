// `npm run test:chaos`: the production build on loopback under a steady bounded mixed load, through
// faults beyond the database stopping: the log's reader gone or stalled, Postgres stuck on a lock,
// out of connections or paused, Redis hung, DNS silent, an outbound target trickling, PGlite killed
// in a burst of reports and its filesystem full (a tmpfs, mounted as root), an import under a small
// heap. Each fault is injected, held, cleared; the table says what callers got, and the run exits 1
// when a target is missed. All real processes and sockets: a Postgres cluster of its own (initdb),
// Debian's redis-server, `next start`.
// Ports CHAOS_PORT_BASE (default 3500) to +7, +8, +18, +28.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { PrivatePostgres, run, sleep, waitFor, type Proc } from "../fleet/cluster";
import { CLIENT_TIMEOUT_MS, failed, Load, type Answer } from "./load";
import { silentDns, startRedis, tricklingTarget, type Closable } from "./servers";

const BASE = Number(process.env.CHAOS_PORT_BASE ?? 3500);
const PORTS = { pg: BASE, web: BASE + 1, pglite: BASE + 3, redis: BASE + 4, dns: BASE + 5, trickle: BASE + 6, files: BASE + 7, log: BASE + 8 };
const DIST = process.env.NEXT_DIST_DIR ?? ".next";
/** lib/http/route.ts REQUEST_DEADLINE_MS, and the slack allowed on top of it on this busy machine. */
const DEADLINE_MS = 8_000;
const SLACK_MS = 2_500;
const EXIT_TARGET_MS = 10_000;
const TOKEN = "chaos-metrics-token";
/** CHAOS_FAULTS=log,postgres,redis,dns,probe,import,pglite (default: all) runs only those groups. */
const GROUPS = new Set((process.env.CHAOS_FAULTS ?? "log,postgres,redis,dns,probe,import,pglite").split(",").map((g) => g.trim()));
const wants = (group: string) => GROUPS.has(group);

const t0 = Date.now();
const log = (m: string) => console.log(`[chaos +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const pg = new PrivatePostgres(PORTS.pg);
const appUrl = `postgres://capdex@127.0.0.1:${PORTS.pg}/capdex_fleet`;
const procs: Proc[] = [];
const closers: Closable[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-chaos-"));

type Row = {
  fault: string;
  requests: number;
  statuses: string;
  e500: number;
  lost: number | null;
  longestMs: number;
  recoveryMs: number | null;
  exitMs: number | null;
  note: string;
  misses: string[];
};
const rows: Row[] = [];
const skipped: string[] = [];

function webEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: appUrl,
    CAPDEX_SEED: "demo",
    AUTH_SECRET: "chaos-test-secret-not-for-production",
    TRUST_PROXY_HOPS: "1",
    METRICS_TOKEN: TOKEN,
    DATABASE_POOL_MAX: "4",
    DNS_SERVERS: `127.0.0.1:${PORTS.dns}`,
    LOG_LEVEL: "info",
    NEXT_DIST_DIR: DIST,
    NEXT_TELEMETRY_DISABLED: "1",
    // The default (off), also for builds made while it was 30 s: the bound under test is the request deadline.
    DATABASE_STATEMENT_TIMEOUT_MS: "0",
    ...extra,
  };
}

function startWeb(name: string, port: number, env: Record<string, string>): Proc {
  const next = path.join("node_modules", "next", "dist", "bin", "next");
  const p = run(name, process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], { NEXT_MANUAL_SIG_HANDLE: "true", ...env });
  procs.push(p);
  return p;
}

const ok = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
const ready = (port: number, ms = 330_000) => waitFor(`the server on ${port}`, () => ok(`http://127.0.0.1:${port}/api/ready`), ms);

/** Sends SIGTERM and waits at most 20 s; the time to exit, or null if it had to be killed. */
async function stopTimed(p: Proc): Promise<{ ms: number | null; code: number | null }> {
  const at = Date.now();
  p.child.kill("SIGTERM");
  const code = await Promise.race([p.exited, sleep(20_000).then(() => "hung" as const)]);
  if (code === "hung") {
    p.child.kill("SIGKILL");
    await p.exited;
    return { ms: null, code: null };
  }
  return { ms: Date.now() - at, code };
}

/**
 * Runs a CLI command without blocking this process: the load, the trickling target and the file
 * server all live here, and spawnSync would freeze them for as long as the command runs (so the
 * target never answered the probe and no load was sent during the import).
 */
function runCli(args: string[], env: Record<string, string>, timeoutMs: number): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout = (stdout + String(d)).slice(-65_536)));
    child.stderr.on("data", (d) => (stderr = (stderr + String(d)).slice(-65_536)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** Summary of the answers of one phase, with the targets every fault shares checked. */
function summarise(fault: string, answers: Answer[], extra: Partial<Row> & { clearedAt?: number; dependencyFault?: boolean } = {}): Row {
  const count = new Map<string, number>();
  for (const a of answers) {
    const k = a.status === null ? (a.error ?? "no answer") : a.code && a.status >= 400 ? `${a.status} ${a.code}` : String(a.status);
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  const statuses = [...count.entries()].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${n}x${k}`).join(", ");
  const longestMs = Math.max(0, ...answers.map((a) => a.doneAt - a.sentAt));
  let recoveryMs: number | null = null;
  if (extra.clearedAt !== undefined) {
    const lastFailure = answers.filter((a) => failed(a)).reduce((m, a) => Math.max(m, a.doneAt), 0);
    recoveryMs = Math.max(0, lastFailure - extra.clearedAt);
  }
  const misses: string[] = [];
  const bad5xx = answers.filter((a) => a.status !== null && a.status >= 500 && a.status !== 503);
  const e500 = bad5xx.length;
  const byOp = new Map<string, number>();
  for (const a of bad5xx) byOp.set(a.op, (byOp.get(a.op) ?? 0) + 1);
  if (e500) misses.push(`${e500} answer(s) 5xx other than 503 (${[...byOp].map(([op, n]) => `${n} x ${op}`).join(", ")})`);
  const hung = answers.filter((a) => a.status === null).length;
  if (hung) misses.push(`${hung} request(s) without an answer (client timeout ${CLIENT_TIMEOUT_MS} ms or connection error)`);
  if (longestMs > DEADLINE_MS + SLACK_MS) {
    const slow = answers.filter((a) => a.doneAt - a.sentAt > DEADLINE_MS + SLACK_MS).map((a) => a.op);
    misses.push(`longest request ${longestMs} ms > ${DEADLINE_MS + SLACK_MS} ms (${[...new Set(slow)].join(", ")})`);
  }
  if (extra.dependencyFault) {
    const bad503 = answers.filter((a) => a.status === 503 && (!a.retryAfter || a.code !== "unavailable")).length;
    if (bad503) misses.push(`${bad503} x 503 without Retry-After or code unavailable`);
  }
  if (recoveryMs !== null && recoveryMs > 10_000) misses.push(`recovery ${recoveryMs} ms > 10 s`);
  // Portal pages apart: they are where the API's wrapper does not reach (lib/portal/unavailable.ts).
  const pages = answers.filter((a) => a.op === "portal");
  const pageNote = pages.some((a) => a.status !== 200)
    ? `page: ${pages.filter((a) => a.status === 200).length}x200, ${pages.filter((a) => a.status === 503).length}x503 (/unavailable), longest ${Math.max(...pages.map((a) => a.doneAt - a.sentAt))} ms`
    : "";
  const { clearedAt: _c, dependencyFault: _d, misses: more = [], ...rest } = extra;
  const note = [rest.note, pageNote].filter(Boolean).join("; ");
  return { fault, requests: answers.length, statuses, e500, lost: null, longestMs, recoveryMs, exitMs: null, ...rest, note, misses: [...misses, ...more] };
}

async function main() {
  if (!fs.existsSync(path.join(DIST, "BUILD_ID"))) throw new Error(`no production build in ${DIST}: run npm run build first`);
  log(`Postgres of its own on 127.0.0.1:${PORTS.pg} (${pg.dir}); build ${DIST}`);
  await pg.init();
  const admin = postgres(pg.url, { max: 4, onnotice: () => {} });
  // The server connects as an ordinary role, so connection limits apply to it as they would in production.
  await admin.unsafe("create role capdex login; alter database capdex_fleet owner to capdex; alter schema public owner to capdex");

  const redis = await startRedis(PORTS.redis);
  if (redis) closers.push(redis);
  const dns = await silentDns(PORTS.dns);
  closers.push(dns);
  const trickle = await tricklingTarget(PORTS.trickle);
  closers.push(trickle);

  // The PGlite server seeds its own database meanwhile (two first starts at once save a minute).
  const pgliteDir = path.join(tmp, "pglite");
  const pgliteEnv = () => webEnv({ DATABASE_URL: "", PGLITE_DIR: pgliteDir, CAPDEX_WORKER: "off", DNS_SERVERS: `127.0.0.1:${PORTS.dns}` });
  const lite = wants("pglite") ? startWeb("pglite", PORTS.pglite, pgliteEnv()) : null;
  const web = startWeb("web", PORTS.web, webEnv(redis ? { REDIS_URL: `redis://127.0.0.1:${PORTS.redis}` } : {}));
  await ready(PORTS.web);
  log(`web ready on :${PORTS.web}${redis ? ` (limiter in Redis :${PORTS.redis})` : " (redis-server missing: limiter in Postgres)"}`);

  const fixtures = {
    capabilityIds: (await admin`select distinct capability_id from endpoints where status = 'listed' order by 1 limit 60`).map((r) => r.capability_id as string),
    endpointIds: (await admin`select id from endpoints where status = 'listed' order by id limit 200`).map((r) => r.id as string),
  };
  const webUrl = `http://127.0.0.1:${PORTS.web}`;
  const load = new Load(webUrl, fixtures);
  load.start();
  await sleep(4_000);
  rows.push(summarise("none (baseline)", load.answers.filter((a) => a.phase === "warm-up")));
  load.phase = "between faults";

  // a. The log's reader: gone (stdout, stderr) or stalled (a full pipe), each on an instance of its
  // own (started together, on the database the first one seeded), under the load at the same time.
  const logFaults = wants("log") ? (["stdout reader gone", "stderr reader gone", "log pipe full, nobody reads"] as const) : [];
  const logProcs = logFaults.map((_, i) => startWeb(`log${i}`, PORTS.log + i * 10, webEnv({ CAPDEX_WORKER: "off", DISCOVERY_WARM: "off" })));
  await Promise.all(logFaults.map((_, i) => ready(PORTS.log + i * 10, 240_000)));
  await Promise.all(
    logFaults.map(async (fault, i) => {
      const p = logProcs[i];
      if (fault === "stdout reader gone") p.child.stdout?.destroy();
      else if (fault === "stderr reader gone") p.child.stderr?.destroy();
      else {
        p.child.stdout?.removeAllListeners("data");
        p.child.stdout?.pause();
      }
      const own = new Load(`http://127.0.0.1:${PORTS.log + i * 10}`, fixtures, { workers: 2, intervalMs: 200 });
      own.phase = fault;
      own.start();
      // Far more than a pipe holds (64 KiB): about 250 bytes of log a request.
      await own.burst(500, 8);
      await sleep(2_000);
      await own.stop();
      const stop = await stopTimed(p);
      const misses = stop.ms === null ? ["SIGTERM: still running after 20 s (killed)"] : stop.ms > EXIT_TARGET_MS ? [`SIGTERM exit ${stop.ms} ms`] : [];
      rows.push(summarise(fault, own.answers, { exitMs: stop.ms, misses, note: `exit code ${stop.code}` }));
      log(`${fault}: SIGTERM exit ${stop.ms === null ? "HUNG" : stop.ms + " ms"}`);
      procs.splice(procs.indexOf(p), 1);
    }),
  );

  // b. Postgres: a lock held by another session, the connection limit reached, the server paused.
  if (wants("postgres")) await postgresPhases(load, admin);
  else skipped.push("Postgres faults (CHAOS_FAULTS)");

  // c. Redis hung: reads served, writes refused with 503, nothing waits.
  if (redis && wants("redis")) {
    await phase(load, "Redis paused (SIGSTOP 10 s)", { dependencyFault: true }, async () => {
      redis.child.kill("SIGSTOP");
      await sleep(10_000);
      return async () => {
        redis.child.kill("SIGCONT");
      };
    });
  } else skipped.push(redis ? "Redis hung (CHAOS_FAULTS)" : "Redis hung: redis-server is not installed (apt-get install redis-server)");

  // d. DNS silent during POST /api/submit/{id}/verify.
  if (wants("dns")) await dnsPhase(webUrl, dns);
  // e. A probe of a target that trickles one byte a second.
  if (wants("probe")) {
    await tricklePhase(admin, trickle);
    await trickleImportPhase(trickle);
  }
  // g. The real catalogue imported under a 256 MB heap while the load runs.
  if (wants("import")) await importPhase(load);
  await load.stop();
  // f. PGlite killed with kill -9 in a burst of reports, then started again.
  if (lite) {
    await pglitePhase(lite, pgliteEnv, pgliteDir);
    // h. A copy of that database on a small tmpfs, filled up under a burst of reports.
    await fullDiskPhase(pgliteDir, pgliteEnv);
  } else skipped.push("PGlite kill -9 and full filesystem (CHAOS_FAULTS)");

  const stop = await stopTimed(web);
  rows.push({ ...summarise("SIGTERM of the web instance after all faults", []), exitMs: stop.ms, misses: stop.ms === null || stop.ms > EXIT_TARGET_MS ? [`exit ${stop.ms ?? "HUNG"}`] : [] });
  await admin.end({ timeout: 2 });
}

async function postgresPhases(load: Load, admin: postgres.Sql): Promise<void> {
  await phase(load, "Postgres: table locked by another session", { dependencyFault: true }, async () => {
    const session = await admin.reserve();
    await session`begin`;
    await session`lock table outcome_reports, endpoints, discoveries, rate_limits in access exclusive mode`;
    await sleep(12_000);
    return async () => {
      await session`commit`;
      session.release();
    };
  });

  await phase(load, "Postgres: connection limit reached", { dependencyFault: true }, async () => {
    // Idle connections of the server's own role, up to the limit; then the server's are cut, and
    // there is no slot left to reconnect with.
    await admin`alter role capdex connection limit 24`;
    const held: postgres.Sql[] = [];
    for (;;) {
      const c = postgres(appUrl, { max: 1, onnotice: () => {}, connect_timeout: 2 });
      try {
        await c`select 1`;
        held.push(c);
      } catch {
        await c.end({ timeout: 1 }).catch(() => {});
        break;
      }
    }
    await admin.unsafe(`alter role capdex connection limit ${held.length}`);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where usename = 'capdex' and application_name like 'capdex %'`;
    await sleep(10_000);
    return async () => {
      await admin`alter role capdex connection limit -1`;
      await Promise.all(held.map((c) => c.end({ timeout: 1 })));
    };
  }, (row) => ({ ...row, note: ["server's connections cut, no slot to reconnect", row.note].filter(Boolean).join("; ") }));

  await phase(load, "Postgres: server paused (SIGSTOP 12 s)", { dependencyFault: true }, async () => {
    const pids = postgresPids();
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    await sleep(12_000);
    return async () => {
      for (const pid of pids) process.kill(pid, "SIGCONT");
    };
  });

}

/** Holds a fault (inject returns its clearing) under the load, then 8 s more after clearing. */
async function phase(
  load: Load,
  fault: string,
  opts: { dependencyFault?: boolean },
  inject: () => Promise<() => Promise<void>>,
  finish: (row: Row) => Row = (r) => r,
): Promise<void> {
  load.phase = fault;
  log(`${fault}: injected`);
  const clear = await inject();
  await clear();
  const clearedAt = Date.now();
  log(`${fault}: cleared`);
  await sleep(8_000);
  load.phase = "between faults";
  rows.push(finish(summarise(fault, load.answers.filter((a) => a.phase === fault), { ...opts, clearedAt })));
}

/** The cluster's processes (postmaster and every backend and helper), from postmaster.pid. */
function postgresPids(): number[] {
  const postmaster = Number(fs.readFileSync(path.join(pg.data, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = spawnSync("pgrep", ["-P", String(postmaster)]).stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  return [postmaster, ...children];
}

async function dnsPhase(webUrl: string, dns: { queries: () => number }): Promise<void> {
  const fault = "DNS server silent, POST /submit/{id}/verify";
  log(fault);
  const answers: Answer[] = [];
  const misses: string[] = [];
  for (let i = 0; i < 3; i++) {
    const headers = { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i + 1}` };
    const body = { endpoint_url: `https://api.chaos-dns-${i}.com/v1/run`, capability_id: "weather.current", contact_email: `ops@chaos-dns-${i}.com`, provider_name: `Chaos ${i}`, price_per_call: 0.01 };
    const sub = await fetch(`${webUrl}/api/submit`, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const { submission_id: id } = (await sub.json()) as { submission_id?: string };
    if (!id) {
      misses.push(`submit answered ${sub.status}`);
      continue;
    }
    const sentAt = Date.now();
    try {
      const res = await fetch(`${webUrl}/api/submit/${id}/verify`, { method: "POST", headers, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
      const out = (await res.json()) as { code?: string; reason?: string; verification?: { reason?: string }; last_check?: { reason?: string } };
      const code = out.code ?? out.reason ?? out.last_check?.reason ?? out.verification?.reason ?? JSON.stringify(out).match(/dns_[a-z_]+/)?.[0];
      answers.push({ phase: fault, op: "discover", status: res.status, retryAfter: res.headers.has("retry-after"), code, sentAt, doneAt: Date.now() });
      if (!code) misses.push("verify answered without a reason code");
    } catch (err) {
      answers.push({ phase: fault, op: "discover", status: null, retryAfter: false, sentAt, doneAt: Date.now(), error: (err as Error).name });
    }
  }
  const row = summarise(fault, answers, { misses, note: `${dns.queries()} DNS queries unanswered` });
  // verify's statuses are its own (not the load's): only 5xx and time count here.
  row.statuses = answers.map((a) => `${a.status} ${a.code ?? ""}`.trim()).join(", ");
  if (answers.some((a) => a.doneAt - a.sentAt > 5_000)) row.misses.push("verify took longer than 5 s");
  rows.push(row);
}

/** A probe of a target that trickles its answer: the probe's 5 s budget ends it. */
async function tricklePhase(admin: postgres.Sql, trickle: { stays: number[] }): Promise<void> {
  const [e] = await admin`select id from endpoints where status = 'listed' order by id desc limit 1`;
  await admin`update endpoints set url = ${`http://127.0.0.1:${PORTS.trickle}/run`}, is_demo = false where id = ${e.id}`;
  await trickledCli(trickle, { fault: "probe target trickles 1 byte/s", what: "probe", args: ["probe", e.id], deadlineMs: 5_000 });
}

/** An import whose catalogue trickles its first page: the page's deadline ends it, the CLI exits. */
async function trickleImportPhase(trickle: { stays: number[] }): Promise<void> {
  const deadlineMs = 5_000;
  await trickledCli(trickle, {
    fault: "import: catalogue trickles 1 byte/s",
    what: "import",
    args: ["import", `http://127.0.0.1:${PORTS.trickle}/discovery/resources`],
    deadlineMs,
    env: { CAPDEX_IMPORT_TIMEOUT_MS: String(deadlineMs) },
  });
}

/** Runs a CLI command against the trickling target; a row with how long the target was held. */
async function trickledCli(
  trickle: { stays: number[] },
  o: { fault: string; what: string; args: string[]; deadlineMs: number; env?: Record<string, string> },
): Promise<void> {
  log(o.fault);
  const before = trickle.stays.length;
  const at = Date.now();
  const env = { DATABASE_URL: pg.url, ALLOW_PRIVATE_TARGETS: "1", DNS_SERVERS: `127.0.0.1:${PORTS.dns}`, LOG_LEVEL: "warn", ...o.env };
  const cli = await runCli(["--import", "tsx", "scripts/cli.ts", ...o.args], env, 60_000);
  // The target notes a stay when its socket closes, which it learns a moment after the request ends.
  await sleep(500);
  const cliMs = Date.now() - at;
  const stays = trickle.stays.slice(before);
  const stay = Math.max(0, ...stays);
  const misses: string[] = [];
  if (!stays.length) misses.push(`the ${o.what} never reached the target`);
  if (stay > o.deadlineMs + 500) misses.push(`the ${o.what} held the target ${stay} ms (> its ${o.deadlineMs} ms deadline)`);
  if (cli.signal) misses.push(`cli ${o.what} killed (${cli.signal})`);
  // The command's first line: the probe's result, the import's status.
  const result = (cli.stdout ?? "").trim().split("\n")[0] ?? "";
  rows.push({ ...summarise(o.fault, []), requests: stays.length, statuses: result.slice(0, 90), longestMs: stay, note: `cli exit ${cli.status} after ${cliMs} ms (deadline ${o.deadlineMs} ms)`, misses });
}

async function importPhase(load: Load): Promise<void> {
  const fault = "import of the real catalogue, --max-old-space-size=256";
  const dir = path.resolve("..", "shared", "real-catalogue");
  if (!fs.existsSync(dir)) {
    skipped.push(`${fault}: ../shared/real-catalogue is absent`);
    return;
  }
  // The largest snapshot: the one that weighs on the heap (a minute or so under tsx).
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f.startsWith("bazaar"))
    .sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)
    .slice(0, 1);
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent((req.url ?? "").split("?")[0].replace(/\/discovery\/resources$/, ""))));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(PORTS.files, "127.0.0.1", r));
  load.phase = fault;
  log(`${fault}: ${files.length} snapshot(s)`);
  const notes: string[] = [];
  const misses: string[] = [];
  let longest = 0;
  for (const f of files) {
    const at = Date.now();
    const cli = await runCli(["--max-old-space-size=256", "--import", "tsx", "scripts/cli.ts", "import", `http://127.0.0.1:${PORTS.files}/${f}/discovery/resources`], { DATABASE_URL: pg.url, ALLOW_PRIVATE_TARGETS: "1", LOG_LEVEL: "warn" }, 120_000);
    longest = Math.max(longest, Date.now() - at);
    const crashed = cli.signal !== null || cli.status === null || cli.status > 2 || /heap out of memory/i.test(cli.stderr ?? "");
    notes.push(`${cli.status ?? cli.signal}`);
    if (crashed) misses.push(`${f}: ended by ${cli.signal ?? "exit " + cli.status}${/heap out of memory/i.test(cli.stderr ?? "") ? " (heap out of memory)" : ""}`);
  }
  await new Promise((r) => server.close(r));
  load.phase = "between faults";
  const row = summarise(fault, load.answers.filter((a) => a.phase === fault), { misses, note: `cli exits ${notes.join(",")}; longest import ${longest} ms` });
  rows.push(row);
}

/** Endpoint ids of a PGlite server's database (its demo data is its own), from its x402 list. */
async function endpointIdsOf(url: string): Promise<string[]> {
  const text = await (await fetch(`${url}/api/x402/discovery/resources?limit=50`)).text();
  const ids = [...new Set([...text.matchAll(/"endpoint_id":"([0-9a-f-]{36})"/g)].map((m) => m[1]))];
  return ids.length ? ids : [...new Set([...text.matchAll(/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g)].map((m) => m[1]))];
}

/** How many of the reports answered 202 are not in the PGlite database at `dir` (opened once the server is gone). */
async function missingReports(dir: string, accepted: string[]): Promise<number> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dir);
  const found = await db.query<{ n: number }>("select count(*)::int as n from outcome_reports where id = any($1::uuid[])", [accepted]);
  await db.close();
  return accepted.length - found.rows[0].n;
}

async function pglitePhase(lite: Proc, env: () => Record<string, string>, dir: string): Promise<Proc> {
  const fault = "PGlite: kill -9 in a burst of reports";
  await ready(PORTS.pglite);
  const url = `http://127.0.0.1:${PORTS.pglite}`;
  const endpointIds = await endpointIdsOf(url);
  const burstLoad = new Load(url, { capabilityIds: ["weather.current"], endpointIds });
  burstLoad.phase = fault;
  log(`${fault} (${endpointIds.length} endpoint ids)`);
  const burst = burstLoad.burst(2_000, 16, "report_outcome");
  await waitFor("reports accepted", async () => burstLoad.accepted.length >= 150, 30_000);
  lite.child.kill("SIGKILL");
  await lite.exited;
  const killedAt = Date.now();
  await burst;
  procs.splice(procs.indexOf(lite), 1);
  lite = startWeb("pglite", PORTS.pglite, env());
  await ready(PORTS.pglite, 120_000);
  const recoveryMs = Date.now() - killedAt;
  const stop = await stopTimed(lite);
  procs.splice(procs.indexOf(lite), 1);
  const accepted = burstLoad.accepted.map((a) => a.id);
  const lost = await missingReports(dir, accepted);
  const answers = burstLoad.answers.filter((a) => a.sentAt < killedAt);
  const row = summarise(fault, answers, { lost, recoveryMs, exitMs: stop.ms, note: `${accepted.length} answered 202 before the kill` });
  // Requests in flight at the kill have no answer: that is the fault itself, not a hang.
  row.misses = row.misses.filter((m) => !m.includes("without an answer"));
  if (lost) row.misses.push(`${lost} report(s) answered 202 are missing after the restart`);
  if (stop.ms === null || stop.ms > EXIT_TARGET_MS) row.misses.push(`SIGTERM exit ${stop.ms ?? "HUNG"}`);
  rows.push(row);
  return lite;
}

async function fullDiskPhase(sourceDir: string, env: () => Record<string, string>): Promise<void> {
  const fault = "PGlite: its filesystem full (tmpfs)";
  const mnt = path.join(tmp, "full");
  fs.mkdirSync(mnt, { recursive: true });
  const usedMb = Math.ceil(Number(spawnSync("du", ["-sm", sourceDir]).stdout.toString().split("\t")[0]) || 256);
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${usedMb + 64}m`, "tmpfs", mnt]);
  if (mounted.status !== 0) {
    skipped.push(`${fault}: cannot mount a tmpfs here (${mounted.stderr.toString().trim() || "not root?"})`);
    return;
  }
  const dir = path.join(mnt, "db");
  const filler = path.join(mnt, "filler");
  try {
    fs.cpSync(sourceDir, dir, { recursive: true });
    const p = startWeb("pglite-full", PORTS.pglite, { ...env(), PGLITE_DIR: dir });
    await ready(PORTS.pglite, 120_000);
    const url = `http://127.0.0.1:${PORTS.pglite}`;
    const load = new Load(url, { capabilityIds: ["weather.current", "translate.text"], endpointIds: await endpointIdsOf(url) });
    log(`${fault}: filling ${mnt}`);
    // Every free byte taken (fallocate, or dd until ENOSPC where fallocate is refused).
    const avail = Number(spawnSync("df", ["--output=avail", "-B1", mnt]).stdout.toString().trim().split("\n").at(-1));
    if (spawnSync("fallocate", ["-l", String(avail), filler]).status !== 0) spawnSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=1M"]);
    load.phase = fault;
    const fullAt = Date.now();
    await load.burst(150, 8, "report_outcome");
    await load.burst(60, 6, "discover");
    await load.burst(30, 4, "x402_resources");
    const during = load.answers.filter((a) => a.phase === fault);
    fs.rmSync(filler, { force: true });
    const freedAt = Date.now();
    load.phase = "space freed";
    await sleep(1_000);
    await load.burst(100, 8, "report_outcome");
    const after = load.answers.filter((a) => a.phase === "space freed");
    const stop = await stopTimed(p);
    procs.splice(procs.indexOf(p), 1);
    const lost = await missingReports(dir, load.accepted.map((a) => a.id));
    const row = summarise(fault, [...during, ...after], { lost, exitMs: stop.ms, recoveryMs: null });
    const writesDuring = during.filter((a) => a.op === "report_outcome");
    const refused = writesDuring.filter((a) => a.status === 503 && a.code === "unavailable" && a.retryAfter).length;
    const acceptedDuring = writesDuring.filter((a) => a.status === 202).length;
    const badWrites = writesDuring.length - refused - acceptedDuring;
    const readsDuring = during.filter((a) => a.op !== "report_outcome");
    const readsFailed = readsDuring.filter((a) => a.status !== 200).length;
    const afterOk = after.filter((a) => a.status === 202).length;
    if (!refused) row.misses.push("no write was refused while the filesystem was full (was it full?)");
    if (badWrites) row.misses.push(`${badWrites} write(s) answered neither 202 nor 503 unavailable with Retry-After`);
    if (readsFailed) row.misses.push(`${readsFailed} of ${readsDuring.length} read(s) failed while the filesystem was full`);
    if (afterOk < after.length) row.misses.push(`${after.length - afterOk} of ${after.length} report(s) refused after space was freed`);
    if (lost) row.misses.push(`${lost} report(s) answered 202 are missing`);
    if (stop.ms === null || stop.ms > EXIT_TARGET_MS) row.misses.push(`SIGTERM exit ${stop.ms ?? "HUNG"}`);
    row.note = `full: ${refused} of ${writesDuring.length} writes 503, ${acceptedDuring} 202; reads ${readsDuring.length - readsFailed} of ${readsDuring.length} 200; freed after ${((freedAt - fullAt) / 1000).toFixed(1)} s: ${afterOk} of ${after.length} reports 202`;
    rows.push(row);
  } finally {
    spawnSync("umount", ["-l", mnt]);
  }
}

function printTable(): void {
  const head = ["fault", "requests", "statuses seen", "500s", "reports lost", "longest ms", "recovery ms", "SIGTERM exit ms", "note"];
  const body = rows.map((r) => [
    r.fault,
    String(r.requests),
    r.statuses || "-",
    String(r.e500),
    r.lost === null ? "-" : String(r.lost),
    String(r.longestMs),
    r.recoveryMs === null ? "-" : String(r.recoveryMs),
    r.exitMs === null ? (r.misses.some((m) => m.includes("SIGTERM")) ? "HUNG" : "-") : String(r.exitMs),
    r.note,
  ]);
  console.log("\n| " + head.join(" | ") + " |\n|" + head.map(() => "---").join("|") + "|");
  for (const b of body) console.log("| " + b.join(" | ") + " |");
  for (const s of skipped) console.log(`skipped: ${s}`);
  const missed = rows.flatMap((r) => r.misses.map((m) => `${r.fault}: ${m}`));
  console.log(missed.length ? `\nMISSED ${missed.length} target(s):\n  ${missed.join("\n  ")}` : "\nevery target met");
}

let failure: unknown = null;
const hardStop = setTimeout(() => {
  console.error("chaos run still going after 12 minutes: stopping");
  for (const p of procs) p.child.kill("SIGKILL");
  pg.destroy();
  printTable();
  process.exit(1);
}, 12 * 60_000);
hardStop.unref();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const p of procs) p.child.kill("SIGKILL");
    pg.destroy();
    process.exit(1);
  });
}

main()
  .catch((err) => {
    failure = err;
    console.error(err);
    for (const p of procs) console.error(`--- last lines of ${p.name}:\n${p.lines.slice(-20).join("\n")}`);
  })
  .finally(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    try {
      for (const pid of postgresPids()) process.kill(pid, "SIGCONT");
    } catch {
      /* not running */
    }
    for (const c of closers) await c.close().catch(() => {});
    pg.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
    printTable();
    console.log(`\nchaos run: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    process.exit(failure || rows.some((r) => r.misses.length) ? 1 : 0);
  });
