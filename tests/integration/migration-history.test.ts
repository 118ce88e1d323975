// Migration 0013 (users.report_days, docs/ranking.md "Weights"): an account that reported before
// the column existed keeps its history. The migrations before it are applied to a fresh PGlite, an
// account's reports are stored and counted, then the rest is applied.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MIGRATIONS_FOLDER } from "@/lib/db/client";

const HISTORY_MIGRATION = "0013_account_history";
const client = new PGlite();
const before = fs.mkdtempSync(path.join(os.tmpdir(), "capdex-migrations-"));

afterAll(async () => {
  await client.close();
  fs.rmSync(before, { recursive: true, force: true });
});

describe("migration 0013 (account history)", () => {
  it("gives accounts that reported before it the UTC days of their counted reports", async () => {
    // The migrations folder as it was before 0013.
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((e) => e.tag === HISTORY_MIGRATION);
    expect(at).toBeGreaterThan(0);
    fs.mkdirSync(path.join(before, "meta"));
    fs.writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    for (const e of journal.entries.slice(0, at)) fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: before });

    await client.exec(`
      insert into users (id, email) values ('reporter', 'r@example.com'), ('idle', 'i@example.com');
      insert into categories (id, title) values ('weather', 'Weather');
      insert into capabilities (id, category_id, title) values ('weather.current', 'weather', 'Current weather');
      insert into providers (id, name) values ('00000000-0000-0000-0000-000000000001', 'P');
      insert into endpoints (id, capability_id, provider_id, url, host, domain, price_per_call)
        values ('00000000-0000-0000-0000-000000000002', 'weather.current', '00000000-0000-0000-0000-000000000001', 'https://a.example/w', 'a.example', 'a.example', 0.001);
    `);
    // Two counted reports on 1 March, one on 3 March, and one on 5 March not counted yet.
    for (const [at, rolled] of [["2026-03-01T08:00:00Z", true], ["2026-03-01T23:30:00Z", true], ["2026-03-03T12:00:00Z", true], ["2026-03-05T12:00:00Z", false]] as const) {
      await client.query(
        `insert into outcome_reports (endpoint_id, success, reporter_kind, reporter_key, user_id, weight, created_at, rolled_up)
         values ('00000000-0000-0000-0000-000000000002', true, 'authenticated', 'u:reporter', 'reporter', 4, $1, $2)`,
        [at, rolled],
      );
    }

    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const { rows } = await client.query<{ id: string; report_days: number; last: string | null }>(
      "select id, report_days, last_report_day::text as last from users order by id",
    );
    expect(rows).toEqual([
      { id: "idle", report_days: 0, last: null },
      { id: "reporter", report_days: 2, last: "2026-03-03" },
    ]);
  });
});
