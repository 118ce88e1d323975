CREATE TABLE "paid_check_budgets" (
	"network" text NOT NULL,
	"day" text NOT NULL,
	"budget_micros" bigint NOT NULL,
	"spent_micros" bigint DEFAULT 0 NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paid_check_budgets_network_day_pk" PRIMARY KEY("network","day")
);
--> statement-breakpoint
CREATE TABLE "paid_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"network" text NOT NULL,
	"reserved_micros" bigint DEFAULT 0 NOT NULL,
	"asset" text,
	"amount" text,
	"payer" text,
	"tx" text,
	"verdict" text,
	"status_code" integer,
	"latency_ms" integer,
	"detail" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "delivery" jsonb;--> statement-breakpoint
ALTER TABLE "paid_checks" ADD CONSTRAINT "paid_checks_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paid_checks_endpoint_idx" ON "paid_checks" USING btree ("endpoint_id","checked_at");--> statement-breakpoint
CREATE INDEX "paid_checks_checked_idx" ON "paid_checks" USING btree ("checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "paid_checks_in_flight_uq" ON "paid_checks" USING btree ("endpoint_id") WHERE verdict is null;--> statement-breakpoint
-- endpoints.changed_at (drizzle/0005, 0006, 0009) also moves when the paid test calls' summary changes:
-- discovery shows it (observed.delivery) and ranks by its last verdict (lib/discovery/scoring.ts).
CREATE OR REPLACE FUNCTION "endpoints_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.capability_id, NEW.provider_id, NEW.url, NEW.method, NEW.payment_type, NEW.price_per_call, NEW.network,
      NEW.networks, NEW.accepted_assets, NEW.check_state, NEW.domain_verified, NEW.consecutive_failures, NEW.last_check_ok,
      NEW.last_verified_at, NEW.status, NEW.source, NEW.call, NEW.declaration, NEW.payment_seen, NEW.description, NEW.delivery)
     IS DISTINCT FROM
     (OLD.capability_id, OLD.provider_id, OLD.url, OLD.method, OLD.payment_type, OLD.price_per_call, OLD.network,
      OLD.networks, OLD.accepted_assets, OLD.check_state, OLD.domain_verified, OLD.consecutive_failures, OLD.last_check_ok,
      OLD.last_verified_at, OLD.status, OLD.source, OLD.call, OLD.declaration, OLD.payment_seen, OLD.description, OLD.delivery) THEN
    NEW.changed_at := clock_timestamp();
  END IF;
  RETURN NEW;
END $$;
