CREATE TABLE "stats_snapshots" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
