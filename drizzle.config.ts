import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this: migrations are applied by lib/db/migrate.ts at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./drizzle",
});
