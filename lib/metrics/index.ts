// The Prometheus metrics of a Capdex process (GET /api/metrics on a server, METRICS_PORT on the
// worker). Next bundles each route on its own, so the registry and its metrics live on globalThis and
// every bundle counts into the same ones; prom-client itself is loaded once (serverExternalPackages).
// Label values come from code (operation names, policies, job names), never from callers.
import client from "prom-client";
import { logSinkStats } from "@/lib/log";
import { readRouterStats } from "@/lib/db/replicas";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];

function createMetrics() {
  const registry = new client.Registry();
  // Process CPU, resident memory, heap, GC, open handles and the event-loop delay histogram.
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];
  return {
    registry,
    requests: new client.Counter({
      name: "capdex_http_requests_total",
      help: "API requests answered, by operation and status",
      labelNames: ["operation", "status"] as const,
      registers,
    }),
    duration: new client.Histogram({
      name: "capdex_http_request_duration_seconds",
      help: "Time from the route wrapper's start to the answer, by operation and status",
      labelNames: ["operation", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    rateLimit: new client.Counter({
      name: "capdex_rate_limit_decisions_total",
      help: "Rate-limit checks: allowed, limited (429), or the counter store failing (reads allowed, writes refused with 503)",
      labelNames: ["policy", "decision", "store"] as const,
      registers,
    }),
    resolutions: new client.Counter({
      name: "capdex_discover_resolutions_total",
      help: "How discover requests found their capability: capability_id, intent, or unresolved",
      labelNames: ["kind"] as const,
      registers,
    }),
    refusals: new client.Counter({
      name: "capdex_discover_refusals_total",
      help: "Discover intents refused (422 intent_refused) because they ask for harm, by category",
      labelNames: ["category"] as const,
      registers,
    }),
    intentRuntimeTraining: new client.Histogram({
      name: "capdex_intent_runtime_training_seconds",
      help: "Time to learn the run-time intent classes of capabilities the shipped model was not trained on, once per registry change (sliced between requests; the lexical index answers for them meanwhile)",
      buckets: [0.1, 0.5, 1, 2, 5, 10, 20, 60],
      registers,
    }),
    intentEncoder: new client.Histogram({
      name: "capdex_intent_encoder_seconds",
      help: "Needs read a second time with the sentence encoder (English needs the intent model alone is unsure of; answers are remembered per wording), and the time each took",
      buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    paidChecks: new client.Counter({
      name: "capdex_paid_checks_total",
      help: "Paid test calls this process made, by network (CAIP-2) and verdict (docs/paid-checks.md)",
      labelNames: ["network", "verdict"] as const,
      registers,
    }),
    paymentRechecks: new client.Counter({
      name: "capdex_payment_rechecks_total",
      help: "Held payment evidence (rpc_unavailable) judged again by payments.recheck, by network (CAIP-2) and new status",
      labelNames: ["network", "status"] as const,
      registers,
    }),
    paidCheckSpent: new client.Counter({
      name: "capdex_paid_check_spent_usd_total",
      help: "US dollars this process's paid test calls reserved and signed for, by network",
      labelNames: ["network"] as const,
      registers,
    }),
    jobRuns: new client.Counter({
      name: "capdex_job_runs_total",
      help: "Background job runs this process claimed and ran",
      labelNames: ["job"] as const,
      registers,
    }),
    jobFailures: new client.Counter({
      name: "capdex_job_failures_total",
      help: "Background job runs that threw",
      labelNames: ["job"] as const,
      registers,
    }),
    jobDuration: new client.Histogram({
      name: "capdex_job_duration_seconds",
      help: "Duration of background job runs",
      labelNames: ["job"] as const,
      buckets: JOB_BUCKETS,
      registers,
    }),
    jobLag: new client.Gauge({
      name: "capdex_job_lag_seconds",
      help: "How long after it fell due the job's last run started (database clock; any instance's previous run)",
      labelNames: ["job"] as const,
      registers,
    }),
    jobLastSuccess: new client.Gauge({
      name: "capdex_job_last_success_timestamp_seconds",
      help: "When a run of the job last ended without error in this process (Unix time)",
      labelNames: ["job"] as const,
      registers,
    }),
    dbPoolMax: new client.Gauge({ name: "capdex_db_pool_max", help: "Connections the postgres.js pool may open", registers }),
    dbConnections: new client.Gauge({
      name: "capdex_db_connections",
      help: "This process's open database connections by state (pg_stat_activity, read at scrape time)",
      labelNames: ["state"] as const,
      registers,
    }),
    dbUp: new client.Gauge({ name: "capdex_db_up", help: "1 when the database answered the scrape's query, else 0", registers }),
    // The read replicas of DATABASE_READ_URL (lib/db/replicas.ts), read from the router at scrape time;
    // no samples without it.
    replicaUp: new client.Gauge({
      name: "capdex_db_replica_up",
      help: "1 when the read replica is in rotation (reachable, in recovery, lag within CAPDEX_READ_MAX_LAG_MS), else 0",
      labelNames: ["replica"] as const,
      registers,
      collect() {
        this.reset();
        for (const r of readRouterStats()?.replicas ?? []) this.set({ replica: r.name }, r.healthy ? 1 : 0);
      },
    }),
    replicaLag: new client.Gauge({
      name: "capdex_db_replica_lag_seconds",
      help: "Replay lag of the read replica at its last check (time since the primary was at the WAL position it has replayed); no sample when it could not be measured",
      labelNames: ["replica"] as const,
      registers,
      collect() {
        this.reset();
        for (const r of readRouterStats()?.replicas ?? []) if (r.lagMs !== null) this.set({ replica: r.name }, r.lagMs / 1000);
      },
    }),
    dbReads: new client.Counter({
      name: "capdex_db_reads_total",
      help: "Queries through the read handle, by the server that answered them (primary or a replica)",
      labelNames: ["target"] as const,
      registers,
      collect() {
        const stats = readRouterStats();
        this.reset();
        for (const [target, n] of Object.entries(stats?.reads ?? {})) this.inc({ target }, n);
      },
    }),
    dbReadFallbacks: new client.Counter({
      name: "capdex_db_read_fallbacks_total",
      help: "Reads through the read handle answered by the primary instead: no_replica (none in rotation) or replica_failed (run again after failing on one)",
      labelNames: ["reason"] as const,
      registers,
      collect() {
        const stats = readRouterStats();
        this.reset();
        if (!stats) return;
        for (const [reason, n] of Object.entries(stats.fallbacks)) this.inc({ reason }, n);
      },
    }),
    pagesUnavailable: new client.Counter({
      name: "capdex_pages_unavailable_total",
      help: "Portal pages sent to /unavailable (503) instead of rendering: reason deadline (data not read in time) or database (unreachable, or out of disk)",
      labelNames: ["page", "reason"] as const,
      registers,
    }),
    logDropped: new client.Counter({
      name: "capdex_log_lines_dropped_total",
      help: "Log lines not written: queue_full (the log's reader is too slow or stalled) or closed (its reader is gone, EPIPE)",
      labelNames: ["reason"] as const,
      registers,
      collect() {
        const stats = logSinkStats();
        this.reset();
        this.inc({ reason: "queue_full" }, stats?.droppedFull ?? 0);
        this.inc({ reason: "closed" }, stats?.droppedClosed ?? 0);
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
const shared = globalThis as unknown as { __capdexMetrics?: Metrics };

/** The process's metrics, created on first use. */
export function metrics(): Metrics {
  return (shared.__capdexMetrics ??= createMetrics());
}

/** Counts one answer of an API operation; label sets are made once per status, not per request. */
export function requestRecorder(operation: string): (status: number, seconds: number) => void {
  const labelsByStatus = new Map<number, { operation: string; status: string }>();
  return (status, seconds) => {
    let labels = labelsByStatus.get(status);
    if (!labels) labelsByStatus.set(status, (labels = { operation, status: String(status) }));
    const m = metrics();
    m.requests.inc(labels);
    m.duration.observe(labels, seconds);
  };
}
