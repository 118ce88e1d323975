ALTER TABLE "users" ADD COLUMN "report_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_report_day" date;--> statement-breakpoint
-- Accounts that reported before these columns existed keep their history: the UTC days of their counted reports.
UPDATE "users" u SET "report_days" = h.days, "last_report_day" = h.last
FROM (SELECT user_id, count(DISTINCT (created_at AT TIME ZONE 'UTC')::date)::int AS days, max((created_at AT TIME ZONE 'UTC')::date) AS last
      FROM outcome_reports WHERE user_id IS NOT NULL AND rolled_up GROUP BY user_id) h
WHERE u.id = h.user_id;
