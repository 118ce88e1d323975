// The fleet test's figures and checks: answers per phase, reports accepted, stored and counted, the
// quota of each anonymous caller, and the instances' metrics against what the load sent.
import { failed, OPERATION, type Answer, type Load } from "./load";

/** One metric's samples from a metrics endpoint, by label set: `{operation="POST /discover",status="200"}` -> 12. */
export async function scrape(url: string, token: string, metric = "capdex_http_requests_total"): Promise<Record<string, number>> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const out: Record<string, number> = {};
  for (const line of (await res.text()).split("\n")) {
    if (!line.startsWith(metric + "{")) continue;
    const space = line.lastIndexOf(" ");
    out[line.slice(metric.length, space)] = Number(line.slice(space + 1));
  }
  return out;
}

type Scrapes = { a: Record<string, number>; b: Record<string, number> };

/** Requests counted by both instances between two scrapes, by label set. */
export function metricsDelta(before: Scrapes, after: Scrapes): Record<string, number> {
  const out: Record<string, number> = {};
  for (const side of ["a", "b"] as const) {
    for (const [k, v] of Object.entries(after[side])) {
      const d = v - (before[side][k] ?? 0);
      if (d) out[k] = (out[k] ?? 0) + d;
    }
  }
  return out;
}

const labelsOf = (a: Answer) => `{operation="${OPERATION[a.op]}",status="${a.status}"}`;

export type Final = { reports: number; pending: number; counted: number; network: number; stored: number; missing: number };
type Quota = Map<string, number[]>;

export function printFigures(load: Load, f: { inFlightAtKill: number; stopMs: number; killedPending: number; final: Final; quota: Quota }) {
  const phases = [...new Set(load.answers.map((a) => a.phase))];
  const rows = phases.map((phase) => {
    const in_ = load.answers.filter((a) => a.phase === phase);
    const bad = in_.filter((a) => phase !== "quota" && failed(a));
    const by = new Map<string, number>();
    for (const a of bad) {
      const key = `${OPERATION[a.op]} ` + (a.status === null ? `no answer (${a.error})` : `${a.status}${a.error ? ` ${a.error}` : ""}${a.retryAfter ? " with Retry-After" : ""}`);
      by.set(key, (by.get(key) ?? 0) + 1);
    }
    const detail = [...by].map(([k, n]) => `${n} x ${k}`).join(", ");
    return `| ${phase} | ${in_.length} | ${bad.length} | ${detail || "-"} |`;
  });
  // What each kind of failed answer said, and how long the slowest of them took.
  const said = new Map<string, { n: number; maxMs: number }>();
  for (const a of load.answers.filter((x) => x.phase !== "quota" && failed(x) && x.detail)) {
    const key = `${OPERATION[a.op]} ${a.status}: ${a.detail}`;
    const s = said.get(key) ?? { n: 0, maxMs: 0 };
    said.set(key, { n: s.n + 1, maxMs: Math.max(s.maxMs, a.doneAt - a.sentAt) });
  }
  const quota = [...f.quota].map(([ip, s]) => `${ip}: ${s.filter((x) => x === 200).length} x 200, ${s.filter((x) => x === 429).length} x 429`);
  console.log(
    [
      "",
      "| phase | requests | failed | how |",
      "|---|---|---|---|",
      ...rows,
      "",
      ...[...said].map(([k, s]) => `- ${s.n} x ${k} (slowest ${s.maxMs} ms)`),
      ...(said.size ? [""] : []),
      `requests in flight at the kill -9: ${f.inFlightAtKill}; SIGTERM to exit: ${f.stopMs} ms; reports not yet counted when the worker died: ${f.killedPending}`,
      `reports: accepted (202) ${load.accepted.length}, stored ${f.final.stored} of them (missing ${f.final.missing}); new rows ${f.final.reports}, counted in rollups ${f.final.counted}, pending ${f.final.pending}`,
      `quota (discover, 60 a minute): ${quota.join("; ")}`,
      "",
    ].join("\n"),
  );
}

export class Checks {
  private passed = 0;
  failed = 0;

  check(name: string, ok: boolean, detail = "") {
    if (ok) this.passed++;
    else this.failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
  }

  fail(name: string, detail: string) {
    this.check(name, false, detail);
  }

  run(
    load: Load,
    r: {
      killAt: number;
      diedAt: number;
      inFlightAtKill: number;
      stopCode: number | null;
      stopMs: number;
      quota: Quota;
      windowAnswers: Answer[];
      metrics: Record<string, number>;
      final: Final;
      unauthorizedStatus: number;
      workerRollups: number;
      backup: { bytes: number; live: Record<string, number>; restored: Record<string, number> };
      replica: { servedBefore: number; primaryWhileOut: number; replicaWhileOut: number; back: boolean; servedAfterBack: number; failedOver: number; noReplica: number };
    },
  ) {
    const inPhase = (p: string) => load.answers.filter((a) => a.phase === p);
    const failures = (p: string) => inPhase(p).filter(failed);
    const killFailures = failures("kill -9 instance a");
    this.check(
      "kill -9 of an instance fails only requests that were in flight at the kill",
      killFailures.every((a) => a.sentAt <= r.diedAt && a.doneAt >= r.killAt),
      `${killFailures.length} failed, ${r.inFlightAtKill} in flight through the balancer at the kill`,
    );
    this.check("SIGTERM and restart of an instance fails no request", failures("SIGTERM instance b").length === 0, `${inPhase("SIGTERM instance b").length} requests`);
    this.check("the stopped instance exits 0 within 10 s", r.stopCode === 0 && r.stopMs < 10_000, `exit ${r.stopCode} after ${r.stopMs} ms`);
    const pgFailures = [...failures("Postgres down"), ...failures("Postgres back")];
    this.check(
      "while Postgres is down, failed answers are 503 with Retry-After",
      pgFailures.length > 0 && pgFailures.every((a) => a.status === 503 && a.retryAfter),
      `${pgFailures.length} failed, statuses ${[...new Set(pgFailures.map((a) => a.status))].join(",")}`,
    );
    this.check("the instances recover from the Postgres restart by themselves", failures("after Postgres").length === 0, `${inPhase("after Postgres").length} requests`);
    this.check("kill -9 of the worker fails no request", failures("kill -9 worker").length === 0);
    this.check("the instances read through the streaming replica", r.replica.servedBefore > 0, `${r.replica.servedBefore} reads in 2 s before the kill`);
    const replicaPhases = ["replica in", "kill -9 replica", "replica back"];
    const replicaFailures = replicaPhases.flatMap(failures);
    this.check(
      "kill -9 of the replica fails no request, reads or reports",
      replicaFailures.length === 0,
      `${replicaPhases.map((p) => inPhase(p).length).reduce((a, b) => a + b, 0)} requests (${inPhase("kill -9 replica").filter((a) => a.op !== "report_outcome" && a.op !== "submit").length} reads), ${replicaFailures.length} failed; ${r.replica.failedOver} reads failed on the replica and run again on the primary, ${r.replica.noReplica} sent to the primary with it out`,
    );
    this.check(
      "with the replica dead, the primary serves the reads",
      r.replica.primaryWhileOut > 0 && r.replica.replicaWhileOut === 0,
      `${r.replica.primaryWhileOut} reads by the primary, ${r.replica.replicaWhileOut} by the replica`,
    );
    this.check("the restarted replica is taken back in and serves reads", r.replica.back && r.replica.servedAfterBack > 0, `${r.replica.servedAfterBack} reads in 2 s`);
    this.check("steady load fails no request", failures("steady").length === 0, `${inPhase("steady").length} requests`);
    const quotaOk = [...r.quota.values()].every((s) => s.filter((x) => x === 200).length === 60 && s.filter((x) => x === 429).length === s.length - 60);
    this.check("each anonymous caller got exactly its quota across both instances", quotaOk);
    const sent: Record<string, number> = {};
    for (const a of r.windowAnswers) if (a.status !== null) sent[labelsOf(a)] = (sent[labelsOf(a)] ?? 0) + 1;
    const keys = [...new Set([...Object.keys(sent), ...Object.keys(r.metrics)])];
    const off = keys.filter((k) => (sent[k] ?? 0) !== (r.metrics[k] ?? 0)).map((k) => `${k} sent ${sent[k] ?? 0}, counted ${r.metrics[k] ?? 0}`);
    this.check("the two instances' request metrics add up to what the load sent", off.length === 0 && r.windowAnswers.every((a) => a.status !== null), off.join("; ") || `${r.windowAnswers.length} requests`);
    this.check("every report answered 202 is stored", r.final.missing === 0 && r.final.stored === load.accepted.length, `${r.final.stored} of ${load.accepted.length}`);
    this.check(
      "every stored report is counted exactly once",
      r.final.pending === 0 && r.final.counted === r.final.reports && r.final.network === r.final.reports && r.final.reports >= load.accepted.length,
      `${r.final.reports} stored, ${r.final.counted} counted per endpoint, ${r.final.network} in the network totals, ${r.final.pending} pending`,
    );
    this.check("metrics through the balancer need the token", r.unauthorizedStatus === 401, `status ${r.unauthorizedStatus}`);
    this.check("the restarted worker ran the rollup", r.workerRollups > 0, `${r.workerRollups} runs`);
    const tables = Object.keys(r.backup.live);
    const differ = tables.filter((t) => r.backup.live[t] !== r.backup.restored[t]);
    this.check(
      "a pg_dump restores into a new database with every table's rows and the migrations",
      tables.length > 10 && differ.length === 0 && (r.backup.restored["drizzle.__drizzle_migrations"] ?? 0) > 0,
      differ.length ? `differ: ${differ.join(", ")}` : `${tables.length} tables, ${r.backup.live["public.outcome_reports"]} reports`,
    );
  }

  summarise() {
    console.log(`fleet: ${this.passed} passed, ${this.failed} failed`);
  }
}
