ALTER TABLE "endpoints" ADD COLUMN "source" text DEFAULT 'submission' NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "call" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "declaration" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "declaration_issue" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "payment_seen" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "payment_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "call" jsonb;--> statement-breakpoint
-- endpoints.changed_at (drizzle/0005) also moves when how to call an endpoint, where it came from or
-- what its 402 offers changes: discovery shows and filters by these (lib/discovery/candidates.ts).
CREATE OR REPLACE FUNCTION "endpoints_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.capability_id, NEW.provider_id, NEW.url, NEW.method, NEW.payment_type, NEW.price_per_call, NEW.network,
      NEW.accepted_assets, NEW.check_state, NEW.domain_verified, NEW.consecutive_failures, NEW.last_check_ok,
      NEW.last_verified_at, NEW.status, NEW.source, NEW.call, NEW.declaration, NEW.payment_seen, NEW.description)
     IS DISTINCT FROM
     (OLD.capability_id, OLD.provider_id, OLD.url, OLD.method, OLD.payment_type, OLD.price_per_call, OLD.network,
      OLD.accepted_assets, OLD.check_state, OLD.domain_verified, OLD.consecutive_failures, OLD.last_check_ok,
      OLD.last_verified_at, OLD.status, OLD.source, OLD.call, OLD.declaration, OLD.payment_seen, OLD.description) THEN
    NEW.changed_at := clock_timestamp();
  END IF;
  RETURN NEW;
END $$;
