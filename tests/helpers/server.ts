// Starts the production server (`next start`, from the build in NEXT_DIST_DIR or .next) on a free
// loopback port, for tests that need real HTTP, several instances, or the server's background work.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";
import { withDatabase } from "./pg";

export type TestServer = {
  url: string;
  port: number;
  pid: number;
  logs: string[];
  /** Resolves with the exit code (or the signal that ended it) when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
};

export function buildDir(): string {
  return process.env.NEXT_DIST_DIR ?? ".next";
}

/** True when a production build exists (CI builds before it tests). */
export function hasBuild(): boolean {
  return fs.existsSync(path.join(process.cwd(), buildDir(), "BUILD_ID"));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function startServer(env: Record<string, string | undefined> = {}, opts: { timeoutMs?: number; node?: string } = {}): Promise<TestServer> {
  if (!hasBuild()) throw new Error(`no production build in ${buildDir()}: run \`npm run build\` first`);
  const port = await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(opts.node ?? process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: process.cwd(),
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "true", LOG_LEVEL: "info", PGLITE_DIR: "memory://", AUTH_SECRET: "capdex-test-secret-not-for-production", ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  child.stdout?.on("data", (d) => logs.push(String(d)));
  child.stderr?.on("data", (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join("")}`);
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server not ready in time:\n${logs.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    pid: child.pid!,
    logs,
    exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

/** A fresh Postgres database for servers that must share one (several instances). */
export async function createServerDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `capdex_srv_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return {
    url: withDatabase(base, name),
    drop: async () => {
      const a = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
      // A server killed mid-statement leaves its backend running that statement until it next
      // writes to the socket; FORCE waits only 5 s for it, so try a few times.
      for (let attempt = 1; ; attempt++) {
        try {
          await a.unsafe(`drop database if exists ${name} with (force)`);
          break;
        } catch (err) {
          if (attempt >= 5 || (err as { code?: string }).code !== "55006") throw err;
        }
      }
      await a.end();
    },
  };
}
