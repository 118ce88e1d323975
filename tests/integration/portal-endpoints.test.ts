import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { getEndpointFacts } from "@/lib/portal/endpoints";
import { createTestDb, type TestDb } from "../helpers/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "demo" });
});
afterAll(async () => {
  await t?.close();
});

describe("the portal's endpoint facts", () => {
  it("label demo listings and give the reason a failing endpoint fails", async () => {
    const rows = await queryRows<{ id: string; check_state: string }>(
      t.db,
      sql`select id, check_state from endpoints where check_state in ('failing', 'verified') order by id limit 40`,
    );
    const facts = await getEndpointFacts(t.db, rows.map((r) => r.id));
    expect(facts.size).toBe(rows.length);
    for (const r of rows) {
      const f = facts.get(r.id)!;
      expect(f.isDemo).toBe(true);
      expect(f.checkState).toBe(r.check_state);
      if (r.check_state === "failing") expect(f.lastCheckReason).toMatch(/\w/);
    }
    expect(rows.some((r) => r.check_state === "failing")).toBe(true);
  });

  it("knows a real listing is not a demo, and asks nothing for no ids", async () => {
    const [{ id }] = await queryRows<{ id: string }>(t.db, sql`select id from endpoints order by id limit 1`);
    await t.db.execute(sql`update endpoints set is_demo = false where id = ${id}`);
    expect((await getEndpointFacts(t.db, [id])).get(id)?.isDemo).toBe(false);
    expect((await getEndpointFacts(t.db, [])).size).toBe(0);
    expect((await getEndpointFacts(t.db, ["00000000-0000-4000-8000-000000000000"])).size).toBe(0);
  });
});
