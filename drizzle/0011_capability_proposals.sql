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
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_capability_id_capabilities_id_fk";
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "proposal_id" uuid;--> statement-breakpoint
ALTER TABLE "capability_proposals" ADD CONSTRAINT "capability_proposals_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capability_proposals_open_uq" ON "capability_proposals" USING btree ("capability_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "capability_proposals_status_idx" ON "capability_proposals" USING btree ("status");