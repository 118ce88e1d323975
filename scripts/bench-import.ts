// `npm run bench:import`: an import at market size (71,000 items by default, about what two
// facilitators list together), as an operator runs it (`npm run cli -- import <url>`, its own
// process) into a Postgres that a server is answering discover from at the same time. Prints the
// import's time and peak resident memory, and discover's latency before and during the import.
//
// Items: the real CDP Bazaar snapshots in ../shared/real-catalogue (CAPDEX_REAL_CATALOGUE), each
// distinct listing repeated with its host varied (r1.host, r2.host, ...) until --items is reached;
// without them, synthetic v2 items. Served page by page from a loopback catalogue.
//
//   npm run bench:import                          # 71,000 items
//   npm run bench:import -- --items 20000 --heap 256 --discover-rate 20
//
// Postgres: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a database of
// its own is created and dropped. Discover needs the production build (`npm run build`); without it
// only the import is measured.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { openDb } from "@/lib/db/client";
import { seedDatabase } from "@/lib/seed";
import { startCatalogueServer, v2Item } from "@/tests/helpers/catalogue-server";
import { withDatabase } from "@/tests/helpers/pg";
import { hasBuild, startServer } from "@/tests/helpers/server";

const flagValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ITEMS = Number(flagValue("--items") ?? 71_000);
const HEAP_MB = flagValue("--heap");
const DISCOVER_RATE = Number(flagValue("--discover-rate") ?? 10);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `capdex_bench_import_${process.pid}`;

type Item = { resource: string } & Record<string, unknown>;

function realItems(): { items: Item[]; from: string } | null {
  const dirs = [process.env.CAPDEX_REAL_CATALOGUE, path.resolve("..", "shared", "real-catalogue"), path.resolve("..", "..", "shared", "real-catalogue")];
  const dir = dirs.find((d) => d && fs.existsSync(d));
  if (!dir) return null;
  const seen = new Map<string, Item>();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  for (const f of files) {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { items?: Item[] };
    for (const it of doc.items ?? []) if (typeof it?.resource === "string" && !seen.has(it.resource)) seen.set(it.resource, it);
  }
  return seen.size ? { items: [...seen.values()], from: `${seen.size} distinct listings of ${files.length} snapshots in ${dir}` } : null;
}

/** The i-th item: a base listing, its host prefixed with the round it is repeated in. */
function itemMaker(base: Item[]): (i: number) => Item {
  return (i) => {
    const it = base[i % base.length];
    const round = Math.floor(i / base.length);
    if (!round) return it;
    let resource = it.resource;
    try {
      const u = new URL(it.resource);
      u.hostname = `r${round}.${u.hostname}`;
      resource = u.toString();
    } catch {
      resource = `${it.resource}#r${round}`;
    }
    return { ...it, resource };
  };
}

const NEEDS = ["Current weather for a city", "Token price in USD", "Transcribe an audio file", "Translate text", "Screenshot a web page", "DEX pools of a token"];

function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** Discover by capability id at a fixed rate, until stopped; latencies and failures. */
function discoverLoad(url: string, capabilityIds: string[], rate: number) {
  const latencies: number[] = [];
  let failures = 0;
  let n = 0;
  const timer = setInterval(() => {
    const t0 = performance.now();
    const capability_id = capabilityIds[n++ % capabilityIds.length];
    fetch(`${url}/api/discover`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ capability_id }), signal: AbortSignal.timeout(15_000) })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
        latencies.push(performance.now() - t0);
      })
      .catch(() => failures++);
  }, 1000 / rate);
  return {
    stop: async () => {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 500));
      return { requests: latencies.length + failures, failures, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    },
  };
}

/** Peak resident memory of a process, sampled from /proc every 100 ms (VmHWM once it is known). */
function rssSampler(pid: number) {
  let peak = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? /VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    } catch {
      /* exited */
    }
  };
  const timer = setInterval(read, 100);
  return { read, stop: () => (clearInterval(timer), peak) };
}

async function main() {
  const real = realItems();
  const base: Item[] = real?.items ?? Array.from({ length: 4000 }, (_, i) => v2Item(`https://api.provider-${i % 900}.com/v${i}/run`, { description: `${NEEDS[i % NEEDS.length]} (${i})` }) as Item);
  console.log(`items: ${ITEMS.toLocaleString("en")} from ${real?.from ?? "synthetic v2 items (no real snapshots found)"}`);

  const admin = postgres(withDatabase(BASE_URL, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${DB_NAME}`);
  const dbUrl = withDatabase(BASE_URL, DB_NAME);
  const catalogue = await startCatalogueServer({ total: ITEMS, item: itemMaker(base), maxLimit: 1000 });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const h = await openDb({ url: dbUrl });
    await seedDatabase(h.db, "demo");
    await h.close();

    let load: ReturnType<typeof discoverLoad> | null = null;
    let before: Awaited<ReturnType<ReturnType<typeof discoverLoad>["stop"]>> | null = null;
    if (hasBuild()) {
      server = await startServer({ DATABASE_URL: dbUrl, CAPDEX_RATE_LIMIT: "off", CAPDEX_WORKER: "off" }, { timeoutMs: 240_000 });
      const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
      const ids = (await sql`select distinct capability_id from endpoints where status = 'listed' order by 1`).map((r) => r.capability_id as string);
      await sql.end();
      // Warm (caches, JIT), then a quiet baseline, then the same load through the import.
      const warm = discoverLoad(server.url, ids, DISCOVER_RATE);
      await new Promise((r) => setTimeout(r, 10_000));
      await warm.stop();
      const quiet = discoverLoad(server.url, ids, DISCOVER_RATE);
      await new Promise((r) => setTimeout(r, 15_000));
      before = await quiet.stop();
      load = discoverLoad(server.url, ids, DISCOVER_RATE);
    } else console.log("no production build: discover is not measured (npm run build)");

    const nodeArgs = [...(HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []), "--import", "tsx", "scripts/cli.ts", "import", catalogue.url];
    const t0 = Date.now();
    const child = spawn(process.execPath, nodeArgs, { env: { ...process.env, DATABASE_URL: dbUrl, ALLOW_PRIVATE_TARGETS: "1", LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] });
    const rss = rssSampler(child.pid!);
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (out += String(d)));
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => (rss.read(), r(c))));
    const seconds = (Date.now() - t0) / 1000;
    const peak = rss.stop();
    const during = load ? await load.stop() : null;

    const fmt = (x: { requests: number; failures: number; p50: number; p99: number } | null) => (x ? `${x.requests} requests, ${x.failures} failed, p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms` : "-");
    console.log(`\n${out.trim()}\n`);
    console.log("| items | import s | items/s | importer peak RSS MB | exit | discover before (quiet) | discover during the import |");
    console.log("|---|---|---|---|---|---|---|");
    console.log(`| ${ITEMS} | ${seconds.toFixed(1)} | ${(ITEMS / seconds).toFixed(0)} | ${(peak / 1024 / 1024).toFixed(0)}${HEAP_MB ? ` (heap limit ${HEAP_MB} MB)` : ""} | ${code} | ${fmt(before)} | ${fmt(during)} |`);
    fs.mkdirSync("bench-results", { recursive: true });
    fs.writeFileSync("bench-results/import.json", JSON.stringify({ items: ITEMS, source: real?.from ?? "synthetic", seconds, peak_rss_bytes: peak, heap_mb: HEAP_MB ?? null, exit: code, discover_before: before, discover_during: during, at: new Date().toISOString() }, null, 2));
    if (code !== 0) process.exitCode = 1;
  } finally {
    await server?.stop();
    await catalogue.close();
    await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
