// One import of one source: page through it politely (limit, a pause between pages, caps on pages
// and bytes), skip and count every bad input, store each page as it comes (memory stays bounded by
// a page), and, when the run read the whole catalogue, count the items it no longer lists: three
// completed runs in a row without an item delist its endpoint. The summary is stored with the run.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { invalidateCandidates } from "@/lib/discovery/candidates";
import { getRegistry } from "@/lib/registry";
import { fetchPage } from "./fetch";
import { parseItem } from "./item";
import { createMapper } from "./map";
import { createNoiseJudge } from "./noise";
import { importSettings, type ImportSettings } from "./settings";
import { settleGroups, storePage, type PageResult } from "./store";

export const DELIST_AFTER_MISSED_RUNS = 3;

export type RunStatus = "completed" | "partial" | "failed";
export type RunSummary = {
  source: string;
  status: RunStatus;
  seen: number;
  new: number;
  updated: number;
  unchanged: number;
  unmapped: number;
  delisted: number;
  /** Noise held back instead of listed, by reason (lib/imports/noise.ts). */
  held_back: Record<string, number>;
  /** Items not listed, by reason (bad input, and URLs held by someone else). */
  skipped: Record<string, number>;
  /** Pages that could not be used, by reason. */
  pages_skipped: Record<string, number>;
  pages: number;
  bytes: number;
  /** Why the run stopped before the end of the catalogue, if it did. */
  stopped: string | null;
  ms: number;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bump = (m: Record<string, number>, k: string, n = 1) => void (m[k] = (m[k] ?? 0) + n);

export function hostOf(source: string): string {
  return new URL(source).host.toLowerCase();
}

export async function runImport(db: Db, source: string, overrides: Partial<ImportSettings> = {}): Promise<RunSummary & { runId: string }> {
  const s = { ...importSettings(), ...overrides };
  const started = Date.now();
  const sourceHost = hostOf(source);
  const [{ id: runId }] = await queryRows<{ id: string }>(db, sql`insert into import_runs (source_url, source_host) values (${source}, ${sourceHost}) returning id::text as id`);
  const summary: RunSummary = { source, status: "completed", seen: 0, new: 0, updated: 0, unchanged: 0, unmapped: 0, delisted: 0, held_back: {}, skipped: {}, pages_skipped: {}, pages: 0, bytes: 0, stopped: null, ms: 0 };
  const touched = new Set<string>();
  const seenUrls = new Set<string>();
  try {
    const map = await createMapper(await getRegistry(db));
    const judge = createNoiseJudge();
    const add = (stored: PageResult) => {
      summary.new += stored.new;
      summary.updated += stored.updated;
      summary.unchanged += stored.unchanged;
      summary.unmapped += stored.unmapped;
      summary.delisted += stored.delisted;
      for (const [k, n] of Object.entries(stored.held)) bump(summary.skipped, k, n);
      for (const [k, n] of Object.entries(stored.heldBack)) bump(summary.held_back, k, n);
      for (const c of stored.capabilities) touched.add(c);
    };
    let offset = 0;
    let failures = 0;
    let total: number | null = null;
    let firstOfLastPage: string | null = null;
    for (;;) {
      if (summary.pages >= s.maxPages) {
        summary.stopped = "page_cap";
        break;
      }
      if (summary.bytes >= s.maxRunBytes) {
        summary.stopped = "byte_cap";
        break;
      }
      if (total !== null && offset >= total) break;
      if (summary.pages > 0 && s.pauseMs > 0) await sleep(s.pauseMs);
      const page = await fetchPage(source, s.pageSize, offset, { timeoutMs: s.timeoutMs, maxBytes: s.maxPageBytes });
      summary.pages += 1;
      summary.bytes += page.bytes;
      if (!page.ok) {
        bump(summary.pages_skipped, page.reason);
        failures += 1;
        // A page that cannot be read is passed over while the catalogue says more follow.
        if (failures >= s.maxFailures || total === null) {
          summary.stopped = failures >= s.maxFailures ? "source_failing" : page.reason;
          break;
        }
        offset += s.pageSize;
        continue;
      }
      failures = 0;
      if (page.total !== null) total = page.total;
      if (!page.items.length) break;
      // A source that ignores offset answers the same page forever.
      const first = JSON.stringify(page.items[0]).slice(0, 500);
      if (first === firstOfLastPage) {
        summary.stopped = "repeated_page";
        break;
      }
      firstOfLastPage = first;
      summary.seen += page.items.length;
      const valid = [];
      for (const raw of page.items) {
        const parsed = parseItem(raw, page.version, s.allowPrivateItems);
        if (!parsed.ok) bump(summary.skipped, parsed.reason);
        else if (seenUrls.has(parsed.item.url)) bump(summary.skipped, "duplicate_url");
        else {
          seenUrls.add(parsed.item.url);
          valid.push(parsed.item);
        }
      }
      add(await storePage(db, { sourceHost, runId }, valid, map, judge));
      offset += page.items.length;
    }
    if (summary.stopped) summary.status = summary.pages_skipped.page_failed && summary.seen === 0 ? "failed" : "partial";
    else if (Object.keys(summary.pages_skipped).length) summary.status = "partial";
    if (summary.status === "completed") {
      // Groups are known once the whole catalogue was read: settle them, then count the items' final states.
      const settled = await settleGroups(db, { sourceHost, runId }, map);
      summary.new += settled.new;
      summary.delisted += settled.delisted;
      for (const c of settled.capabilities) touched.add(c);
      const states = await queryRows<{ state: string; reason: string | null; n: number }>(
        db,
        sql`select state, reason, count(*)::int as n from import_items
            where source_host = ${sourceHost} and last_run_id = ${runId}::uuid and state in ('held_back', 'unmapped') group by 1, 2`,
      );
      summary.held_back = {};
      summary.unmapped = 0;
      for (const r of states) {
        if (r.state === "unmapped") summary.unmapped += Number(r.n);
        else bump(summary.held_back, r.reason ?? "unknown", Number(r.n));
      }
      const delisted = await countMisses(db, sourceHost, runId);
      summary.delisted += delisted.length;
      for (const c of delisted) touched.add(c);
    }
  } catch (err) {
    summary.status = "failed";
    summary.stopped = "error";
    console.error(`[capdex] import of ${source} failed:`, err instanceof Error ? err.message : err);
  }
  summary.ms = Date.now() - started;
  await queryRows(db, sql`update import_runs set finished_at = now(), status = ${summary.status}, summary = ${JSON.stringify(summary)}::jsonb where id = ${runId}::uuid`);
  for (const c of touched) invalidateCandidates(db, c);
  return { ...summary, runId };
}

/**
 * After a run that read the whole catalogue: items it did not list miss one more run; at three
 * in a row their endpoints are delisted (kept, no longer ranked), unless their provider claimed them.
 */
async function countMisses(db: Db, sourceHost: string, runId: string): Promise<string[]> {
  const rows = await queryRows<{ capability_id: string }>(
    db,
    sql`with missed as (
          update import_items set missed_runs = missed_runs + 1
          where source_host = ${sourceHost} and last_run_id is distinct from ${runId}::uuid and state <> 'ignored'
          returning endpoint_id, missed_runs)
        update endpoints e set status = 'delisted', updated_at = now()
        from missed m
        where e.id = m.endpoint_id and m.missed_runs >= ${DELIST_AFTER_MISSED_RUNS}
          and e.source = ${sourceHost} and not e.domain_verified and e.status = 'listed'
        returning e.capability_id`,
  );
  return rows.map((r) => r.capability_id);
}
