// Group commit of outcome reports: reports that arrive together are stored by one statement, each
// caller still gets its own id only after its row is stored, and a report for an unknown endpoint
// (or one the database refuses) fails alone without taking the rest of its batch with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDb, type TestDb } from "../helpers/db";
import { queryRows } from "@/lib/db/client";
import { recordOutcome, recordProbeOutcome, reportWriteStats } from "@/lib/outcomes";
import { ApiError } from "@/lib/http/errors";
import { addEndpoint, anonymous } from "./outcomes-fixtures";

let t: TestDb;
let endpointIds: string[];

beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  endpointIds = [];
  for (let i = 0; i < 5; i++) endpointIds.push(await addEndpoint(t.db));
});
afterAll(async () => {
  await t?.close();
});

type Stored = { id: string; endpoint_id: string; success: boolean; latency_ms: number | null; status_code: number | null; reporter_kind: string };

async function storedRows(ids: string[]): Promise<Map<string, Stored>> {
  const rows = await queryRows<Stored>(
    t.db,
    sql`select id::text as id, endpoint_id::text as endpoint_id, success, latency_ms, status_code, reporter_kind
        from outcome_reports where id = any(${`{${ids.join(",")}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

describe("group commit of outcome reports", () => {
  it("stores 300 concurrent reports, each exactly as sent, in far fewer statements", async () => {
    const before = reportWriteStats(t.db);
    const sent = Array.from({ length: 300 }, (_, i) => ({
      endpoint_id: endpointIds[i % endpointIds.length],
      success: i % 7 !== 0,
      latency_ms: i % 5 === 0 ? undefined : 10.6 + i,
      status_code: i % 3 === 0 ? undefined : 200 + (i % 4),
    }));
    const answers = await Promise.all(sent.map((body, i) => recordOutcome(t.db, body, anonymous(`192.0.2.${i % 200}`))));
    const ids = answers.map((a) => a.report_id);
    expect(new Set(ids).size).toBe(300);
    const rows = await storedRows(ids);
    expect(rows.size).toBe(300);
    sent.forEach((body, i) => {
      const row = rows.get(ids[i])!;
      expect(row.endpoint_id).toBe(body.endpoint_id);
      expect(row.success).toBe(body.success);
      expect(row.latency_ms).toBe(body.latency_ms === undefined ? null : Math.round(body.latency_ms));
      expect(row.status_code).toBe(body.status_code ?? null);
      expect(row.reporter_kind).toBe("anonymous");
    });
    const after = reportWriteStats(t.db);
    expect(after.rows - before.rows).toBe(300);
    // The first report is written at once; the rest queue behind it and share statements.
    expect(after.statements - before.statements).toBeLessThan(30);
  });

  it("answers 404 for unknown endpoints in a batch and stores the others", async () => {
    const unknown: string[] = [randomUUID(), randomUUID(), randomUUID()];
    const bodies = [
      ...endpointIds.map((id) => ({ endpoint_id: id, success: true })),
      ...unknown.map((id) => ({ endpoint_id: id, success: false })),
      ...endpointIds.map((id) => ({ endpoint_id: id, success: false, latency_ms: 99 })),
    ];
    const results = await Promise.allSettled(bodies.map((b) => recordOutcome(t.db, b, anonymous("192.0.2.7"))));
    const stored: string[] = [];
    results.forEach((r, i) => {
      if (unknown.includes(bodies[i].endpoint_id)) {
        expect(r.status).toBe("rejected");
        const err = (r as PromiseRejectedResult).reason;
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe("endpoint_not_found");
      } else {
        expect(r.status).toBe("fulfilled");
        stored.push((r as PromiseFulfilledResult<{ report_id: string }>).value.report_id);
      }
    });
    expect((await storedRows(stored)).size).toBe(endpointIds.length * 2);
    const [orphans] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from outcome_reports where endpoint_id = any(${`{${unknown.join(",")}}`}::uuid[])`,
    );
    expect(Number(orphans.n)).toBe(0);
  });

  it("retries a refused batch report by report, so one bad value fails only its own report", async () => {
    // 70000 does not fit the smallint column: the batch statement fails as a whole, and the retry
    // stores every other report while the bad one fails on its own.
    const bodies = endpointIds.map((id, i) => ({ endpoint_id: id, success: true, status_code: i === 2 ? 70000 : 200 }));
    const results = await Promise.allSettled([
      ...bodies.map((b) => recordOutcome(t.db, b, anonymous("192.0.2.8"))),
      recordProbeOutcome(t.db, { endpointId: endpointIds[0], success: true, latencyMs: 12 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    const ids = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<{ report_id: string }>).value.report_id);
    const rows = await storedRows(ids);
    expect(rows.size).toBe(5);
    expect([...rows.values()].filter((r) => r.reporter_kind === "probe")).toHaveLength(1);
  });
});
