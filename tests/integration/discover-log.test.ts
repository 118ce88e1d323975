import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import * as discoverRoute from "@/app/api/discover/route";
import { flushDiscoveryLog } from "@/lib/discovery";
import { deleteOldDiscoveries } from "@/lib/discovery/jobs";
import { queryRows } from "@/lib/db/client";
import { addEndpoint, countDiscoveries, counterTotals, endpointId as eid } from "./discover-helpers";

let t: TestDb;
let client = 0;
const post = (json: unknown, ip = `192.0.2.${++client % 250}`) =>
  call(discoverRoute.POST, "/api/discover", { method: "POST", json, headers: { "x-forwarded-for": ip } });

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  for (let k = 1; k <= 4; k++) await addEndpoint(t.db, { capabilityId: "weather.forecast", k, ok: 90 + k, total: 100 });
  await addEndpoint(t.db, { capabilityId: "crypto.price", k: 9, ok: 50, total: 100 });
});
afterAll(async () => {
  await flushDiscoveryLog(t?.db);
  await t?.close();
});

type Row = { id: string; capability_id: string; principal_key: string; endpoint_ids: string[]; via_intent: boolean };
const discoveryRow = async (id: string) =>
  (
    await queryRows<Row>(
      t.db,
      sql`select id::text, capability_id, principal_key, endpoint_ids::text[] as endpoint_ids, via_intent from discoveries where id = ${id}::uuid`,
    )
  )[0];

describe("the discovery log", () => {
  it("records each discovery_id with the caller, the endpoints returned and how it was resolved", async () => {
    const res = await post({ capability_id: "weather.forecast", preferences: { limit: 2 } }, "192.0.2.200");
    expect(res.status).toBe(200);
    await flushDiscoveryLog(t.db);
    const row = await discoveryRow(res.body.discovery_id as string);
    expect(row).toMatchObject({ capability_id: "weather.forecast", principal_key: "ip:192.0.2.200", via_intent: false });
    // Ranked and fallback endpoints alike: a caller may act on either.
    expect([...row.endpoint_ids].sort()).toEqual([eid(1), eid(2), eid(3), eid(4)]);

    const byIntent = await post({ intent: "weather forecast for Oslo tomorrow" });
    expect(byIntent.status).toBe(200);
    await flushDiscoveryLog(t.db);
    expect((await discoveryRow(byIntent.body.discovery_id as string)).via_intent).toBe(true);
  });

  it("reaches the database on its own, without an explicit flush", async () => {
    const res = await post({ capability_id: "crypto.price" });
    await vi.waitFor(async () => expect(await discoveryRow(res.body.discovery_id as string)).toBeDefined(), { timeout: 10_000, interval: 100 });
  });

  it("counts discover requests per capability and hour, intent ones apart, in one write per batch", async () => {
    await flushDiscoveryLog(t.db);
    const before = await counterTotals(t.db, "weather.forecast");
    const beforeRows = await countDiscoveries(t.db);
    const responses = await Promise.all([
      ...Array.from({ length: 12 }, () => post({ capability_id: "weather.forecast" })),
      ...Array.from({ length: 3 }, () => post({ intent: "weather forecast for the weekend in Rome" })),
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    await flushDiscoveryLog(t.db);
    expect(await counterTotals(t.db, "weather.forecast")).toEqual({ requests: before.requests + 15, intent: before.intent + 3 });
    expect(await countDiscoveries(t.db)).toBe(beforeRows + 15);
    // Rows written by one statement share its transaction time: 15 requests took at most 2 writes
    // (an idle instance writes the first at once, the rest wait for the next second).
    const [writes] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(distinct created_at)::int as n from (select created_at from discoveries order by created_at desc limit 15) x`,
    );
    expect(Number(writes.n)).toBeLessThanOrEqual(2);
    const [hour] = await queryRows<{ ok: boolean }>(
      t.db,
      sql`select bool_and(hour = date_trunc('hour', hour)) as ok from discover_counters`,
    );
    expect(hour.ok).toBe(true);
  });

  it("forgets discoveries older than a day and keeps recent ones", async () => {
    await flushDiscoveryLog(t.db);
    await t.db.execute(sql`
      insert into discoveries (id, capability_id, principal_key, endpoint_ids, via_intent, created_at)
      values ('00000000-0000-4000-8000-0000000000a1', 'weather.forecast', 'ip:x', '{}', false, now() - interval '25 hours'),
             ('00000000-0000-4000-8000-0000000000a2', 'weather.forecast', 'ip:x', '{}', false, now() - interval '23 hours')`);
    const total = await countDiscoveries(t.db);
    expect(await deleteOldDiscoveries(t.db)).toBe(1);
    expect(await countDiscoveries(t.db)).toBe(total - 1);
    expect(await discoveryRow("00000000-0000-4000-8000-0000000000a2")).toBeDefined();
    expect(await discoveryRow("00000000-0000-4000-8000-0000000000a1")).toBeUndefined();
  });
});
