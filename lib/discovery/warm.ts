// Warming a fresh instance: build the intent index, compile the refusal rules and load every
// capability's candidates once, in the background, so the first requests after a start do not each
// pay a cold load (about 5 ms of queries per capability, up to a second of CPU for the intent index
// of 1,000 capabilities, and a second for the refusal rules).
import type { Db } from "@/lib/db/client";
import { getRegistry } from "@/lib/registry";
import { preloadCandidates } from "./candidates";
import { describeError } from "./log";
import { settledIntentIndexOf } from "./resolve";
import { warmRefusalRules } from "./refusal";
import { logger } from "@/lib/log";

/** Capabilities per batch: two queries each (about 1,000 endpoints), small enough not to stall requests. */
const BATCH = 50;

/** Loads what discover needs, a batch at a time (it never holds more than one connection). */
export async function warmDiscovery(db: Db): Promise<{ capabilities: number; catalogue: number; ms: number }> {
  const t0 = Date.now();
  const registry = await getRegistry(db);
  // Run-time classes (capabilities the shipped model was not trained on) are learnt a slice at a
  // time between requests; the candidates load meanwhile.
  const intentIndex = settledIntentIndexOf(registry);
  await warmRefusalRules();
  const ids = registry.capabilities.map((c) => c.id);
  for (let i = 0; i < ids.length; i += BATCH) await preloadCandidates(db, ids.slice(i, i + BATCH));
  // The x402 catalogue too: built from every capability's candidates on the first list or search,
  // which at 100,000 endpoints kept that first request waiting for the whole build (a minute on a
  // busy 2-core machine). Imported here, not at the top: the catalogue stands on this module's
  // neighbours (candidates, ranking), not the other way round.
  const { getCatalogue } = await import("@/lib/x402-discovery/catalogue");
  const catalogue = await getCatalogue(db);
  await intentIndex;
  return { capabilities: ids.length, catalogue: catalogue.items.length, ms: Date.now() - t0 };
}

let started = false;

/**
 * Starts warmDiscovery once per server process (Next's Node runtime), unless DISCOVERY_WARM=off.
 * Called when the server starts its background work; a worker process (`npm run worker`) answers
 * no discover requests and is skipped.
 */
export function startWarmingDiscovery(getDb: () => Promise<Db>): void {
  if (started || process.env.NEXT_RUNTIME !== "nodejs" || process.env.DISCOVERY_WARM === "off") return;
  started = true;
  void getDb()
    .then((db) => warmDiscovery(db))
    .then((r) => logger().info(r, "discovery warmed"))
    .catch((err) => logger().error({ error: describeError(err) }, "discovery warm-up failed (requests load on demand)"));
}
