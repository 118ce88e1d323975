// Which capability a discover request is about: the given capability_id (confidence 1), or the one
// its intent resolves to, through an index built once per registry version (no query per request).
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { derive, getRegistry, suggestCapabilityIds, type Registry } from "@/lib/registry";
import type { DiscoverBody, DiscoverResponse, RankingPreset } from "@/lib/schemas/discover";
import { metrics } from "@/lib/metrics";
import { completeIntentIndex, interimIntentIndex, needsRuntimeClasses, readNeed, type IntentDoc, type IntentIndex, type NeedResolution } from "./intent";
import { logger } from "@/lib/log";
import { describeError } from "./log";
import { presetFromIntent } from "./intent/hints";

export type Resolution = { resolved: DiscoverResponse["resolved"]; viaIntent: boolean; presetFromIntent: RankingPreset | null };

// Built indexes by a digest of their documents, on globalThis: the index is a pure function of the
// documents, so every registry copy with the same capabilities (a process holds one per database
// handle: the primary's and, with replicas, the read router's; each test database's) shares one.
// The last few are kept.
//
// Capabilities the shipped model was not trained on (accepted proposals, an operator's entries) get
// run-time classes, which take seconds of CPU to learn at a hundred of them. The index is served at
// once without them (those capabilities answered by the lexical index alone, as before they had
// classes) while they are learnt a slice at a time between requests; then the complete index
// replaces it. The training is deterministic, so every instance ends with the same index.
type IndexEntry = { current: IntentIndex; settled: Promise<IntentIndex> };
const shared = globalThis as unknown as { __capdexIntentIndexes?: Map<string, IndexEntry> };
const MAX_INDEXES = 4;

function entryOf(registry: Registry): IndexEntry {
  return derive(registry, "intent-index", (r) => {
    const categoryTitles = new Map(r.categories.map((c) => [c.id, c.title]));
    const docs: IntentDoc[] = r.capabilities.map((c) => ({
      id: c.id,
      title: c.title,
      description: c.description,
      category: c.categoryId,
      categoryTitle: categoryTitles.get(c.categoryId),
      tags: c.tags,
      aliases: c.aliases,
      examples: c.examples,
    }));
    const key = createHash("sha256").update(JSON.stringify(docs)).digest("hex");
    const indexes = (shared.__capdexIntentIndexes ??= new Map());
    let entry = indexes.get(key);
    if (!entry) {
      entry = newEntry(docs);
      if (indexes.size >= MAX_INDEXES) indexes.delete(indexes.keys().next().value!);
      indexes.set(key, entry);
    }
    return entry;
  });
}

/** The interim index at once, and the complete one when its run-time classes are learnt (if any are needed). */
function newEntry(docs: IntentDoc[]): IndexEntry {
  const interim = interimIntentIndex(docs);
  const entry: IndexEntry = { current: interim, settled: Promise.resolve(interim) };
  if (!needsRuntimeClasses(interim)) return entry;
  const t0 = Date.now();
  entry.settled = completeIntentIndex(interim, docs).then(
    (complete) => {
      const ms = Date.now() - t0;
      entry.current = complete;
      metrics().intentRuntimeTraining.observe(ms / 1000);
      logger().info({ capabilities: complete.runtime.size, ms }, "intent index: run-time classes learnt");
      return complete;
    },
    (err: unknown) => {
      logger().error({ error: describeError(err) }, "intent index: run-time classes not learnt (the lexical index answers for them)");
      return interim;
    },
  );
  return entry;
}

/** The registry's intent index as it stands: complete, or interim while run-time classes are being learnt. */
export function intentIndexOf(registry: Registry): IntentIndex {
  return entryOf(registry).current;
}

/** The registry's complete intent index (run-time classes learnt): for imports' mapping and the CLI, which must not depend on timing. */
export function settledIntentIndexOf(registry: Registry): Promise<IntentIndex> {
  return entryOf(registry).settled;
}

// Agents repeat the same wordings; a resolution is a pure function of the index and the text, so
// the answers are kept per index (bounded; cleared when full; a new index starts afresh). What is
// kept is the pending reading, so concurrent requests with one new wording read it once.
const MAX_REMEMBERED = 10_000;
function resolveRemembered(registry: Registry, text: string): Promise<NeedResolution> {
  const index = intentIndexOf(registry);
  const byIndex = derive(registry, "intent-answers", () => new WeakMap<IntentIndex, Map<string, Promise<NeedResolution>>>());
  let seen = byIndex.get(index);
  if (!seen) byIndex.set(index, (seen = new Map()));
  let answer = seen.get(text);
  if (!answer) {
    answer = readNeed(index, text, (seconds) => metrics().intentEncoder.observe(seconds));
    if (seen.size >= MAX_REMEMBERED) seen.clear();
    seen.set(text, answer);
  }
  return answer;
}

/** The intent resolver's reading of a need (best at or above the confidence floor, the runners-up, other jobs, or a refusal), never an error. */
export async function readIntent(db: Db, text: string): Promise<NeedResolution> {
  return resolveRemembered(await getRegistry(db), text);
}

export async function resolveCapability(db: Db, body: Pick<DiscoverBody, "capability_id" | "intent">): Promise<Resolution> {
  const registry = await getRegistry(db);
  // Both given: capability_id wins and the intent is ignored (API.md).
  if (body.capability_id !== undefined) {
    const id = body.capability_id;
    if (!registry.byId.has(id)) {
      throw new ApiError("capability_not_found", `There is no capability "${id}".`, {
        errors: [{ pointer: "#/capability_id", detail: "Unknown capability; see suggestions, or GET /api/capabilities." }],
        extras: { suggestions: suggestCapabilityIds(registry.capabilities, id) },
      });
    }
    return { resolved: { capability_id: id, confidence: 1, candidates: [] }, viaIntent: false, presetFromIntent: null };
  }
  const result = await resolveRemembered(registry, body.intent ?? "");
  if (result.refused) {
    metrics().refusals.inc({ category: result.refused.category });
    throw new ApiError("intent_refused", "Capdex does not serve needs that ask for harm to others; no endpoints are offered for this one.", {
      errors: [{ pointer: "#/intent", detail: "Refused. If the need is legitimate (your own account, domain or e-mail; a compliance check), say so in the intent, or send a capability_id." }],
      extras: { category: result.refused.category },
    });
  }
  if (!result.best) {
    throw new ApiError("intent_unresolved", "No capability in the registry clearly serves this intent.", {
      errors: [{ pointer: "#/intent", detail: "Rephrase the need, pick one of the candidates, or send a capability_id." }],
      extras: { candidates: result.candidates.slice(0, 3) },
    });
  }
  const best = result.best;
  return {
    resolved: {
      capability_id: best.capability_id,
      confidence: best.confidence,
      candidates: result.candidates.filter((c) => c.capability_id !== best.capability_id).slice(0, 3),
      ...(result.also_needed?.length ? { also_needed: result.also_needed } : {}),
    },
    viaIntent: true,
    presetFromIntent: presetFromIntent(body.intent ?? ""),
  };
}
