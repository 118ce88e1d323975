// `npm run test:fleet`: Capdex as a fleet on loopback, under a steady mixed load, through the faults
// an operator meets. A Postgres cluster of its own with a streaming replica (pg_basebackup) that the
// instances read through (DATABASE_READ_URL), two `next start` instances (CAPDEX_WORKER=off), one
// worker and HAProxy in front; then: kill -9 one instance, SIGTERM and restart the other, restart
// Postgres, kill -9 the worker in the middle of a rollup, kill -9 the replica and start it again.
// At the end every report answered 202 must be stored and counted exactly once, each anonymous
// caller must have had exactly its quota across both instances, and the instances' metrics must add
// up to what the load sent. Then money (scripts/fleet/paid.ts): two workers holding Capdex's wallet
// race to run paid test calls on a local chain and must pay exactly what the day's budget allows,
// each endpoint once; one transaction reported through both instances at once backs one report.
// Ports FLEET_PORT_BASE (default 3400) to +6. Needs the production build (runs `npm run build` if
// missing).
import { execSync } from "node:child_process";
import fs from "node:fs";
import postgres from "postgres";
import { PrivatePostgres, sleep, startBalancer, startWeb, startWorker, waitFor, type Proc } from "./cluster";
import { Load } from "./load";
import { BUDGET_CALLS, BUDGET_USD, PRICE, PaidWorld } from "./paid";
import { Checks, metricsDelta, printFigures, scrape, type Final } from "./report";

const BASE = Number(process.env.FLEET_PORT_BASE ?? 3400);
const PORTS = { pg: BASE, a: BASE + 1, b: BASE + 2, lb: BASE + 3, worker: BASE + 4, replica: BASE + 5, worker2: BASE + 6 };
const TOKEN = "fleet-metrics-token";
const ROLLUP_LOCK_ID = 0x43524f4c; // lib/outcomes/rollup.ts

const t0 = Date.now();
const log = (m: string) => console.log(`[fleet +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const ok = async (url: string, init?: RequestInit) => (await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) })).ok;

const pg = new PrivatePostgres(PORTS.pg);
const replica = new PrivatePostgres(PORTS.replica);
const procs: Proc[] = [];
const checks = new Checks();
let paid: PaidWorld | null = null;

function webEnv(): Record<string, string> {
  return {
    DATABASE_URL: pg.url,
    DATABASE_READ_URL: replica.url,
    CAPDEX_WORKER: "off",
    CAPDEX_SEED: "demo",
    AUTH_SECRET: "fleet-test-secret-not-for-production",
    // The load generator plays an edge proxy in front of HAProxy: its X-Forwarded-For is the caller.
    TRUST_PROXY_HOPS: "2",
    SHUTDOWN_DELAY_MS: "1500",
    METRICS_TOKEN: TOKEN,
    DATABASE_POOL_MAX: "4",
    // The local chain's RPC: instances verify payment evidence on the request path.
    ...(paid?.commonEnv() ?? {}),
    // Outbound DNS goes nowhere (submissions are only stored, never verified, in this test).
    DNS_SERVERS: "127.0.0.1:9",
    LOG_LEVEL: "info",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

const workerEnv = () => ({ ...webEnv(), DATABASE_READ_URL: "", ROLLUP_INTERVAL_MS: "1000", METRICS_PORT: String(PORTS.worker), CAPDEX_WORKER: "on", LOG_LEVEL: "info" });

async function startInstance(name: "a" | "b"): Promise<Proc> {
  const p = startWeb(name, PORTS[name], webEnv());
  procs.push(p);
  await waitFor(`instance ${name}`, () => ok(`http://127.0.0.1:${PORTS[name]}/api/ready`), 240_000);
  return p;
}

async function startTheWorker(): Promise<Proc> {
  const w = startWorker(workerEnv());
  procs.push(w);
  await waitFor("the worker", async () => w.lines.some((l) => l.includes("worker running jobs")), 120_000);
  return w;
}

/** Waits until HAProxy sends requests to the instance again (its request counter moves). */
async function rejoined(port: number): Promise<void> {
  const count = async () => Object.values(await scrape(`http://127.0.0.1:${port}/api/metrics`, TOKEN)).reduce((a, b) => a + b, 0);
  const before = await count();
  await waitFor(`instance on ${port} to get requests`, async () => (await count()) > before + 3, 30_000);
}

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) execSync("npm run build", { stdio: "inherit" });
  paid = await PaidWorld.start();
  log(`local chain ${paid.chain.rpcUrl} with a test USDC at ${paid.token}`);
  log(`Postgres of its own on 127.0.0.1:${PORTS.pg} (${pg.dir})`);
  await pg.init();
  await replica.initStandbyOf(pg);
  log(`its streaming replica on 127.0.0.1:${PORTS.replica} (${replica.dir})`);
  let a = await startInstance("a"); // migrates and seeds
  log("instance a ready");
  let b = await startInstance("b");
  let worker = await startTheWorker();
  const lb = startBalancer(PORTS.lb, [["a", PORTS.a], ["b", PORTS.b]], pg.dir);
  procs.push(lb);
  const url = `http://127.0.0.1:${PORTS.lb}`;
  await waitFor("HAProxy", () => ok(`${url}/api/health`), 30_000);
  log(`instances a (:${PORTS.a}) and b (:${PORTS.b}), worker (metrics :${PORTS.worker}), HAProxy ${url}`);

  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  const fixtures = {
    capabilityIds: (await db`select distinct capability_id from endpoints where status = 'listed' order by 1`).map((r) => r.capability_id as string),
    endpointIds: (await db`select id from endpoints where status = 'listed' order by id limit 200`).map((r) => r.id as string),
    endpointUrls: (await db`select url from endpoints where status = 'listed' order by id limit 50`).map((r) => r.url as string),
  };
  const [base] = (await db`select (select count(*) from outcome_reports)::int as reports,
    (select coalesce(sum(reports), 0) from outcome_rollups)::int as counted,
    (select coalesce(sum(reports), 0) from network_rollups)::int as network`) as unknown as Array<{ reports: number; counted: number; network: number }>;
  await db.end();

  const load = new Load(url, fixtures);
  load.start();
  await sleep(6_000);

  load.phase = "kill -9 instance a";
  // Killed while requests are in flight through the balancer (some of them, perhaps, on a).
  await waitFor("requests in flight", async () => load.inFlight >= 2, 5_000).catch(() => {});
  const killAt = Date.now();
  a.child.kill("SIGKILL");
  await a.exited;
  const diedAt = Date.now();
  log(`kill -9 a (dead ${diedAt - killAt} ms later)`);
  await sleep(3_000);
  a = await startInstance("a");
  await rejoined(PORTS.a);
  log("a restarted and back in rotation");

  load.phase = "SIGTERM instance b";
  const stopAt = Date.now();
  b.child.kill("SIGTERM");
  const code = await b.exited;
  const stopMs = Date.now() - stopAt;
  log(`b exited ${code} after ${stopMs} ms`);
  b = await startInstance("b");
  await rejoined(PORTS.b);
  log("b restarted and back in rotation");

  // The SIGTERM phase's last requests are answered before Postgres stops, so none of them is failed
  // by the next fault and counted against this one.
  load.phase = "Postgres down";
  await waitFor("the SIGTERM phase's requests to be answered", async () => !load.inFlightByPhase.get("SIGTERM instance b"), 20_000).catch(() => {});
  pg.stop();
  log("Postgres stopped");
  await sleep(3_000);
  pg.start();
  load.phase = "Postgres back";
  log("Postgres started again");
  await sleep(8_000);
  load.phase = "after Postgres";
  await sleep(4_000);

  load.phase = "kill -9 worker";
  const killed = await killWorkerMidRollup(worker);
  log(`kill -9 worker inside a rollup transaction (${killed.pending} reports not yet counted)`);
  worker = await startTheWorker();

  // Reads through a replica that dies: none fails, the primary answers them, and the replica is taken
  // back in once it runs again. (The Postgres restart took it out until it caught up again.)
  load.phase = "replica in";
  await waitFor("the replica in rotation on both instances", async () => (await replicaUp()).every((up) => up === 1), 60_000);
  const readsBefore = await readsByTarget();
  await sleep(2_000);
  load.phase = "kill -9 replica";
  const readsAtKill = await readsByTarget();
  const gone = replica.kill();
  // Reads on their way at once, so that some meet the dead replica before a health check has seen it.
  await load.readBurst(16);
  await gone;
  log("kill -9 replica");
  await waitFor("the replica out of rotation on both instances", async () => (await replicaUp()).every((up) => up === 0), 10_000).catch(() => {});
  const readsOut = await readsByTarget();
  await sleep(4_000);
  const readsAfterKill = await readsByTarget();
  load.phase = "replica back";
  replica.start();
  log("replica started again");
  const back = await waitFor("the replica back in rotation on both instances", async () => (await replicaUp()).every((up) => up === 1), 60_000).then(
    () => true,
    () => false,
  );
  const readsBack = await readsByTarget();
  await sleep(2_000);
  const readsEnd = await readsByTarget();
  log(`replica back in rotation: ${back}`);

  // The accounting window: quiet at both ends, so every request counts on one side only.
  await load.stop();
  const before = { a: await scrape(`http://127.0.0.1:${PORTS.a}/api/metrics`, TOKEN), b: await scrape(`http://127.0.0.1:${PORTS.b}/api/metrics`, TOKEN) };
  const windowStart = load.answers.length;
  load.phase = "steady";
  load.start();
  const quota = await load.quota(4, 75);
  await sleep(6_000);
  await load.stop();
  const after = { a: await scrape(`http://127.0.0.1:${PORTS.a}/api/metrics`, TOKEN), b: await scrape(`http://127.0.0.1:${PORTS.b}/api/metrics`, TOKEN) };
  log("accounting window done; waiting for the worker to count every report");

  const final = await waitForRollups(base, load.accepted);
  // The rollup run that counted the last reports ends after them (figures, pruning): wait for it.
  let workerMetrics: Record<string, number> = {};
  await waitFor("the worker's rollup run to end", async () => {
    workerMetrics = await scrape(`http://127.0.0.1:${PORTS.worker}/metrics`, TOKEN, "capdex_job_runs_total");
    return (workerMetrics['{job="outcomes.rollup"}'] ?? 0) > 0;
  }, 60_000).catch(() => {});
  // In flight at the kill, as the load saw it: sent before it, answered (or failed) after it.
  const inFlightAtKill = load.answers.filter((x) => x.sentAt <= diedAt && x.doneAt >= killAt).length;
  // Nothing writes any more (load stopped, every report counted): the dump and the live database must agree.
  for (const p of procs) if (p.child.exitCode === null && p.name === "worker") p.child.kill("SIGTERM");
  await worker.exited;
  const backup = await pg.dumpAndRestore();
  log(`pg_dump (${backup.bytes} bytes) restored into a new database`);
  const unauth = await fetch(`${url}/api/metrics`);

  printFigures(load, { inFlightAtKill, stopMs, killedPending: killed.pending, final, quota });
  console.log(`worker job runs after its restart: ${JSON.stringify(workerMetrics)}\n`);
  checks.run(load, {
    killAt,
    diedAt,
    inFlightAtKill,
    stopCode: code,
    stopMs,
    quota,
    windowAnswers: load.answers.slice(windowStart),
    metrics: metricsDelta(before, after),
    final,
    unauthorizedStatus: unauth.status,
    workerRollups: workerMetrics['{job="outcomes.rollup"}'] ?? 0,
    backup,
    replica: {
      servedBefore: readsAtKill.replica - readsBefore.replica,
      primaryWhileOut: readsAfterKill.primary - readsOut.primary,
      replicaWhileOut: readsAfterKill.replica - readsOut.replica,
      back,
      servedAfterBack: readsEnd.replica - readsBack.replica,
      failedOver: readsAfterKill.failedOver - readsAtKill.failedOver,
      noReplica: readsAfterKill.noReplica - readsAtKill.noReplica,
    },
  });
  await paidPhase(paid);
}

/**
 * Paid test calls by two workers at once, and payment evidence through both instances at once
 * (after the accounting above, so that its reports and requests are not in it).
 */
async function paidPhase(world: PaidWorld): Promise<void> {
  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    await world.list(db);
    const ids = world.sellers.map((s) => s.id);
    const walletBefore = await world.balanceOf(world.wallet);
    const receivedBefore = await world.received();
    // Every line the paying workers write, to look for the wallet's key in.
    const said: string[] = [];
    const workers = [PORTS.worker, PORTS.worker2].map((port, i) => {
      const w = startWorker({ ...workerEnv(), ...world.payingEnv(), METRICS_PORT: String(port) }, `paid-worker-${i + 1}`);
      for (const s of [w.child.stdout, w.child.stderr]) s?.on("data", (d) => said.push(String(d)));
      procs.push(w);
      return w;
    });
    await Promise.all(workers.map((w) => waitFor(w.name, async () => w.lines.some((l) => l.includes("worker running jobs")), 120_000)));
    log(`two workers with Capdex's wallet ${world.wallet} and a day's budget of $${BUDGET_USD} running paid test calls`);
    const state = async () => {
      const [r] = await db`select (select count(*) from paid_checks where verdict is null)::int as open,
        (select coalesce(sum(payments), 0) from paid_check_budgets)::int as payments,
        (select count(*) from endpoints where id = any(${ids}::uuid[]) and payment_seen is not null)::int as seen`;
      return r as unknown as { open: number; payments: number; seen: number };
    };
    const spentAll = await waitFor("the budget spent and every seller probed", async () => {
      const s = await state();
      return s.payments >= BUDGET_CALLS && s.open === 0 && s.seen === ids.length;
    }, 90_000).then(
      () => true,
      () => false,
    );
    // Several more runs of the job on both workers: nothing more may be paid.
    await sleep(5_000);
    const runs = await Promise.all(
      [PORTS.worker, PORTS.worker2].map(async (port) => (await scrape(`http://127.0.0.1:${port}/metrics`, TOKEN, "capdex_job_runs_total"))['{job="paid_checks.run"}'] ?? 0),
    );
    const spent = walletBefore - (await world.balanceOf(world.wallet));
    const received = (await world.received()) - receivedBefore;
    const rows = (await db`select endpoint_id::text as endpoint_id, verdict, tx from paid_checks order by id`) as unknown as Array<{ endpoint_id: string; verdict: string | null; tx: string | null }>;
    const [budget] = (await db`select spent_micros, payments, budget_micros from paid_check_budgets where network = 'eip155:84532'`) as unknown as Array<{ spent_micros: number; payments: number; budget_micros: number }>;
    const answerOf = new Map(world.sellers.map((s) => [s.id, s.answer]));
    log(`paid checks: ${rows.map((r) => `${answerOf.get(r.endpoint_id)} ${r.verdict}`).join(", ")}; job runs by worker ${runs.join(" / ")}`);

    // A caller's own paid call, reported through instance a and instance b at the same moment.
    const settlement = await world.paidCall();
    const body = JSON.stringify({ endpoint_id: world.sellers[0].id, success: true, latency_ms: 120, payment: { network: settlement.network, transaction: settlement.transaction, payer: settlement.payer } });
    const answers = await Promise.all(
      [PORTS.a, PORTS.b].map(async (port, i) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/report_outcome`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${90 + i}` },
          body,
          signal: AbortSignal.timeout(20_000),
        });
        return { status: res.status, body: (await res.json()) as { report_id?: string; payment_evidence?: string; payment_reason?: string } };
      }),
    );
    const reportIds = answers.map((a) => a.body.report_id ?? "00000000-0000-0000-0000-000000000000");
    const [{ n: storedReports }] = (await db`select count(*)::int as n from outcome_reports where id = any(${reportIds}::uuid[])`) as unknown as Array<{ n: number }>;
    const evidence = answers.map((a) => `${a.status} ${a.body.payment_evidence}${a.body.payment_reason ? ` (${a.body.payment_reason})` : ""}`).sort();
    log(`one transaction reported through a and b at once: ${evidence.join(", ")}`);

    checks.check("paid checks: the day's budget spent and every seller probed in time", spentAll, JSON.stringify(await state()));
    checks.check(
      `paid checks: two racing workers paid exactly the budget's ${BUDGET_CALLS} calls (on chain)`,
      spent === BigInt(BUDGET_CALLS) * PRICE && received === spent,
      `wallet spent ${spent}, sellers received ${received}, wanted ${BigInt(BUDGET_CALLS) * PRICE}`,
    );
    checks.check(
      "paid checks: each endpoint checked once, none left open, the budget's count equals the chain's",
      rows.length === BUDGET_CALLS && new Set(rows.map((r) => r.endpoint_id)).size === BUDGET_CALLS && rows.every((r) => r.verdict && r.tx) &&
        Number(budget?.spent_micros) === BUDGET_CALLS * Number(PRICE) && Number(budget?.payments) === BUDGET_CALLS,
      `${rows.length} checks, budget ${JSON.stringify(budget)}`,
    );
    checks.check(
      "paid checks: the verdict follows what each seller does (honest delivered, garbage wrong_output)",
      rows.length > 0 && rows.every((r) => r.verdict === (answerOf.get(r.endpoint_id) === "garbage" ? "wrong_output" : "delivered")),
    );
    const key = world.key.slice(2).toLowerCase();
    checks.check("paid checks: the wallet's key in no line the workers wrote", said.length > 0 && !said.join("").toLowerCase().includes(key));
    checks.check(
      "payment evidence: one transaction reported through both instances at once backs one report, the other is refused and stored",
      evidence.join(", ") === "202 rejected (tx_reused), 202 verified" && storedReports === 2,
      `${evidence.join(", ")}; ${storedReports} of 2 reports stored`,
    );
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
  } finally {
    await db.end();
  }
}

const metricsOf = (name: "a" | "b", metric: string) => scrape(`http://127.0.0.1:${PORTS[name]}/api/metrics`, TOKEN, metric);

/** capdex_db_replica_up of each instance (0 when it has none yet). */
async function replicaUp(): Promise<number[]> {
  return Promise.all((["a", "b"] as const).map(async (n) => Object.values(await metricsOf(n, "capdex_db_replica_up"))[0] ?? 0));
}

/** Reads through the read handle so far, both instances together: by the replica, by the primary, and the primary's by reason. */
async function readsByTarget(): Promise<{ replica: number; primary: number; failedOver: number; noReplica: number }> {
  const out = { replica: 0, primary: 0, failedOver: 0, noReplica: 0 };
  for (const n of ["a", "b"] as const) {
    for (const [labels, v] of Object.entries(await metricsOf(n, "capdex_db_reads_total"))) {
      if (labels === '{target="primary"}') out.primary += v;
      else out.replica += v;
    }
    const fallbacks = await metricsOf(n, "capdex_db_read_fallbacks_total");
    out.failedOver += fallbacks['{reason="replica_failed"}'] ?? 0;
    out.noReplica += fallbacks['{reason="no_replica"}'] ?? 0;
  }
  return out;
}

async function killWorkerMidRollup(worker: Proc): Promise<{ pending: number }> {
  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  const held = async () => (await db`select 1 from pg_locks where locktype = 'advisory' and objid = ${ROLLUP_LOCK_ID} and granted`).length > 0;
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (!(await held())) continue;
      // Frozen first, so that the rollup's transaction is certainly still open when it dies.
      worker.child.kill("SIGSTOP");
      if (await held()) {
        const [row] = await db`select count(*)::int as n from outcome_reports where not rolled_up`;
        worker.child.kill("SIGKILL");
        await worker.exited;
        return { pending: row.n as number };
      }
      worker.child.kill("SIGCONT");
    }
    throw new Error("no rollup caught in 60 s");
  } finally {
    await db.end();
  }
}

async function waitForRollups(base: { reports: number; counted: number; network: number }, accepted: string[]): Promise<Final> {
  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    const read = async () => {
      const [r] = await db`select (select count(*) from outcome_reports)::int as reports,
        (select count(*) from outcome_reports where not rolled_up)::int as pending,
        (select coalesce(sum(reports), 0) from outcome_rollups)::int as counted,
        (select coalesce(sum(reports), 0) from network_rollups)::int as network`;
      return { reports: r.reports - base.reports, pending: r.pending as number, counted: r.counted - base.counted, network: r.network - base.network };
    };
    // The dead worker's claim on the rollup job lapses after its 60 s lease.
    await waitFor("every report counted", async () => (await read()).pending === 0, 150_000).catch(() => {});
    const [{ n }] = await db`select count(*)::int as n from outcome_reports where id = any(${`{${accepted.join(",")}}`}::uuid[])`;
    return { ...(await read()), stored: n as number, missing: accepted.length - (n as number) };
  } finally {
    await db.end();
  }
}

main()
  .catch((err) => {
    console.error(err);
    for (const p of procs) console.error(`--- last lines of ${p.name}:\n${p.lines.slice(-30).join("\n")}`);
    checks.fail("the run itself", String(err));
  })
  .finally(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await paid?.close().catch(() => {});
    replica.destroy();
    pg.destroy();
    // What the instances and the worker logged as warnings and errors, to tell a failed check's cause.
    if (checks.failed) {
      for (const p of procs) {
        const worth = p.lines.filter((l) => /"level":"(warn|error|fatal)"/.test(l));
        if (worth.length) console.log(`--- warnings and errors of ${p.name} (pid ${p.child.pid}):\n${worth.slice(-20).join("\n")}`);
      }
    }
    checks.summarise();
    process.exit(checks.failed ? 1 : 0);
  });
