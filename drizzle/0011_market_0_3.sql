CREATE TABLE "capability_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"capability_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" text NOT NULL,
	"example_intents" text[] DEFAULT '{}'::text[] NOT NULL,
	"words" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"proposed_by" text,
	"endpoint_url" text,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"decided_capability_id" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_evidence" (
	"report_id" uuid PRIMARY KEY NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"network" text NOT NULL,
	"transaction" text NOT NULL,
	"payer" text,
	"payer_is_provider" boolean DEFAULT false NOT NULL,
	"receipt" jsonb,
	"payment_identifier" text,
	"status" text NOT NULL,
	"reason" text,
	"asset" text,
	"pay_to" text,
	"amount" text,
	"paid_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_capability_id_capabilities_id_fk";
--> statement-breakpoint
ALTER TABLE "endpoint_figures" ADD COLUMN "paid_reports" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoint_figures" ADD COLUMN "distinct_payers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "delisted_by" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "proposal_id" uuid;--> statement-breakpoint
ALTER TABLE "capability_proposals" ADD CONSTRAINT "capability_proposals_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_evidence" ADD CONSTRAINT "payment_evidence_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capability_proposals_open_uq" ON "capability_proposals" USING btree ("capability_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "capability_proposals_status_idx" ON "capability_proposals" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_evidence_tx_uq" ON "payment_evidence" USING btree ("network","transaction");--> statement-breakpoint
CREATE INDEX "payment_evidence_endpoint_idx" ON "payment_evidence" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "endpoints_listed_capability_idx" ON "endpoints" USING btree ("capability_id","check_state") WHERE status = 'listed';--> statement-breakpoint
CREATE INDEX "endpoints_listed_provider_idx" ON "endpoints" USING btree ("provider_id") WHERE status = 'listed';--> statement-breakpoint
CREATE INDEX "outcome_reports_paid_idx" ON "outcome_reports" USING btree ("created_at") WHERE "outcome_reports"."paid_amount" > 0;