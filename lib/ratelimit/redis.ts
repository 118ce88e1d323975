// The limiter's counters in Redis (REDIS_URL set): the same fixed window per key as the Postgres store
// (it starts with the key's first hit, on Redis's clock, and an expired window restarts at 1), counted
// by one Lua script, so each check is atomic and one round trip (EVALSHA). The client never queues
// commands while disconnected: a check fails at once and the limiter falls back (reads served, writes
// 503) until Redis is back; ioredis reconnects by itself.
import Redis from "ioredis";
import { errorFields, logger } from "@/lib/log";
import type { Hit } from "./store";

// KEYS[1] the counter; ARGV[1] the window in ms. Returns the count so far and the ms left.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type LimiterRedis = Redis & { capdexHit: (key: string, windowMs: number) => Promise<[number, number]> };
type State = { client?: LimiterRedis; url?: string; connecting?: Promise<void>; lastErrorLog: number };
const state = ((globalThis as unknown as { __capdexRedis?: State }).__capdexRedis ??= { lastErrorLog: 0 });

/** The URL of the limiter's Redis (REDIS_URL), or undefined: then counters stay in Postgres. */
export function redisUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.REDIS_URL || undefined;
}

function clientFor(url: string): LimiterRedis {
  if (state.client && state.url === url) return state.client;
  state.client?.disconnect();
  const client = new Redis(url, {
    keyPrefix: process.env.REDIS_KEY_PREFIX ?? "capdex:",
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A Redis that accepts but does not answer must not hold requests up.
    connectTimeout: 1_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    // Checks that arrive in the same tick share one write.
    enableAutoPipelining: true,
  }) as LimiterRedis;
  client.defineCommand("capdexHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  // Without an offline queue a command sent before the first connection is up would fail, so the
  // first checks wait for it (up to the connect timeout); later outages fail fast.
  state.connecting = new Promise<void>((resolve) => {
    const done = () => {
      state.connecting = undefined;
      resolve();
    };
    client.once("ready", done);
    client.once("error", done);
    setTimeout(done, 1_000).unref();
  });
  client.on("error", (err) => {
    // ioredis reports every failed reconnect; one line per 10 s is enough.
    const now = Date.now();
    if (now - state.lastErrorLog < 10_000) return;
    state.lastErrorLog = now;
    logger().error(errorFields(err), "rate-limit Redis unreachable; reconnecting");
  });
  state.client = client;
  state.url = url;
  return client;
}

/** Counts one hit for `key` in a window of `windowSeconds`, in Redis. */
export async function hitRedis(url: string, key: string, windowSeconds: number): Promise<Hit> {
  const client = clientFor(url);
  if (state.connecting) await state.connecting;
  const [count, msLeft] = await client.capdexHit(`rl:${windowSeconds}:${key}`, windowSeconds * 1000);
  return { count: Number(count), resetSeconds: Math.max(0, Math.ceil(Number(msLeft) / 1000)) };
}

/** Closes the connection (shutdown, tests). */
export async function closeRedis(): Promise<void> {
  const client = state.client;
  state.client = undefined;
  state.url = undefined;
  state.connecting = undefined;
  if (!client) return;
  await client.quit().catch(() => client.disconnect());
}
