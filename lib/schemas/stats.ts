// GET /stats.
import { z } from "zod";
import { timestampSchema } from "./common";

export const statsResponseSchema = z
  .object({
    generated_at: timestampSchema,
    capabilities: z.object({ total: z.number().int(), with_endpoints: z.number().int() }),
    endpoints: z.object({ total: z.number().int(), verified: z.number().int(), failing: z.number().int() }),
    providers: z.object({ total: z.number().int() }),
    submissions: z.object({ pending: z.number().int(), verified_7d: z.number().int() }),
    discover: z.object({ requests_24h: z.number().int(), requests_7d: z.number().int(), intent_share_7d: z.number() }),
    outcomes: z.object({
      reports_24h: z.number().int(),
      reports_7d: z.number().int(),
      success_rate_7d: z.number().nullable(),
      p95_latency_ms_7d: z.number().nullable(),
      paid_reports_7d: z.number().int().describe("Outcome reports of 7 days that said the call was paid (paid_amount > 0), as reported"),
      paid_usd_7d: z.number().describe("What those reports said was paid, in USD"),
      payers_7d: z.number().int().describe("Distinct reporters among them"),
    }),
    top_capabilities: z.array(z.object({ capability_id: z.string(), discover_requests_7d: z.number().int() })),
    categories: z.array(z.object({ id: z.string(), capabilities: z.number().int(), endpoints: z.number().int() })),
    // The latest run of each catalogue imported (CAPDEX_IMPORT_SOURCES; empty without), newest first.
    imports: z.array(
      z.object({
        source: z.string(),
        status: z.string(),
        finished_at: timestampSchema.nullable(),
        seen: z.number().int(),
        new: z.number().int(),
        updated: z.number().int(),
        unmapped: z.number().int(),
        delisted: z.number().int(),
        skipped: z.record(z.string(), z.number().int()),
        ms: z.number().int(),
      }),
    ),
    hourly: z.array(
      z.object({
        hour: timestampSchema,
        discover_requests: z.number().int(),
        outcome_reports: z.number().int(),
        success_rate: z.number().nullable(),
      }),
    ),
  })
  .meta({ id: "Stats" });
export type Stats = z.output<typeof statsResponseSchema>;
