ALTER TABLE "outcome_reports" ADD COLUMN "failure" text;--> statement-breakpoint
ALTER TABLE "outcome_reports" ADD COLUMN "paid_amount" double precision;