ALTER TABLE "endpoint_figures" ADD COLUMN "distinct_reporters" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Stored figures computed before this column existed are recomputed by the next rollup job.
UPDATE "endpoint_figures" SET "dirty" = true WHERE "reports" > 0;
