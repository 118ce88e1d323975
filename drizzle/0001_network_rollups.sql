CREATE TABLE "network_rollups" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"w_success" double precision DEFAULT 0 NOT NULL,
	"w_total" double precision DEFAULT 0 NOT NULL,
	"latency_hist" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
-- Backfill from the per-endpoint rollups already counted (histograms merged bucket by bucket).
INSERT INTO "network_rollups" ("hour", "reports", "successes", "w_success", "w_total", "latency_hist")
SELECT t.hour, t.reports, t.successes, t.w_success, t.w_total, coalesce(h.hist, '{}'::jsonb)
FROM (SELECT hour, sum(reports)::int AS reports, sum(successes)::int AS successes, sum(w_success) AS w_success, sum(w_total) AS w_total
      FROM "outcome_rollups" GROUP BY hour) t
LEFT JOIN (SELECT hour, jsonb_object_agg(k, v) AS hist
           FROM (SELECT r.hour, kv.key AS k, sum(kv.value::float8) AS v
                 FROM "outcome_rollups" r, jsonb_each_text(r.latency_hist) kv GROUP BY 1, 2) b
           GROUP BY hour) h ON h.hour = t.hour;
