// An import of 25,000 items from a local catalogue, at the default pace (500 a page, 250 ms between
// pages): every item stored or queued, the JavaScript heap bounded by a page, not by the catalogue
// (it is paged through and stored page by page), and a second run that finds nothing changed. Its
// time is printed, not asserted: import speed is measured by `npm run bench` (docs/benchmarks.md).
import v8 from "node:v8";
import vm from "node:vm";
import { settledIntentIndexOf } from "@/lib/discovery/resolve";
import { getRegistry } from "@/lib/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { runImport } from "@/lib/imports";
import { createTestDb, type TestDb } from "../helpers/db";
import { startCatalogueServer, v2Item, type CatalogueServer } from "../helpers/catalogue-server";

const N = 25_000;
const NEEDS = [
  "Current weather conditions for a city",
  "Translate text between languages",
  "Real-time stock quote for a ticker symbol",
  "Token price in USD for a crypto asset",
  "Transcribe an audio file to text",
  "Geocode a street address to coordinates",
  "Take a screenshot of a web page",
  "Summarize a long document with an LLM",
  "Send an SMS message to a phone number",
  "Quantum flux capacitor calibration service",
];

// A full collection on demand, so that the heap is measured live, not with whatever garbage the
// collector has not reached yet (that made the peak swing from 88 to 260 MB between runs).
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

let t: TestDb;
let s: CatalogueServer;
beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  t = await createTestDb({ seed: "catalogue" });
  s = await startCatalogueServer({
    total: N,
    // Each host's six or seven items have different descriptions (no group of repeats on a host);
    // hosts share them, as sellers of the same job do, so the mapper reads each description once
    // and each item's whole text (with its own path) once.
    item: (i) =>
      v2Item(`https://api.provider-${i % 4000}.com/v${i}/run`, {
        description: NEEDS[Math.floor(i / 4000) % NEEDS.length],
        amount: String(1000 + (i % 50) * 100),
        serviceName: `Provider ${i % 4000}`,
      }),
  });
});
afterAll(async () => {
  await s.close();
  await t.close();
});

describe(`an import of ${N.toLocaleString("en")} items`, () => {
  it("stores every item with a heap bounded by a page", { timeout: 400_000 }, async () => {
    // The intent model and the registry's index are loaded once per process (a fixed cost that grew
    // with the 0.3 model), not held per item: load them before the baseline.
    await settledIntentIndexOf(await getRegistry(t.db));
    collect();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    // Every half second: collect, then read what is live at that moment of the import.
    const sampler = setInterval(() => {
      collect();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 500);
    const t0 = Date.now();
    const r = await runImport(t.db, s.url, { allowPrivateItems: false });
    const ms = Date.now() - t0;
    clearInterval(sampler);
    const growthMb = (peak - base) / 1024 / 1024;
    console.log(`[imports-scale] ${N} items: ${(ms / 1000).toFixed(1)} s (${r.pages} pages, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB), live heap growth at peak ${growthMb.toFixed(0)} MB; summary ${JSON.stringify({ new: r.new, unmapped: r.unmapped, skipped: r.skipped })}`);
    expect(r).toMatchObject({ status: "completed", seen: N });
    expect(r.new + r.unmapped).toBe(N);
    expect(r.unmapped).toBeGreaterThan(0);
    // Live heap, sampled after full collections: a page at a time stays small, while every item
    // held at once would be several times the 11 MiB of JSON read.
    expect(growthMb).toBeLessThan(48);
    const [{ n }] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from endpoints where source = ${new URL(s.url).host}`);
    expect(n).toBe(r.new);

    const t1 = Date.now();
    const again = await runImport(t.db, s.url, { allowPrivateItems: false });
    console.log(`[imports-scale] second run (nothing changed): ${((Date.now() - t1) / 1000).toFixed(1)} s, unchanged ${again.unchanged}`);
    expect(again).toMatchObject({ status: "completed", new: 0, updated: 0, unchanged: r.new });
  });
});
