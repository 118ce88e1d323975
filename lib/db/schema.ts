// The whole Capdex schema: registry, listings, submissions, outcomes, accounts, limits and jobs.
// Later features add behaviour on these tables; changing them means a new drizzle migration.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** endpoints.call: an EndpointCall of lib/schemas/call.ts (typed loosely here: the schema stays below the domains). */
export type EndpointCallValue = Record<string, unknown> & { source: "declared" | "submitted"; method: string; updated_at: string };
/** endpoints.delivery: a summary of the paid test calls of the endpoint (lib/paid-checks). */
export type DeliveryValue = { checks: number; delivered: number; last_check_at: string; last_verdict: string };
/** endpoints.payment_seen: what a 402 (or a catalogue item) offered, in x402 v2 terms. */
export type PaymentSeenValue = {
  x402_version: number;
  accepts: Array<{ scheme: string; network: string; amount: string; asset: string; payTo: string; maxTimeoutSeconds: number; extra: Record<string, unknown> | null }>;
  resource: { description?: string; mimeType?: string; serviceName?: string; tags?: string[] };
  via: "probe" | "catalogue" | "seed";
};
const createdAt = () => ts("created_at").notNull().defaultNow();

// ---------------------------------------------------------------- registry

export const categories = pgTable("categories", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  position: integer("position").notNull().default(0),
});

export const capabilities = pgTable(
  "capabilities",
  {
    id: text("id").primaryKey(),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    aliases: text("aliases").array().notNull().default(sql`'{}'::text[]`),
    examples: text("examples").array().notNull().default(sql`'{}'::text[]`),
    // catalogue | operator | submission
    source: text("source").notNull().default("catalogue"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("capabilities_category_idx").on(t.categoryId)],
);

/** Small key/value counters shared by every instance (e.g. `registry_version`). */
export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: bigint("value", { mode: "number" }).notNull().default(0),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

// ---------------------------------------------------------------- accounts (Auth.js)

export const users = pgTable("users", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("emailVerified", { mode: "date" }),
  image: text("image"),
  createdAt: createdAt(),
  // The account's history as a reporter (lib/outcomes/rollup.ts): UTC days on which its outcome
  // reports were counted, and the last of them. Until it has WEIGHTS.historyDays, its unpaid reports weigh nothing.
  reportDays: integer("report_days").notNull().default(0),
  lastReportDay: date("last_report_day", { mode: "string" }),
});

export const accounts = pgTable(
  "accounts",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const sessions = pgTable("sessions", {
  sessionToken: text("sessionToken").primaryKey(),
  userId: text("userId")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: timestamp("expires", { mode: "date" }).notNull(),
});

export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull().default("default"),
    // first characters of the key, shown so people can tell keys apart
    prefix: text("prefix").notNull(),
    // hex SHA-256 of the whole key; the key itself is never stored
    hash: text("hash").notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------- providers and endpoints

export const providers = pgTable(
  "providers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    contactEmail: text("contact_email"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    isDemo: boolean("is_demo").notNull().default(false),
    // The registrable domain of a provider made by a catalogue import (one per domain); null otherwise
    domain: text("domain"),
    createdAt: createdAt(),
  },
  (t) => [index("providers_user_idx").on(t.userId), index("providers_domain_idx").on(t.domain)],
);

export const endpoints = pgTable(
  "endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    capabilityId: text("capability_id")
      .notNull()
      .references(() => capabilities.id),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id),
    submissionId: uuid("submission_id"),
    url: text("url").notNull(),
    method: text("method").notNull().default("GET"),
    // lower-case ASCII host of url; domain = registrable domain (public suffix list)
    host: text("host").notNull(),
    domain: text("domain").notNull(),
    description: text("description").notNull().default(""),
    paymentType: text("payment_type").notNull().default("x402"),
    pricePerCall: doublePrecision("price_per_call").notNull(),
    // friendly network name, e.g. "base" (lib/schemas/networks.ts)
    network: text("network").notNull().default("base"),
    // Every payment network it accepts, `network` first (friendly names); empty on rows that only set `network`
    networks: text("networks").array().notNull().default(sql`'{}'::text[]`),
    acceptedAssets: text("accepted_assets").array().notNull().default(sql`'{"USDC"}'::text[]`),
    // listed | delisted
    status: text("status").notNull().default("listed"),
    // Who delisted it: provider (may relist from the dashboard or the API) | operator; null for other paths
    delistedBy: text("delisted_by"),
    isDemo: boolean("is_demo").notNull().default(false),
    // "submission" (a provider's own, or demo data) or the host of the catalogue it was imported from
    source: text("source").notNull().default("submission"),
    // How to call it (lib/schemas/call.ts): from the provider's bazaar declaration, else as submitted
    call: jsonb("call").$type<EndpointCallValue>(),
    // The last valid bazaar declaration as declared ({ info, schema }), re-served by the x402 discovery API
    declaration: jsonb("declaration").$type<Record<string, unknown>>(),
    // Why the last declaration seen was ignored ({ reason, problem, at }); null once a valid one is read
    declarationIssue: jsonb("declaration_issue").$type<{ reason: string; problem: string; at: string }>(),
    // The payment requirements last seen in a 402 (or a catalogue): { x402_version, accepts, resource, via }
    paymentSeen: jsonb("payment_seen").$type<PaymentSeenValue>(),
    paymentSeenAt: ts("payment_seen_at"),
    // domain ownership (DNS TXT), re-checked daily
    domainVerified: boolean("domain_verified").notNull().default(true),
    domainCheckedAt: ts("domain_checked_at"),
    domainNextCheckAt: ts("domain_next_check_at"),
    domainReason: text("domain_reason"),
    // endpoint checks (probes): verified | failing | unverified
    checkState: text("check_state").notNull().default("unverified"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    lastCheckAt: ts("last_check_at"),
    lastCheckOk: boolean("last_check_ok"),
    lastCheckReason: text("last_check_reason"),
    lastCheckStatus: integer("last_check_status"),
    lastCheckLatencyMs: integer("last_check_latency_ms"),
    lastVerifiedAt: ts("last_verified_at"),
    nextCheckAt: ts("next_check_at"),
    checkClaimedUntil: ts("check_claimed_until"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    // What Capdex's own paid test calls found (lib/paid-checks): the checks of the 7 days before the
    // last one, how many delivered, and the last one's time and verdict; null until the first check
    delivery: jsonb("delivery").$type<DeliveryValue>(),
    // When a column discovery ranks by last changed (price, network, check state, status...), set by
    // the trigger of migration 0005 whatever wrote the row; discovery's caches poll it for changes.
    changedAt: ts("changed_at").notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex("endpoints_url_capability_uq").on(t.url, t.capabilityId),
    index("endpoints_changed_idx").on(t.changedAt),
    index("endpoints_capability_idx").on(t.capabilityId),
    index("endpoints_provider_idx").on(t.providerId),
    index("endpoints_next_check_idx").on(t.nextCheckAt),
    // The probe schedule claims due endpoints in due order; demo and delisted rows never are, and a
    // range on the expression lets an idle claim stop at once (lib/probes/schedule.ts).
    index("endpoints_probe_due_idx")
      .on(sql`coalesce(next_check_at, '-infinity'::timestamptz)`)
      .where(sql`status = 'listed' and not is_demo`),
    // Counting listed endpoints (the stats snapshot per capability and check state, capabilities'
    // endpoint_count, providers with a listing) from the index alone: at 100,000 endpoints the
    // table's rows are wide (declarations, calls, 402s seen) and a scan read 200 MB for 460 ms.
    index("endpoints_listed_capability_idx").on(t.capabilityId, t.checkState).where(sql`status = 'listed'`),
    index("endpoints_listed_provider_idx").on(t.providerId).where(sql`status = 'listed'`),
  ],
);

/** One row per probe of an endpoint (append-only). */
export const endpointChecks = pgTable(
  "endpoint_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    checkedAt: ts("checked_at").notNull().defaultNow(),
    ok: boolean("ok").notNull(),
    reason: text("reason").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    detail: jsonb("detail"),
  },
  (t) => [index("endpoint_checks_endpoint_idx").on(t.endpointId, t.checkedAt)],
);

/**
 * Paid test calls (lib/paid-checks): one row per call Capdex paid for, or tried to. A row with no
 * verdict is a check in flight; at most one per endpoint (the partial unique index is its claim).
 */
export const paidChecks = pgTable(
  "paid_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    // CAIP-2 id of the network paid on (or that would have been)
    network: text("network").notNull(),
    // what was reserved against the day's budget, in millionths of a US dollar (0: nothing reserved)
    reservedMicros: bigint("reserved_micros", { mode: "number" }).notNull().default(0),
    // the asset and atomic amount the payment authorised; null when no payment was signed
    asset: text("asset"),
    amount: text("amount"),
    payer: text("payer"),
    tx: text("tx"),
    // delivered | wrong_output | paid_not_delivered | unpaid_error; null while in flight
    verdict: text("verdict"),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    startedAt: ts("started_at").notNull().defaultNow(),
    checkedAt: ts("checked_at"),
  },
  (t) => [
    index("paid_checks_endpoint_idx").on(t.endpointId, t.checkedAt),
    index("paid_checks_checked_idx").on(t.checkedAt),
    uniqueIndex("paid_checks_in_flight_uq").on(t.endpointId).where(sql`verdict is null`),
  ],
);

/**
 * The paid test calls' spending per network and UTC day, in millionths of a US dollar. `spent`
 * counts reservations: raised before a payment by one conditional UPDATE (never past the budget),
 * lowered again only when no payment was signed.
 */
export const paidCheckBudgets = pgTable(
  "paid_check_budgets",
  {
    network: text("network").notNull(),
    day: text("day").notNull(),
    budgetMicros: bigint("budget_micros", { mode: "number" }).notNull(),
    spentMicros: bigint("spent_micros", { mode: "number" }).notNull().default(0),
    payments: integer("payments").notNull().default(0),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.network, t.day] })],
);

// ---------------------------------------------------------------- submissions and domains

export const submissions = pgTable(
  "submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // pending_verification | verified | expired | rejected
    status: text("status").notNull().default("pending_verification"),
    endpointUrl: text("endpoint_url").notNull(),
    host: text("host").notNull(),
    domain: text("domain").notNull(),
    // No foreign key: a submission with `proposed_capability` names the proposed id until an
    // operator accepts (or merges) its proposal (lib/proposals, docs/proposals.md).
    capabilityId: text("capability_id").notNull(),
    contactEmail: text("contact_email").notNull(),
    providerName: text("provider_name").notNull(),
    pricePerCall: doublePrecision("price_per_call").notNull(),
    method: text("method").notNull().default("GET"),
    network: text("network").notNull().default("base"),
    // Every network it accepts, `network` first (POST /submit `networks`)
    networks: text("networks").array().notNull().default(sql`'{}'::text[]`),
    acceptedAssets: text("accepted_assets").array().notNull().default(sql`'{"USDC"}'::text[]`),
    paymentType: text("payment_type").notNull().default("x402"),
    description: text("description").notNull().default(""),
    // The optional input/output description of POST /submit `call` (lib/schemas/call.ts)
    call: jsonb("call").$type<Record<string, unknown>>(),
    // The capability proposal it waits for (status pending_capability once its domain is proven)
    proposalId: uuid("proposal_id"),
    token: text("token").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    endpointId: uuid("endpoint_id"),
    expiresAt: ts("expires_at").notNull(),
    checkedAt: ts("checked_at"),
    // { found_records: string[], reason: string }
    lastCheck: jsonb("last_check"),
    nextCheckAt: ts("next_check_at"),
    claimedUntil: ts("claimed_until"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("submissions_status_next_idx").on(t.status, t.nextCheckAt),
    index("submissions_user_idx").on(t.userId),
  ],
);

/** Domains a signed-in user has proven; later submissions on them are verified at once. */
export const verifiedDomains = pgTable(
  "verified_domains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    recordName: text("record_name").notNull(),
    token: text("token").notNull(),
    verifiedAt: ts("verified_at").notNull().defaultNow(),
    lastCheckedAt: ts("last_checked_at"),
    nextCheckAt: ts("next_check_at"),
    // verified | lost
    status: text("status").notNull().default("verified"),
  },
  (t) => [uniqueIndex("verified_domains_user_domain_uq").on(t.userId, t.domain)],
);

// ---------------------------------------------------------------- catalogue imports (lib/imports)

/** A facilitator's discovery catalogue (CAPDEX_IMPORT_SOURCES), claimed by one instance at a time. */
export const importSources = pgTable("import_sources", {
  url: text("url").primaryKey(),
  host: text("host").notNull(),
  nextRunAt: ts("next_run_at"),
  claimedUntil: ts("claimed_until"),
  lastRunId: uuid("last_run_id"),
  createdAt: createdAt(),
});

/** One import of one source: running | completed | partial (a cap stopped it) | failed; its summary. */
export const importRuns = pgTable(
  "import_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sourceUrl: text("source_url").notNull(),
    sourceHost: text("source_host").notNull(),
    startedAt: ts("started_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    status: text("status").notNull().default("running"),
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("import_runs_source_started_idx").on(t.sourceUrl, t.startedAt)],
);

/**
 * Every resource a source lists, by source host and URL: mapped (listed as an endpoint), unmapped
 * (waiting for a capability), ignored (by an operator) or held (the URL belongs to a submission,
 * a claim or another source). missed_runs counts completed runs in a row that did not list it.
 */
export const importItems = pgTable(
  "import_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sourceHost: text("source_host").notNull(),
    url: text("url").notNull(),
    state: text("state").notNull(),
    reason: text("reason"),
    capabilityId: text("capability_id"),
    // resolver | operator
    mappedBy: text("mapped_by"),
    confidence: doublePrecision("confidence"),
    candidates: jsonb("candidates").$type<Array<{ capability_id: string; confidence: number }>>(),
    facts: jsonb("facts").$type<Record<string, unknown>>(),
    endpointId: uuid("endpoint_id"),
    firstSeenAt: ts("first_seen_at").notNull().defaultNow(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    lastRunId: uuid("last_run_id"),
    missedRuns: integer("missed_runs").notNull().default(0),
  },
  (t) => [
    uniqueIndex("import_items_source_url_uq").on(t.sourceHost, t.url),
    index("import_items_url_idx").on(t.url),
    index("import_items_state_idx").on(t.state),
  ],
);

/** A provider proving a registrable domain (DNS TXT) to claim every imported listing under it. */
export const domainClaims = pgTable(
  "domain_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    domain: text("domain").notNull(),
    // pending_verification | verified | expired
    status: text("status").notNull().default("pending_verification"),
    token: text("token").notNull(),
    contactEmail: text("contact_email").notNull(),
    providerName: text("provider_name"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    checkedAt: ts("checked_at"),
    lastCheck: jsonb("last_check"),
    claimedEndpoints: integer("claimed_endpoints").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("domain_claims_domain_idx").on(t.domain)],
);

// ---------------------------------------------------------------- outcomes

/** Every outcome report as received (append-only); weight is what it counted for. */
export const outcomeReports = pgTable(
  "outcome_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    success: boolean("success").notNull(),
    latencyMs: integer("latency_ms"),
    statusCode: smallint("status_code"),
    discoveryId: uuid("discovery_id"),
    // what went wrong (lib/schemas/outcomes.ts OUTCOME_FAILURES), and what the call cost in USD, when the reporter said
    failure: text("failure"),
    paidAmount: doublePrecision("paid_amount"),
    // anonymous | authenticated | probe
    reporterKind: text("reporter_kind").notNull(),
    // a stable, non-reversible id of the reporter (key id or hashed address)
    reporterKey: text("reporter_key").notNull(),
    userId: text("user_id"),
    // base weight from the reporter's tier and discovery; caps apply when rolled up
    weight: doublePrecision("weight").notNull(),
    // false until the rollup job has counted it (lib/outcomes)
    rolledUp: boolean("rolled_up").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("outcome_reports_endpoint_created_idx").on(t.endpointId, t.createdAt),
    index("outcome_reports_pending_idx").on(t.createdAt).where(sql`not ${t.rolledUp}`),
    // The public payments figure (lib/stats) reads only paid reports of 7 days
    index("outcome_reports_paid_idx").on(t.createdAt).where(sql`${t.paidAmount} > 0`),
  ],
);

/**
 * The x402 payment a report says it made (POST /report_outcome `payment`), and how it was judged
 * (lib/payments). One transaction backs one report only: (network, transaction) is unique, whatever
 * the verdict, so the first report to name a transaction holds it.
 */
export const paymentEvidence = pgTable(
  "payment_evidence",
  {
    // the report's id (written before the report itself, so the rollup never counts a paid report without it)
    reportId: uuid("report_id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    // CAIP-2 id, e.g. eip155:8453
    network: text("network").notNull(),
    // lower-case 0x transaction hash
    transaction: text("transaction").notNull(),
    // lower-case address: as the chain shows it once verified, else as reported
    payer: text("payer"),
    // the payer is the endpoint's pay-to address or another of its provider's: its reports count as the provider's (weight 0)
    payerIsProvider: boolean("payer_is_provider").notNull().default(false),
    receipt: jsonb("receipt"),
    paymentIdentifier: text("payment_identifier"),
    // verified | unverified | rejected
    status: text("status").notNull(),
    // why not verified (stable codes, lib/payments/verify.ts)
    reason: text("reason"),
    // what the chain showed once verified: the asset contract, recipient, atomic amount, block time
    asset: text("asset"),
    payTo: text("pay_to"),
    amount: text("amount"),
    paidAt: ts("paid_at"),
    checkedAt: ts("checked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_evidence_tx_uq").on(t.network, t.transaction),
    index("payment_evidence_endpoint_idx").on(t.endpointId, t.createdAt),
    // a wallet's verified payments of the last 7 days, read by the rollup (lib/outcomes/rollup.ts: the wallet's spread)
    index("payment_evidence_payer_idx").on(t.network, t.payer, t.createdAt),
  ],
);

/**
 * Per-endpoint hourly rollups, written by the rollup job from outcome_reports (and by probes).
 * `shard` lets independent writers of one endpoint-hour avoid each other; readers sum the shards.
 * latency_hist holds weighted counts per log-spaced bucket (lib/outcomes/histogram.ts).
 */
export const outcomeRollups = pgTable(
  "outcome_rollups",
  {
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    hour: ts("hour").notNull(),
    shard: smallint("shard").notNull().default(0),
    reports: integer("reports").notNull().default(0),
    successes: integer("successes").notNull().default(0),
    wSuccess: doublePrecision("w_success").notNull().default(0),
    wTotal: doublePrecision("w_total").notNull().default(0),
    // sparse map: bucket index -> weighted count
    latencyHist: jsonb("latency_hist").$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.hour, t.shard] }), index("outcome_rollups_hour_idx").on(t.hour)],
);

/**
 * Each endpoint's 7-day figures, computed from its hourly rollups by the rollup job (lib/outcomes/
 * figures.ts): within FIGURES_REFRESH_MS of new reports being counted (`dirty`), and hourly while
 * the window slides. Discovery reads these few numbers instead of up to 168 rollups per endpoint.
 */
export const endpointFigures = pgTable(
  "endpoint_figures",
  {
    endpointId: uuid("endpoint_id")
      .primaryKey()
      .references(() => endpoints.id, { onDelete: "cascade" }),
    reports: integer("reports").notNull().default(0),
    wSuccess: doublePrecision("w_success").notNull().default(0),
    wTotal: doublePrecision("w_total").notNull().default(0),
    successRate: doublePrecision("success_rate"),
    p95LatencyMs: integer("p95_latency_ms"),
    // how many different callers (reporter keys, not probes, not the provider itself) reported in 7 days
    distinctReporters: integer("distinct_reporters").notNull().default(0),
    // reports backed by a verified payment in 7 days, and the different wallets that paid for them
    // (the endpoint's own pay-to and the provider's wallets left out; lib/outcomes/figures.ts)
    paidReports: integer("paid_reports").notNull().default(0),
    distinctPayers: integer("distinct_payers").notNull().default(0),
    // weighted success rate per day, oldest first (7 numbers or nulls)
    daily: jsonb("daily").$type<Array<number | null>>().notNull().default([null, null, null, null, null, null, null]),
    // rollups changed since computed_at: recompute (no sooner than FIGURES_REFRESH_MS after the last time)
    dirty: boolean("dirty").notNull().default(true),
    computedAt: ts("computed_at").notNull().default(sql`'-infinity'::timestamptz`),
    // when the figures last changed value (discovery's caches poll this)
    changedAt: ts("changed_at").notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index("endpoint_figures_changed_idx").on(t.changedAt),
    // The two ways a row falls due (lib/outcomes/figures.ts), each a short range scan that stops at
    // the first row not due yet, however many rows are idle.
    index("endpoint_figures_dirty_idx").on(t.computedAt).where(sql`dirty`),
    index("endpoint_figures_sweep_idx").on(t.computedAt).where(sql`reports > 0`),
  ],
);

/** Weight already counted per reporter, endpoint and hour, to cap any one reporter's influence. */
export const reporterWeights = pgTable(
  "reporter_weights",
  {
    endpointId: uuid("endpoint_id").notNull(),
    hour: ts("hour").notNull(),
    reporterKey: text("reporter_key").notNull(),
    weight: doublePrecision("weight").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.hour, t.reporterKey] })],
);

/**
 * Network-wide hourly totals of the rollups (every endpoint together), written by the rollup job in
 * the same statement as outcome_rollups, so the public stats read 168 rows instead of every endpoint's.
 */
export const networkRollups = pgTable("network_rollups", {
  hour: ts("hour").primaryKey(),
  reports: integer("reports").notNull().default(0),
  successes: integer("successes").notNull().default(0),
  wSuccess: doublePrecision("w_success").notNull().default(0),
  wTotal: doublePrecision("w_total").notNull().default(0),
  latencyHist: jsonb("latency_hist").$type<Record<string, number>>().notNull().default({}),
});

/** Precomputed public statistics (lib/stats), refreshed by a job so GET /stats reads one row. */
export const statsSnapshots = pgTable("stats_snapshots", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
  computedAt: ts("computed_at").notNull().defaultNow(),
});

// ---------------------------------------------------------------- discovery log

/** Answers of POST /discover, so outcome reports can be tied to them (kept for a day). */
export const discoveries = pgTable(
  "discoveries",
  {
    id: uuid("id").primaryKey(),
    capabilityId: text("capability_id").notNull(),
    principalKey: text("principal_key").notNull(),
    endpointIds: uuid("endpoint_ids").array().notNull(),
    viaIntent: boolean("via_intent").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("discoveries_created_idx").on(t.createdAt)],
);

/** Discover requests counted per capability and hour (for the stats). */
export const discoverCounters = pgTable(
  "discover_counters",
  {
    capabilityId: text("capability_id").notNull(),
    hour: ts("hour").notNull(),
    requests: integer("requests").notNull().default(0),
    intentRequests: integer("intent_requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.capabilityId, t.hour] }), index("discover_counters_hour_idx").on(t.hour)],
);

/**
 * A capability someone would add to the registry: grouped from the unmapped import queue
 * (`unmapped_queue`) or proposed by a provider (`provider`, API or submission). Operators accept
 * (as this id or another), merge into an existing capability, or reject it (lib/proposals).
 */
export const capabilityProposals = pgTable(
  "capability_proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    capabilityId: text("capability_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    categoryId: text("category_id").notNull(),
    exampleIntents: text("example_intents").array().notNull().default(sql`'{}'::text[]`),
    // the group's salient words: the accepted capability's tags
    words: text("words").array().notNull().default(sql`'{}'::text[]`),
    // unmapped_queue | provider
    source: text("source").notNull(),
    // open | accepted | rejected | merged
    status: text("status").notNull().default("open"),
    proposedBy: text("proposed_by").references(() => users.id, { onDelete: "set null" }),
    endpointUrl: text("endpoint_url"),
    // the unmapped import items that would join it: [{ url, source_host }]
    items: jsonb("items").$type<Array<{ url: string; source_host: string }>>().notNull().default(sql`'[]'::jsonb`),
    decidedCapabilityId: text("decided_capability_id"),
    decidedBy: text("decided_by"),
    decidedAt: ts("decided_at"),
    decisionNote: text("decision_note"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // one open proposal per id; decided ones stay as the record
    uniqueIndex("capability_proposals_open_uq").on(t.capabilityId).where(sql`status = 'open'`),
    index("capability_proposals_status_idx").on(t.status),
  ],
);

// ---------------------------------------------------------------- limits and jobs

/** Fixed-window rate-limit counters, one row per policy and caller. UNLOGGED (drizzle/0004, a custom migration drizzle cannot express). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull().default(0),
});

/** Claims of periodic jobs, so one instance runs each at a time. */
export const jobClaims = pgTable("job_claims", {
  name: text("name").primaryKey(),
  claimedBy: text("claimed_by"),
  claimedUntil: ts("claimed_until"),
  lastRunAt: ts("last_run_at"),
  lastResult: jsonb("last_result"),
});

export type Capability = typeof capabilities.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type Endpoint = typeof endpoints.$inferSelect;
export type NewEndpoint = typeof endpoints.$inferInsert;
export type Provider = typeof providers.$inferSelect;
export type Submission = typeof submissions.$inferSelect;
export type ImportItem = typeof importItems.$inferSelect;
export type CapabilityProposal = typeof capabilityProposals.$inferSelect;
export type DomainClaim = typeof domainClaims.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type User = typeof users.$inferSelect;
