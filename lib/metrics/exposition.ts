// Who may read the metrics, and the text they get. With METRICS_TOKEN set: only a request bearing it
// (401 otherwise). Unset: only a direct connection from this machine's loopback (403 otherwise); a
// request relayed by a proxy on loopback carries X-Forwarded-For with its client's address and is
// not direct, so a balancer on the same host does not open the metrics to everyone.
import { createHash, timingSafeEqual } from "node:crypto";
import ipaddr from "ipaddr.js";
import { sql } from "drizzle-orm";
import { queryRows, type DbHandle } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { metrics } from "./index";

export type MetricsRequest = {
  authorization: string | null;
  /** The TCP peer's address. */
  peer: string | undefined;
  /** X-Forwarded-For as received (`next start` adds the peer itself when a request has none). */
  forwardedFor: string | null;
};

const digest = (s: string) => createHash("sha256").update(s).digest();

function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/** Null when the request may read the metrics, else the problem to answer with. */
export function metricsAccessProblem(req: MetricsRequest, token = process.env.METRICS_TOKEN): ApiError | null {
  if (token) {
    const given = /^\s*Bearer +(\S+)\s*$/i.exec(req.authorization ?? "")?.[1];
    if (given && timingSafeEqual(digest(given), digest(token))) return null;
    return new ApiError("unauthorized", "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.", {
      headers: { "WWW-Authenticate": 'Bearer realm="capdex-metrics"' },
    });
  }
  const relayed = (req.forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .some((hop) => hop && hop !== req.peer);
  if (isLoopback(req.peer) && !relayed) return null;
  return new ApiError("forbidden", "Metrics are served to loopback only while METRICS_TOKEN is not set.");
}

/** Long enough for a busy database to answer one small query, well inside Prometheus's 10 s scrape timeout. */
const SCRAPE_QUERY_TIMEOUT_MS = 3_000;

/** Reads this process's pool from pg_stat_activity (its connections share one application_name). */
async function collectPool(handle: DbHandle | null): Promise<void> {
  const m = metrics();
  if (!handle || handle.driver !== "postgres") return;
  m.dbPoolMax.set(handle.poolMax ?? 0);
  try {
    const rows = await Promise.race([
      queryRows<{ state: string; n: number }>(
        handle.db,
        sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
            where application_name = current_setting('application_name') group by 1`,
      ),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), SCRAPE_QUERY_TIMEOUT_MS).unref()),
    ]);
    m.dbConnections.reset();
    for (const r of rows) m.dbConnections.set({ state: r.state }, Number(r.n));
    m.dbUp.set(1);
  } catch {
    m.dbConnections.reset();
    m.dbUp.set(0);
  }
}

/** The Prometheus text exposition of this process's metrics. */
export async function renderMetrics(handle: DbHandle | null): Promise<{ contentType: string; body: string }> {
  await collectPool(handle);
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
