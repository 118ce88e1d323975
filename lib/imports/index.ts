// Facilitators' discovery catalogues imported into Capdex (docs/imports.md): each source paged
// through on a schedule, its items mapped to capabilities, listed, probed before they are ranked,
// and claimable by their providers through the DNS TXT flow.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { hostOf, runImport, type RunSummary } from "./run";
import { importSettings } from "./settings";

export { runImport, type RunSummary } from "./run";
export { listUnmapped, listHeldBack, mapImportedUrl, ignoreImportedUrl } from "./queue";
export { importSettings } from "./settings";

/** Claims of a source last this long: longer than a run can take, so two instances never run one source together. */
const CLAIM_MINUTES = 30;

/** Makes the configured sources known (a source removed from the setting is simply no longer run). */
async function registerSources(db: Db, sources: string[]): Promise<void> {
  for (const url of sources) {
    await queryRows(db, sql`insert into import_sources (url, host) values (${url}, ${hostOf(url)}) on conflict (url) do nothing`);
  }
}

/** Claims one configured source whose run is due, or none. */
async function claimDueSource(db: Db, sources: string[]): Promise<string | null> {
  const rows = await queryRows<{ url: string }>(
    db,
    sql`update import_sources set claimed_until = now() + ${CLAIM_MINUTES} * interval '1 minute'
        where url = (
          select url from import_sources
          where url = any(${`{${sources.map((s) => `"${s.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`}::text[])
            and (next_run_at is null or next_run_at <= now())
            and (claimed_until is null or claimed_until < now())
          order by next_run_at nulls first, url limit 1
          for update skip locked)
        returning url`,
  );
  return rows[0]?.url ?? null;
}

/** The background job's pass: runs each due source once (one at a time), then schedules its next run. */
export async function runDueImports(db: Db): Promise<{ runs: RunSummary[] }> {
  const s = importSettings();
  const runs: RunSummary[] = [];
  const valid = s.sources.filter((u) => {
    try {
      return ["https:", "http:"].includes(new URL(u).protocol);
    } catch {
      console.error(`[capdex] CAPDEX_IMPORT_SOURCES: "${u}" is not a URL; skipped`);
      return false;
    }
  });
  if (!valid.length) return { runs };
  await registerSources(db, valid);
  for (;;) {
    const url = await claimDueSource(db, valid);
    if (!url) break;
    const summary = await runImport(db, url);
    runs.push(summary);
    await queryRows(
      db,
      sql`update import_sources set claimed_until = null, last_run_id = ${summary.runId}::uuid,
            next_run_at = now() + ${s.intervalMs} * interval '1 millisecond'
          where url = ${url}`,
    );
  }
  return { runs };
}

export type StoredRun = { id: string; source: string; status: string; startedAt: Date; finishedAt: Date | null; summary: Partial<RunSummary> };

/** The latest runs, newest first (per source when `perSource`), for the CLI and the stats page. */
export async function listImportRuns(db: Db, opts: { limit?: number; perSource?: boolean } = {}): Promise<StoredRun[]> {
  const rows = await queryRows<{ id: string; source_url: string; status: string; started_at: string | Date; finished_at: string | Date | null; summary: Partial<RunSummary> }>(
    db,
    opts.perSource
      ? sql`select distinct on (source_url) id::text as id, source_url, status, started_at, finished_at, summary from import_runs
            where status <> 'running' order by source_url, started_at desc limit ${opts.limit ?? 20}`
      : sql`select id::text as id, source_url, status, started_at, finished_at, summary from import_runs order by started_at desc limit ${opts.limit ?? 20}`,
  );
  return rows.map((r) => ({
    id: r.id,
    source: r.source_url,
    status: r.status,
    startedAt: new Date(r.started_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
    summary: r.summary,
  }));
}
