// The real CDP Bazaar snapshots of ../shared/real-catalogue, served by a local catalogue server and
// imported by the real importer: noise is held back with its reasons, nothing held back is listed,
// and the importer's figures are the evaluation's (scripts/eval-mapping.ts). Run with
// `npm run test:real` (not part of `npm test`: the snapshots are not in the project).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { runImport } from "@/lib/imports";
import { NOISE_REASONS } from "@/lib/imports/noise";
import { createTestDb, type TestDb } from "../helpers/db";
import { startCatalogueServer, type CatalogueServer } from "../helpers/catalogue-server";
import { importSnapshot, memoryRegistry, realCatalogueDir } from "../../scripts/eval-mapping";
import { createMapper } from "@/lib/imports/map";

const dir = realCatalogueDir();
if (!dir) throw new Error("../shared/real-catalogue not found: npm run test:real needs the real catalogue (set CAPDEX_REAL_CATALOGUE)");
const snapshots = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ name: f.replace(/\.json$/, ""), doc: JSON.parse(readFileSync(join(dir, f), "utf8")) as { x402Version?: number; items: unknown[] } }));

beforeAll(() => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
});

// Each snapshot in its own database: they share URLs, and a URL another source listed first is held.
describe.each(snapshots)("$name", ({ name, doc }) => {
  let t: TestDb;
  let s: CatalogueServer;
  let host: string;
  let summary: Awaited<ReturnType<typeof runImport>>;
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });
  beforeAll(async () => {
    t = await createTestDb({ seed: "catalogue" });
    s = await startCatalogueServer({ item: (i) => doc.items[i], total: doc.items.length, version: doc.x402Version === 1 ? 1 : 2 });
    host = new URL(s.url).host;
    summary = await runImport(t.db, s.url, { pauseMs: 0, timeoutMs: 20_000, allowPrivateItems: false, pageSize: 500 });
  });

  it("imports the whole snapshot", () => {
    expect(summary.status).toBe("completed");
    expect(summary.seen).toBe(doc.items.length);
  });

  it("holds noise back with a known reason, and lists none of it", async () => {
    const held = await queryRows<{ reason: string; n: number; listed: number }>(
      t.db,
      sql`select i.reason, count(*)::int as n, count(e.id) filter (where e.status = 'listed')::int as listed
          from import_items i left join endpoints e on e.url = i.url and e.source = i.source_host
          where i.source_host = ${host} and i.state = 'held_back' group by 1`,
    );
    for (const h of held) {
      expect(NOISE_REASONS, h.reason).toContain(h.reason);
      expect(Number(h.listed), `${h.reason} listed`).toBe(0);
    }
    expect(Object.fromEntries(held.map((h) => [h.reason, Number(h.n)]))).toEqual(summary.held_back);
  });

  it("gives the evaluation's figures (the same parse, noise and mapping)", async () => {
    const registry = memoryRegistry();
    const outs = importSnapshot(doc, registry, await createMapper(registry));
    const count = (p: (s: string) => boolean) => outs.filter((o) => p(o.state)).length;
    const heldEval: Record<string, number> = {};
    for (const o of outs) if (o.state.startsWith("held:")) heldEval[o.state.slice(5)] = (heldEval[o.state.slice(5)] ?? 0) + 1;
    expect(summary.held_back).toEqual(heldEval);
    expect(summary.unmapped).toBe(count((s) => s === "unmapped"));
    const [{ n: listed }] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from endpoints where source = ${host} and status = 'listed'`);
    expect(Number(listed)).toBe(count((s) => s === "mapped"));
    console.log(`${name}: ${doc.items.length} items, listed ${listed}, unmapped ${summary.unmapped}, held back ${JSON.stringify(summary.held_back)}, skipped ${JSON.stringify(summary.skipped)}`);
  });
});
