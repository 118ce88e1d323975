// The processes of the fleet test, all on loopback: a Postgres cluster of its own (initdb in a
// temporary directory, so restarting it disturbs no one else's database), web instances
// (`next start`), the worker (`npm run worker`) and HAProxy in front (Debian's package, installed
// when missing).
import { execFileSync, execSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A child process with its output kept (the last 200 event lines) for when a check fails. */
export type Proc = { name: string; child: ChildProcess; lines: string[]; exited: Promise<number | null> };

export function run(name: string, cmd: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(cmd, args, { env: { ...process.env, ...env } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  // Everything but the per-request lines, which would crowd out the events worth reading.
  const keep = (d: Buffer) => {
    lines.push(...String(d).split("\n").filter((l) => l && !l.includes('"msg":"request"')));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { name, child, lines, exited };
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const asPostgres = (args: string[]) => (os.userInfo().uid === 0 ? ["runuser", ["-u", "postgres", "--", ...args]] : [args[0], args.slice(1)]) as [string, string[]];

/** A throw-away Postgres cluster: started, stopped and restarted with pg_ctl. */
export class PrivatePostgres {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-fleet-"));
  readonly data = path.join(this.dir, "data");
  private readonly bin: string;
  constructor(readonly port: number) {
    const versions = fs.existsSync("/etc/postgresql") ? fs.readdirSync("/etc/postgresql") : [];
    this.bin = process.env.PG_BIN ?? (versions.length ? `/usr/lib/postgresql/${versions.sort().at(-1)}/bin` : execSync("pg_config --bindir").toString().trim());
    if (os.userInfo().uid === 0) execFileSync("chown", ["postgres:postgres", this.dir]);
  }
  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/capdex_fleet`;
  }
  private ctl(...args: string[]) {
    const [cmd, rest] = asPostgres([path.join(this.bin, "pg_ctl"), "-D", this.data, "-l", path.join(this.dir, "log"), ...args]);
    execFileSync(cmd, rest, { stdio: "ignore" });
  }
  async init(): Promise<void> {
    const [cmd, rest] = asPostgres([path.join(this.bin, "initdb"), "-D", this.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    execFileSync(cmd, rest, { stdio: "ignore" });
    fs.appendFileSync(
      path.join(this.data, "postgresql.conf"),
      `\nport = ${this.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${this.dir}'\nmax_connections = 60\nfsync = off\n`,
    );
    this.start();
    execFileSync(...asPostgres([path.join(this.bin, "createdb"), "-h", "127.0.0.1", "-p", String(this.port), "-U", "postgres", "capdex_fleet"]));
  }
  /**
   * A streaming replica of `primary` instead of a cluster of its own: pg_basebackup -R -X stream
   * (initdb's pg_hba.conf already lets 127.0.0.1 replicate, wal_level is replica by default), then
   * started on this port, hot standby, following the primary.
   */
  async initStandbyOf(primary: PrivatePostgres): Promise<void> {
    const [cmd, rest] = asPostgres([
      path.join(this.bin, "pg_basebackup"),
      ...["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", this.data, "-R", "-X", "stream", "-c", "fast", "--no-sync"],
    ]);
    execFileSync(cmd, rest, { stdio: "ignore" });
    fs.appendFileSync(path.join(this.data, "postgresql.conf"), `\nport = ${this.port}\nunix_socket_directories = '${this.dir}'\nhot_standby = on\n`);
    this.start();
  }
  /**
   * kill -9 of the postmaster and every process it started: the machine is gone, nothing shuts down.
   * The signals are sent before this returns; the promise resolves once the processes are reaped
   * (here that took more than a second), so that a start after it finds the port and memory free.
   */
  kill(): Promise<void> {
    const pid = Number(fs.readFileSync(path.join(this.data, "postmaster.pid"), "utf8").split("\n")[0]);
    let children: number[] = [];
    try {
      children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)]).toString().split("\n").map(Number).filter(Boolean);
    } catch {
      /* none left */
    }
    const alive = (p: number) => {
      try {
        process.kill(p, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (const p of [pid, ...children]) if (alive(p)) process.kill(p, "SIGKILL");
    const deadline = Date.now() + 10_000;
    return (async () => {
      while ([pid, ...children].some(alive) && Date.now() < deadline) await sleep(20);
    })();
  }
  start() {
    this.ctl("-w", "start");
  }
  stop() {
    this.ctl("-m", "fast", "-w", "stop");
  }
  /** pg_dump of capdex_fleet restored into a new database; returns the dump's size and both databases' row counts by table. */
  async dumpAndRestore(): Promise<{ bytes: number; live: Record<string, number>; restored: Record<string, number> }> {
    const file = path.join(this.dir, "capdex.dump");
    const conn = ["-h", "127.0.0.1", "-p", String(this.port), "-U", "postgres"];
    execFileSync(path.join(this.bin, "pg_dump"), [...conn, "-Fc", "-d", "capdex_fleet", "-f", file]);
    execFileSync(path.join(this.bin, "createdb"), [...conn, "capdex_restored"]);
    execFileSync(path.join(this.bin, "pg_restore"), [...conn, "--no-owner", "-d", "capdex_restored", file]);
    const counts = async (db: string) => {
      const sql = postgres(`postgres://postgres@127.0.0.1:${this.port}/${db}`, { max: 1, onnotice: () => {} });
      try {
        const tables = await sql`select table_schema || '.' || table_name as t from information_schema.tables
                                 where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`;
        const out: Record<string, number> = {};
        for (const { t } of tables) out[t] = Number((await sql.unsafe(`select count(*)::int as n from ${t}`))[0].n);
        return out;
      } finally {
        await sql.end();
      }
    };
    return { bytes: fs.statSync(file).size, live: await counts("capdex_fleet"), restored: await counts("capdex_restored") };
  }
  destroy() {
    try {
      this.stop();
    } catch {
      /* not running */
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `next start` from the production build, on a loopback port. */
export function startWeb(name: string, port: number, env: Record<string, string>): Proc {
  const next = path.join("node_modules", "next", "dist", "bin", "next");
  return run(name, process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], { NEXT_MANUAL_SIG_HANDLE: "true", ...env });
}

export function startWorker(env: Record<string, string>, name = "worker"): Proc {
  return run(name, process.execPath, ["--import", "tsx", "scripts/worker.ts"], env);
}

/** HAProxy from Debian's package (installed when missing), in the foreground, in front of the web instances. */
export function startBalancer(port: number, backends: Array<[string, number]>, dir: string): Proc {
  try {
    execSync("command -v haproxy", { stdio: "ignore" });
  } catch {
    console.log("installing haproxy (apt-get install -y haproxy)...");
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null", { stdio: "inherit" });
  }
  const config = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(config, balancerConfig(port, backends));
  return run("haproxy", "haproxy", ["-db", "-f", config], {});
}

/**
 * The balancer of docs/deploy.md: round robin, health checks on /api/health every 500 ms, out after
 * two failures (an instance that is shutting down answers 503 there), a request whose connection is
 * refused tried again on the other instance, X-Forwarded-For added, one connection per request to
 * the instances (no idle pooled connection for an instance to close under a request). No retry once
 * a request has been sent: a POST is not repeated.
 */
export function balancerConfig(port: number, backends: Array<[string, number]>): string {
  return `global
  maxconn 1024

defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout check 2s
  retries 3
  option redispatch 1
  option forwardfor
  option http-server-close

frontend capdex
  bind 127.0.0.1:${port}
  default_backend web

backend web
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  default-server inter 500 fall 2 rise 2
${backends.map(([name, p]) => `  server ${name} 127.0.0.1:${p} check`).join("\n")}
`;
}
