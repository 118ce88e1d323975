ALTER TABLE "endpoints" ADD COLUMN "networks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "networks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Every listing accepts at least its one network.
UPDATE "endpoints" SET "networks" = ARRAY["network"] WHERE cardinality("networks") = 0;--> statement-breakpoint
UPDATE "submissions" SET "networks" = ARRAY["network"] WHERE cardinality("networks") = 0;--> statement-breakpoint
-- endpoints.changed_at (drizzle/0005, 0006) also moves when the networks it accepts change: discovery
-- filters by them (lib/discovery/candidates.ts).
CREATE OR REPLACE FUNCTION "endpoints_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.capability_id, NEW.provider_id, NEW.url, NEW.method, NEW.payment_type, NEW.price_per_call, NEW.network,
      NEW.networks, NEW.accepted_assets, NEW.check_state, NEW.domain_verified, NEW.consecutive_failures, NEW.last_check_ok,
      NEW.last_verified_at, NEW.status, NEW.source, NEW.call, NEW.declaration, NEW.payment_seen, NEW.description)
     IS DISTINCT FROM
     (OLD.capability_id, OLD.provider_id, OLD.url, OLD.method, OLD.payment_type, OLD.price_per_call, OLD.network,
      OLD.networks, OLD.accepted_assets, OLD.check_state, OLD.domain_verified, OLD.consecutive_failures, OLD.last_check_ok,
      OLD.last_verified_at, OLD.status, OLD.source, OLD.call, OLD.declaration, OLD.payment_seen, OLD.description) THEN
    NEW.changed_at := clock_timestamp();
  END IF;
  RETURN NEW;
END $$;
