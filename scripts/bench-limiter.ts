// `npx tsx scripts/bench-limiter.ts [--keys 1] [--concurrency 32] [--seconds 10]`: the rate limiter's
// Postgres counter alone, as report_outcome's check runs it at 32 connections: one statement per
// check (hitOne, how every check ran before batching) against checks batched while one is in flight
// (hit), on a pool of DATABASE_POOL_MAX (4) connections like a server's. Prints checks/s, p50 and
// p99 of each, in alternating rounds. Uses DATABASE_URL (default the local capdex_bench).
import { performance } from "node:perf_hooks";
import { openDb } from "@/lib/db/client";
import { hit, hitOne } from "@/lib/ratelimit/store";

const args = process.argv.slice(2);
const flag = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const KEYS = flag("--keys", 1);
const CONCURRENCY = flag("--concurrency", 32);
const SECONDS = flag("--seconds", 10);
const ROUNDS = flag("--rounds", 2);

async function main() {
  const h = await openDb({ url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/capdex_bench", poolMax: 4, migrate: false });
  const run = async (name: string, f: typeof hit) => {
    const lat: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    let n = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, w) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await f(h.db, `bench-limiter:${(n++ + w) % KEYS}`, 60);
          lat.push(performance.now() - t0);
        }
      }),
    );
    lat.sort((a, b) => a - b);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(1);
    console.log(`${name.padEnd(28)} ${Math.round(lat.length / SECONDS)} checks/s  p50 ${q(0.5)} ms  p99 ${q(0.99)} ms`);
  };
  for (let r = 0; r < ROUNDS; r++) {
    await run(`one statement per check (${KEYS} key${KEYS > 1 ? "s" : ""})`, hitOne);
    await run(`batched (${KEYS} key${KEYS > 1 ? "s" : ""})`, hit);
  }
  await h.close();
}

void main();
