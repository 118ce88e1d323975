CREATE TABLE "domain_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"status" text DEFAULT 'pending_verification' NOT NULL,
	"token" text NOT NULL,
	"contact_email" text NOT NULL,
	"provider_name" text,
	"user_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"last_check" jsonb,
	"claimed_endpoints" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_host" text NOT NULL,
	"url" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"capability_id" text,
	"mapped_by" text,
	"confidence" double precision,
	"candidates" jsonb,
	"facts" jsonb,
	"endpoint_id" uuid,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_run_id" uuid,
	"missed_runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_url" text NOT NULL,
	"source_host" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_sources" (
	"url" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"next_run_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"last_run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "domain" text;--> statement-breakpoint
ALTER TABLE "domain_claims" ADD CONSTRAINT "domain_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_claims_domain_idx" ON "domain_claims" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "import_items_source_url_uq" ON "import_items" USING btree ("source_host","url");--> statement-breakpoint
CREATE INDEX "import_items_url_idx" ON "import_items" USING btree ("url");--> statement-breakpoint
CREATE INDEX "import_items_state_idx" ON "import_items" USING btree ("state");--> statement-breakpoint
CREATE INDEX "import_runs_source_started_idx" ON "import_runs" USING btree ("source_url","started_at");--> statement-breakpoint
CREATE INDEX "providers_domain_idx" ON "providers" USING btree ("domain");