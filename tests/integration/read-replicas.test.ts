// The read router (lib/db/replicas.ts) against a real streaming replica: a Postgres cluster of the
// test's own on loopback, a pg_basebackup of it started as a hot standby (scripts/fleet/cluster.ts),
// in both passes (it needs no DATABASE_URL). Which server answered a read is told by
// pg_is_in_recovery(). The fleet test (npm run test:fleet) kills a replica under real load.
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, pgCodeOf, postgresPool, queryRows, type Db, type DbHandle } from "@/lib/db/client";
import { openReadRouter, parseLsn, primaryOf, readUrls, registerReadRouter, replicaName, type ReadRouter } from "@/lib/db/replicas";
import { renderMetrics } from "@/lib/metrics/exposition";
import { getReadDb, setDbHandle } from "@/lib/server/db";
import { PrivatePostgres } from "@/scripts/fleet/cluster";
import { route } from "@/lib/http/route";
import { createTestDb } from "../helpers/db";
import { call } from "../helpers/http";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const recovery = async (db: Db) => (await queryRows<{ r: boolean }>(db, sql`select pg_is_in_recovery() as r`))[0].r;

describe("read replicas", () => {
  let primary: PrivatePostgres;
  let replica: PrivatePostgres;
  let handle: DbHandle;
  let router: ReadRouter;
  const MAX_LAG_MS = 300;

  beforeAll(async () => {
    primary = new PrivatePostgres(await freePort());
    await primary.init();
    replica = new PrivatePostgres(await freePort());
    await replica.initStandbyOf(primary);
    handle = await openDb({ url: primary.url, migrate: false, poolMax: 2 });
    await handle.db.execute(sql`create table notes (id int primary key, body text)`);
    router = await openReadRouter({ sql: handle.sql!, db: handle.db }, [replica.url], {
      maxLagMs: MAX_LAG_MS,
      checkMs: 100,
      poolMax: 2,
      loop: false,
      connect: postgresPool,
    });
  });

  afterAll(async () => {
    await router?.close();
    await handle?.close();
    replica?.destroy();
    primary?.destroy();
  });

  const state = () => router.stats().replicas[0];
  const healthy = async () => {
    await router.check();
    return state().healthy;
  };

  it("reads DATABASE_READ_URL as a comma-separated list and names replicas without credentials", () => {
    expect(readUrls({ DATABASE_READ_URL: " postgres://u:secret@10.0.0.2:5433/capdex, ,postgres://10.0.0.3/capdex " })).toEqual([
      "postgres://u:secret@10.0.0.2:5433/capdex",
      "postgres://10.0.0.3/capdex",
    ]);
    expect(readUrls({})).toEqual([]);
    expect(replicaName("postgres://u:secret@10.0.0.2:5433/capdex")).toBe("10.0.0.2:5433/capdex");
    expect(parseLsn("1/0") - parseLsn("0/FFFFFFFF")).toBe(1n);
  });

  it("sends reads to the replica once a check finds it caught up, and writes made on the primary reach them", async () => {
    expect(state()).toMatchObject({ healthy: false, reason: "unchecked" });
    // Not yet checked: the primary answers.
    expect(await recovery(router.db)).toBe(false);
    expect(router.stats().fallbacks.no_replica).toBeGreaterThan(0);
    await until("the replica to be in rotation", healthy);
    expect(state().lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
    expect(await recovery(router.db)).toBe(true);
    await handle.db.execute(sql`insert into notes values (1, 'first')`);
    // A replica in rotation may be up to the bound behind, so even the table (created just before
    // the router opened) may not be replayed yet: "no such table" is "not yet" too.
    const replayed = async () => {
      try {
        return (await queryRows(router.db, sql`select id from notes where id = 1`)).length === 1;
      } catch (err) {
        if (pgCodeOf(err) === "42P01") return false;
        throw err;
      }
    };
    await until("the row to be replayed", replayed);
    expect(router.stats().reads[state().name]).toBeGreaterThan(0);
    expect(primaryOf(router.db)).toBe(handle.db);
    expect(primaryOf(handle.db)).toBe(handle.db);
  });

  it("keeps an idle, caught-up replica in rotation however long since the last write", async () => {
    await until("the replica to be in rotation", healthy);
    // Several lag bounds without a write: a replay-timestamp lag would grow past the bound here.
    await new Promise((r) => setTimeout(r, 3 * MAX_LAG_MS));
    await router.check();
    expect(state()).toMatchObject({ healthy: true, reason: null });
    expect(state().lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
  });

  it("takes out a replica that lags past the bound, reads fall back to the primary, and takes it back once caught up", async () => {
    await until("the replica to be in rotation", healthy);
    const replicaSql = await postgresPool(replica.url, 1);
    try {
      await replicaSql`select pg_wal_replay_pause()`;
      await handle.db.execute(sql`insert into notes values (2, 'while paused')`);
      await until("the replica to be taken out for its lag", async () => {
        await router.check();
        return state().reason === "lagging";
      });
      expect(state().healthy).toBe(false);
      expect(state().lagMs).toBeGreaterThan(MAX_LAG_MS);
      // Reads see the primary, the new row included.
      const before = router.stats().fallbacks.no_replica;
      expect(await recovery(router.db)).toBe(false);
      expect(await queryRows(router.db, sql`select id from notes where id = 2`)).toHaveLength(1);
      expect(router.stats().fallbacks.no_replica).toBe(before + 2);
      await replicaSql`select pg_wal_replay_resume()`;
      await until("the replica to be back in rotation", healthy);
      expect(await recovery(router.db)).toBe(true);
      expect(await queryRows(router.db, sql`select id from notes where id = 2`)).toHaveLength(1);
    } finally {
      await replicaSql`select pg_wal_replay_resume()`.catch(() => {});
      await replicaSql.end();
    }
  });

  it("runs a write sent through the read handle on the primary instead of failing it", async () => {
    await until("the replica to be in rotation", healthy);
    const before = router.stats().fallbacks.replica_failed;
    await router.db.execute(sql`insert into notes values (3, 'through the read handle')`);
    expect(router.stats().fallbacks.replica_failed).toBe(before + 1);
    expect(await queryRows(handle.db, sql`select id from notes where id = 3`)).toHaveLength(1);
    // A read-only refusal says nothing of the replica's health: it stays in.
    expect(state().healthy).toBe(true);
  });

  it("shows each replica's state, lag, reads and the fallbacks in the metrics", async () => {
    await until("the replica to be in rotation", healthy);
    await recovery(router.db);
    registerReadRouter(router);
    try {
      const { body } = await renderMetrics(null);
      const name = state().name;
      expect(body).toContain(`capdex_db_replica_up{replica="${name}"} 1`);
      expect(body).toMatch(new RegExp(`capdex_db_replica_lag_seconds\\{replica="${name}"\\} [0-9.e-]+\n`));
      expect(body).toContain(`capdex_db_reads_total{target="${name}"} ${router.stats().reads[name]}`);
      expect(body).toContain(`capdex_db_reads_total{target="primary"} ${router.stats().reads.primary}`);
      expect(body).toContain(`capdex_db_read_fallbacks_total{reason="no_replica"} ${router.stats().fallbacks.no_replica}`);
    } finally {
      registerReadRouter(null);
    }
    // Without a router, none of them has a sample.
    expect((await renderMetrics(null)).body).not.toMatch(/capdex_db_replica_up\{/);
  });

  it("sends a whole transaction to one server", async () => {
    await until("the replica to be in rotation", healthy);
    const inside = await router.db.transaction(async (tx) => [await recovery(tx as unknown as Db), await recovery(tx as unknown as Db)]);
    expect(inside).toEqual([true, true]);
  });

  it("hands handlers the read handle, and runs a read-only handler's retry on the primary", async () => {
    await until("the replica to be in rotation", healthy);
    setDbHandle(handle, router);
    expect(await getReadDb()).toBe(router.db);
    const seen: Array<{ replica: boolean; primary: boolean }> = [];
    const handler = route({
      handler: async ({ db, read }) => {
        seen.push({ replica: await recovery(read), primary: await recovery(db) });
        // What postgres.js throws when the connection is cut under a query (as Drizzle wraps it).
        if (seen.length === 1) throw Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }) });
        return { ok: true };
      },
    });
    const res = await call(handler, "/api/x");
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      { replica: true, primary: false },
      { replica: false, primary: false },
    ]);
  });

  it("answers every read when the replica is killed -9, from the primary, takes it out, and back once it returns", async () => {
    await until("the replica to be in rotation", healthy);
    // A pooled connection to the replica is open, so the kill cuts it under the next read.
    expect(await recovery(router.db)).toBe(true);
    await replica.kill();
    const failedBefore = router.stats().fallbacks.replica_failed;
    const answers = await Promise.all(Array.from({ length: 10 }, () => queryRows<{ id: number }>(router.db, sql`select id from notes order by id`)));
    for (const rows of answers) expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(router.stats().fallbacks.replica_failed).toBeGreaterThan(failedBefore);
    expect(state().healthy).toBe(false);
    await router.check();
    expect(state()).toMatchObject({ healthy: false, reason: "unreachable", lagMs: null });
    expect(await recovery(router.db)).toBe(false);
    replica.start();
    await until("the restarted replica to be back in rotation", healthy);
    expect(await recovery(router.db)).toBe(true);
  });
});

describe("without DATABASE_READ_URL", () => {
  it("the read handle is the primary itself", async () => {
    const h = await createTestDb();
    try {
      setDbHandle(h);
      expect(await getReadDb()).toBe(h.db);
    } finally {
      await h.close();
    }
  });
});
