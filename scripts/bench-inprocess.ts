// `DATABASE_URL=... npx tsx scripts/bench-inprocess.ts [--n 2000]`: the CPU one discover, x402 list
// page and x402 search costs inside the process (no HTTP, no Next), on whatever registry the
// database holds, after the caches are warm. Measures how the domain code's cost grows with the
// registry apart from the framework's per-request cost (docs/benchmarks.md, "Market scale"); CPU
// time, not wall time, so a busy machine disturbs it less than it does req/s.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDb, queryRows } from "@/lib/db/client";
import { discover, flushDiscoveryLog } from "@/lib/discovery";
import { warmDiscovery } from "@/lib/discovery/warm";
import { listDiscoveryResources, searchDiscoveryResources } from "@/lib/x402-discovery";
import { candidateCacheSize } from "@/lib/discovery/candidates";
import type { Principal } from "@/lib/auth/principal";

const args = process.argv.slice(2);
const N = args.includes("--n") ? Number(args[args.indexOf("--n") + 1]) : 2000;
const INTENTS = ["current weather in Oslo", "translate text to german", "stock price of AAPL", "transcribe this audio file", "geocode an address"];

async function main() {
  process.env.CAPDEX_RATE_LIMIT = "off";
  const h = await openDb({ url: process.env.DATABASE_URL, migrate: false });
  const caps = (await queryRows<{ id: string }>(h.db, sql`select distinct capability_id as id from endpoints where status = 'listed' order by 1`)).map((r) => r.id);
  const principal: Principal = { kind: "anonymous", key: "ip:203.0.113.9", ip: "203.0.113.9" };
  const t0 = performance.now();
  const warmed = await warmDiscovery(h.db);
  console.log(`warmed ${warmed.capabilities} capabilities in ${Math.round(performance.now() - t0)} ms; cache ${JSON.stringify(candidateCacheSize(h.db))}; heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
  const run = async (name: string, f: (i: number) => Promise<unknown>) => {
    // Warm the JIT, the catalogue and each capability's memoised scoring (one pass over every
    // capability: a registry of 5,000 with fewer requests would measure first requests only).
    for (let i = 0; i < Math.max(200, caps.length); i++) await f(i);
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await f(i);
    const c = process.cpuUsage(c0);
    console.log(`${name.padEnd(34)} ${((c.user + c.system) / 1000 / N).toFixed(3)} ms CPU each`);
  };
  await run("discover by capability_id", (i) => discover(h.db, { capability_id: caps[(i * 7919) % caps.length] } as never, principal));
  await run("discover by intent", (i) => discover(h.db, { intent: INTENTS[i % INTENTS.length] } as never, principal));
  await run("x402 list (pages across it)", (i) => listDiscoveryResources(h.db, { limit: 20, offset: ((i * 7919) % Math.ceil(caps.length)) * 20 }));
  await run("x402 search", (i) => searchDiscoveryResources(h.db, { query: INTENTS[i % INTENTS.length], limit: 10 }));
  console.log(`cache ${JSON.stringify(candidateCacheSize(h.db))}; heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB, RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
  await flushDiscoveryLog(h.db);
  await h.close();
}

void main().then(() => process.exit(0));
