// The imports' tunables from the environment: which catalogues, how often, and how politely.
import { numberSetting } from "@/lib/env";

export type ImportSettings = {
  /** CAPDEX_IMPORT_SOURCES: comma-separated catalogue URLs (`GET {facilitator}/discovery/resources`); none when unset. */
  sources: string[];
  /** CAPDEX_IMPORT_INTERVAL_MS: between two runs of one source (default 6 h). */
  intervalMs: number;
  /** CAPDEX_IMPORT_PAGE_SIZE: the `limit` asked of the source per page (default 500). */
  pageSize: number;
  /** CAPDEX_IMPORT_PAUSE_MS: pause between two pages (default 250 ms). */
  pauseMs: number;
  /** CAPDEX_IMPORT_MAX_PAGES: pages read per run at most (default 200). */
  maxPages: number;
  /** CAPDEX_IMPORT_MAX_PAGE_BYTES: a page larger than this is skipped (default 4 MiB). */
  maxPageBytes: number;
  /** CAPDEX_IMPORT_MAX_RUN_BYTES: bytes read per run at most (default 256 MiB). */
  maxRunBytes: number;
  /** CAPDEX_IMPORT_TIMEOUT_MS: deadline of one page request (default 20 s). */
  timeoutMs: number;
  /** CAPDEX_IMPORT_MAX_FAILURES: failed pages in a row before the run gives up (default 3). */
  maxFailures: number;
  /**
   * Item URLs may be http:// or loopback (ALLOW_PRIVATE_TARGETS=1, tests and local development, like
   * submissions). Separate from fetching the catalogue itself, so a test can serve the catalogue on
   * a loopback port and still see private item URLs refused.
   */
  allowPrivateItems: boolean;
};

const envNumber = (name: string, fallback: number, min = 0) => numberSetting(process.env[name], fallback, { min });

export function importSettings(): ImportSettings {
  return {
    sources: (process.env.CAPDEX_IMPORT_SOURCES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    intervalMs: envNumber("CAPDEX_IMPORT_INTERVAL_MS", 6 * 3600_000, 1000),
    pageSize: Math.min(1000, envNumber("CAPDEX_IMPORT_PAGE_SIZE", 500, 1)),
    pauseMs: envNumber("CAPDEX_IMPORT_PAUSE_MS", 250),
    maxPages: envNumber("CAPDEX_IMPORT_MAX_PAGES", 200, 1),
    maxPageBytes: envNumber("CAPDEX_IMPORT_MAX_PAGE_BYTES", 4 * 1024 * 1024, 1024),
    maxRunBytes: envNumber("CAPDEX_IMPORT_MAX_RUN_BYTES", 256 * 1024 * 1024, 1024),
    timeoutMs: envNumber("CAPDEX_IMPORT_TIMEOUT_MS", 20_000, 100),
    maxFailures: envNumber("CAPDEX_IMPORT_MAX_FAILURES", 3, 1),
    allowPrivateItems: process.env.ALLOW_PRIVATE_TARGETS === "1",
  };
}
