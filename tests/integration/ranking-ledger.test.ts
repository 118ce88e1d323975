// The ranking evaluation counts reports in memory at full size; here it is held to the service's
// own code: the same simulation through the real rollup statement gives the same rollups and the
// same answer to every discover call, and the evaluation's figures equal getObservedFigures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { getObservedFigures } from "@/lib/outcomes";
import { figuresAt } from "@/scripts/ranking-eval/figures";
import { uniform } from "@/scripts/ranking-eval/random";
import { openSqlLedger } from "@/scripts/ranking-eval/sql-ledger";
import { MemoryLedger, type HourRow } from "@/scripts/ranking-eval/ledger";
import { runWorld, type WorldConfig } from "@/scripts/ranking-eval/world";
import { addEndpoint } from "./outcomes-fixtures";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
});
afterAll(async () => t?.close());

type Answer = [number, number, string, string[]];

describe("the evaluation's report counting", () => {
  // Six hours of 4 capabilities: honest agents, probes, a competitor's API key and 200 addresses
  // reporting false failures; about 3,000 reports through the rollup statement, counted every 5 minutes.
  const config: WorldConfig = { seed: 7, capabilities: 4, days: 0.25, callsPerHour: 40, policy: "capdex", adversary: "false_failures", countEveryMinutes: 5 };

  /** The simulation through both ledgers (the statement on `db`): their counts, answers and rollups must agree. */
  async function bothLedgers(config: WorldConfig, db: TestDb["db"]) {
    let sqlRows: (id: string) => HourRow[] = () => [];
    const memoryRows = new Map<string, HourRow[]>();
    const answers = { memory: [] as Answer[], sql: [] as Answer[] };
    const memory = await runWorld({
      ...config,
      verifyFigures: true,
      onAnswer: (...a) => answers.memory.push(a),
      ledger: async (setup) => {
        const l = new MemoryLedger(setup);
        const close = l.close.bind(l);
        l.close = async () => {
          for (const e of setup.endpoints) memoryRows.set(e.id, [...l.rows(e.id).values()].sort((a, b) => a.hour - b.hour));
          return close();
        };
        return l;
      },
    });
    const real = await runWorld({
      ...config,
      onAnswer: (...a) => answers.sql.push(a),
      ledger: async (setup) => {
        const l = await openSqlLedger(db, setup);
        sqlRows = (id) => [...l.rows(id).values()].sort((a, b) => a.hour - b.hour);
        return l;
      },
    });
    expect(real.counts).toEqual(memory.counts);
    expect(answers.sql.length).toBeGreaterThan(150);
    expect(answers.sql).toEqual(answers.memory);
    for (const [id, rows] of memoryRows) expect(sqlRows(id)).toEqual(rows);
    return memory.counts;
  }

  it("gives the same rollups and the same answers through the rollup job's statement as in memory", async () => {
    const counts = await bothLedgers(config, t.db);
    expect(counts.attackReports).toBeGreaterThan(500);
    // Weight was counted (probes, API keys), and the attack's was not.
    const [w] = await queryRows<{ w: number }>(t.db, sql`select sum(w_total)::float8 as w from outcome_rollups`);
    expect(Number(w.w)).toBeGreaterThan(1000);
  }, 180_000);

  it("agrees on paid reports too: each wallet's spread over providers (unlinked wash trading spread over rivals)", async () => {
    const db = await createTestDb({ seed: "catalogue" });
    try {
      const counts = await bothLedgers({ ...config, adversary: "wash_trading_spread", days: 0.5 }, db.db);
      expect(counts.paidAttackReports).toBeGreaterThan(500);
      // Both branches of the rule were taken, and both ledgers agreed on them above: paid successes
      // counted against their wallet (spread), and paid successes whose wallet has no paid weight in
      // that endpoint-hour (not spread: counted as their sender's).
      const [r] = await queryRows<{ paid: number; unspread: number }>(
        db.db,
        sql`select (select count(*)::int from reporter_weights where reporter_key like 'p:%') as paid,
                   (select count(*)::int from payment_evidence pe join outcome_reports o on o.id = pe.report_id
                    where pe.status = 'verified' and o.success and not exists (
                      select 1 from reporter_weights rw where rw.endpoint_id = o.endpoint_id
                        and rw.hour = date_trunc('hour', o.created_at) and rw.reporter_key = 'p:' || pe.network || ':' || pe.payer)) as unspread`,
      );
      expect(Number(r.paid)).toBeGreaterThan(0);
      expect(Number(r.unspread)).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 180_000);
});

describe("the evaluation's figures", () => {
  it("equal getObservedFigures for the same hourly rollups", async () => {
    const [{ now }] = await queryRows<{ now: number }>(t.db, sql`select (extract(epoch from now()) * 1000)::float8 as now`);
    const ids = await Promise.all([1, 2, 3].map(() => addEndpoint(t.db)));
    const rows = new Map<string, HourRow[]>();
    for (const [n, id] of ids.entries()) {
      const list: HourRow[] = [];
      // Hours from 9 days ago to now, some empty, some with weight 0, histograms of 1 to 6 buckets.
      for (let h = 0; h < 9 * 24; h++) {
        const u = uniform(5, n, h);
        if (u < 0.3) continue;
        const hour = Math.floor(Number(now) / 3_600_000) * 3_600_000 - h * 3_600_000;
        const wTotal = u < 0.35 ? 0 : Math.floor(uniform(6, n, h) * 40) + 1;
        const wSuccess = Math.floor(uniform(7, n, h) * (wTotal + 1));
        const hist = new Map<number, number>();
        if (wTotal) for (let b = 0; b < 1 + Math.floor(uniform(8, n, h) * 6); b++) hist.set(40 + Math.floor(uniform(9, n, h, b) * 60), 1 + b);
        list.push({ hour, reports: wTotal + 2, successes: wSuccess, wSuccess, wTotal, hist });
      }
      rows.set(id, list);
      await t.db.execute(sql`insert into outcome_rollups (endpoint_id, hour, shard, reports, successes, w_success, w_total, latency_hist)
        select ${id}::uuid, to_timestamp(x.hour / 1000.0), 0, x.reports, x.successes, x.w_success, x.w_total, x.hist
        from jsonb_to_recordset(${JSON.stringify(list.map((r) => ({ ...r, w_success: r.wSuccess, w_total: r.wTotal, hist: Object.fromEntries(r.hist) })))}::jsonb)
          as x(hour float8, reports int, successes int, w_success float8, w_total float8, hist jsonb)`);
    }
    const [{ now: later }] = await queryRows<{ now: number }>(t.db, sql`select (extract(epoch from now()) * 1000)::float8 as now`);
    const real = await getObservedFigures(t.db, ids);
    for (const id of ids) expect(figuresAt(rows.get(id)!, Number(later))).toEqual(real.get(id));
  });
});
