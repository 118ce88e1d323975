// GET /api/ready: the database answers and every committed migration is applied.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { MIGRATIONS_FOLDER, queryRows, type Db } from "./client";
import { ApiError } from "@/lib/http/errors";

export async function checkReadiness(db: Db) {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const applied = Number(row.n);
  const warnings: string[] = [];
  if (process.env.CAPDEX_RATE_LIMIT === "off") warnings.push("CAPDEX_RATE_LIMIT=off: rate limiting is disabled (benchmarks only)");
  if (process.env.ALLOW_PRIVATE_TARGETS === "1") warnings.push("ALLOW_PRIVATE_TARGETS=1: private and loopback targets are allowed (tests and local development only)");
  if (applied < journal.entries.length) {
    throw new ApiError("unavailable", `${journal.entries.length - applied} migration(s) not applied yet.`, { headers: { "Retry-After": "5" } });
  }
  return { status: "ready", migrations: applied, warnings };
}
