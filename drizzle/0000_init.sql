CREATE TABLE "accounts" (
	"userId" text NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"providerAccountId" text NOT NULL,
	"refresh_token" text,
	"access_token" text,
	"expires_at" integer,
	"token_type" text,
	"scope" text,
	"id_token" text,
	"session_state" text,
	CONSTRAINT "accounts_provider_providerAccountId_pk" PRIMARY KEY("provider","providerAccountId")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text DEFAULT 'default' NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "capabilities" (
	"id" text PRIMARY KEY NOT NULL,
	"category_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"examples" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text DEFAULT 'catalogue' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discover_counters" (
	"capability_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"intent_requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "discover_counters_capability_id_hour_pk" PRIMARY KEY("capability_id","hour")
);
--> statement-breakpoint
CREATE TABLE "discoveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"capability_id" text NOT NULL,
	"principal_key" text NOT NULL,
	"endpoint_ids" uuid[] NOT NULL,
	"via_intent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endpoint_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"reason" text NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"capability_id" text NOT NULL,
	"provider_id" uuid NOT NULL,
	"submission_id" uuid,
	"url" text NOT NULL,
	"method" text DEFAULT 'GET' NOT NULL,
	"host" text NOT NULL,
	"domain" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"payment_type" text DEFAULT 'x402' NOT NULL,
	"price_per_call" double precision NOT NULL,
	"network" text DEFAULT 'base' NOT NULL,
	"accepted_assets" text[] DEFAULT '{"USDC"}'::text[] NOT NULL,
	"status" text DEFAULT 'listed' NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"domain_verified" boolean DEFAULT true NOT NULL,
	"domain_checked_at" timestamp with time zone,
	"domain_next_check_at" timestamp with time zone,
	"domain_reason" text,
	"check_state" text DEFAULT 'unverified' NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_check_at" timestamp with time zone,
	"last_check_ok" boolean,
	"last_check_reason" text,
	"last_check_status" integer,
	"last_check_latency_ms" integer,
	"last_verified_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"check_claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_claims" (
	"name" text PRIMARY KEY NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_result" jsonb
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outcome_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"success" boolean NOT NULL,
	"latency_ms" integer,
	"status_code" smallint,
	"discovery_id" uuid,
	"reporter_kind" text NOT NULL,
	"reporter_key" text NOT NULL,
	"user_id" text,
	"weight" double precision NOT NULL,
	"rolled_up" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outcome_rollups" (
	"endpoint_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"w_success" double precision DEFAULT 0 NOT NULL,
	"w_total" double precision DEFAULT 0 NOT NULL,
	"latency_hist" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "outcome_rollups_endpoint_id_hour_shard_pk" PRIMARY KEY("endpoint_id","hour","shard")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"contact_email" text,
	"user_id" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reporter_weights" (
	"endpoint_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"reporter_key" text NOT NULL,
	"weight" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "reporter_weights_endpoint_id_hour_reporter_key_pk" PRIMARY KEY("endpoint_id","hour","reporter_key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sessionToken" text PRIMARY KEY NOT NULL,
	"userId" text NOT NULL,
	"expires" timestamp NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'pending_verification' NOT NULL,
	"endpoint_url" text NOT NULL,
	"host" text NOT NULL,
	"domain" text NOT NULL,
	"capability_id" text NOT NULL,
	"contact_email" text NOT NULL,
	"provider_name" text NOT NULL,
	"price_per_call" double precision NOT NULL,
	"method" text DEFAULT 'GET' NOT NULL,
	"network" text DEFAULT 'base' NOT NULL,
	"accepted_assets" text[] DEFAULT '{"USDC"}'::text[] NOT NULL,
	"payment_type" text DEFAULT 'x402' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"token" text NOT NULL,
	"user_id" text,
	"endpoint_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"last_check" jsonb,
	"next_check_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"email" text,
	"emailVerified" timestamp,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verification_tokens" (
	"identifier" text NOT NULL,
	"token" text NOT NULL,
	"expires" timestamp NOT NULL,
	CONSTRAINT "verification_tokens_identifier_token_pk" PRIMARY KEY("identifier","token")
);
--> statement-breakpoint
CREATE TABLE "verified_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"record_name" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"status" text DEFAULT 'verified' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_userId_users_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capabilities" ADD CONSTRAINT "capabilities_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_checks" ADD CONSTRAINT "endpoint_checks_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_capability_id_capabilities_id_fk" FOREIGN KEY ("capability_id") REFERENCES "public"."capabilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outcome_reports" ADD CONSTRAINT "outcome_reports_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outcome_rollups" ADD CONSTRAINT "outcome_rollups_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_userId_users_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_capability_id_capabilities_id_fk" FOREIGN KEY ("capability_id") REFERENCES "public"."capabilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verified_domains" ADD CONSTRAINT "verified_domains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "capabilities_category_idx" ON "capabilities" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "discover_counters_hour_idx" ON "discover_counters" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "discoveries_created_idx" ON "discoveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "endpoint_checks_endpoint_idx" ON "endpoint_checks" USING btree ("endpoint_id","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "endpoints_url_capability_uq" ON "endpoints" USING btree ("url","capability_id");--> statement-breakpoint
CREATE INDEX "endpoints_capability_idx" ON "endpoints" USING btree ("capability_id");--> statement-breakpoint
CREATE INDEX "endpoints_provider_idx" ON "endpoints" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "endpoints_next_check_idx" ON "endpoints" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "outcome_reports_endpoint_created_idx" ON "outcome_reports" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "outcome_reports_pending_idx" ON "outcome_reports" USING btree ("created_at") WHERE not "outcome_reports"."rolled_up";--> statement-breakpoint
CREATE INDEX "outcome_rollups_hour_idx" ON "outcome_rollups" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "providers_user_idx" ON "providers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "submissions_status_next_idx" ON "submissions" USING btree ("status","next_check_at");--> statement-breakpoint
CREATE INDEX "submissions_user_idx" ON "submissions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verified_domains_user_domain_uq" ON "verified_domains" USING btree ("user_id","domain");