CREATE TABLE "endpoint_figures" (
	"endpoint_id" uuid PRIMARY KEY NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	"w_success" double precision DEFAULT 0 NOT NULL,
	"w_total" double precision DEFAULT 0 NOT NULL,
	"success_rate" double precision,
	"p95_latency_ms" integer,
	"daily" jsonb DEFAULT '[null,null,null,null,null,null,null]'::jsonb NOT NULL,
	"dirty" boolean DEFAULT true NOT NULL,
	"computed_at" timestamp with time zone DEFAULT '-infinity'::timestamptz NOT NULL,
	"changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoint_figures" ADD CONSTRAINT "endpoint_figures_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "endpoint_figures_changed_idx" ON "endpoint_figures" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "endpoint_figures_dirty_idx" ON "endpoint_figures" USING btree ("computed_at") WHERE dirty;--> statement-breakpoint
CREATE INDEX "endpoint_figures_sweep_idx" ON "endpoint_figures" USING btree ("computed_at") WHERE reports > 0;--> statement-breakpoint
CREATE INDEX "endpoints_changed_idx" ON "endpoints" USING btree ("changed_at");--> statement-breakpoint
-- endpoints.changed_at moves whenever a column that discovery ranks or shows changes, whoever writes
-- the row (keep in step with the selection in lib/discovery/candidates.ts). Probes that only move
-- last_check_at/next_check_at leave it alone, so they cost discovery's caches nothing.
CREATE FUNCTION "endpoints_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.capability_id, NEW.provider_id, NEW.url, NEW.method, NEW.payment_type, NEW.price_per_call, NEW.network,
      NEW.accepted_assets, NEW.check_state, NEW.domain_verified, NEW.consecutive_failures, NEW.last_check_ok,
      NEW.last_verified_at, NEW.status)
     IS DISTINCT FROM
     (OLD.capability_id, OLD.provider_id, OLD.url, OLD.method, OLD.payment_type, OLD.price_per_call, OLD.network,
      OLD.accepted_assets, OLD.check_state, OLD.domain_verified, OLD.consecutive_failures, OLD.last_check_ok,
      OLD.last_verified_at, OLD.status) THEN
    NEW.changed_at := clock_timestamp();
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "endpoints_changed_at" BEFORE UPDATE ON "endpoints" FOR EACH ROW EXECUTE FUNCTION "endpoints_mark_changed"();
--> statement-breakpoint
-- A provider's name is shown with each of its endpoints.
CREATE FUNCTION "providers_mark_endpoints_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name THEN
    UPDATE "endpoints" SET "changed_at" = clock_timestamp() WHERE "provider_id" = NEW.id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "providers_name_changed" AFTER UPDATE ON "providers" FOR EACH ROW EXECUTE FUNCTION "providers_mark_endpoints_changed"();
--> statement-breakpoint
-- Every endpoint with counted reports gets its figures computed by the next rollup job.
INSERT INTO "endpoint_figures" ("endpoint_id") SELECT DISTINCT "endpoint_id" FROM "outcome_rollups" ON CONFLICT DO NOTHING;
