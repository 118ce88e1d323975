// Paid test calls end to end on loopback with real parts: a local chain (anvil) with an EIP-3009
// token, paid x402 resources (@x402/hono with a local facilitator settling on that chain), Capdex
// paying with @x402/fetch through safeFetch from its own wallet, the verdicts stored, weighed on the
// ranking and shown. An honest seller is delivered; one that takes the money and answers garbage is
// wrong_output; one that takes it and answers 500 (hiding its PAYMENT-RESPONSE) is paid_not_delivered
// and leaves the top 3 after one check. The budget holds against racing passes (counted on chain),
// and the wallet's key appears in no log line, API answer, metric or stored row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startAnvil, testUsdcArtifact, type LocalChain } from "../helpers/chain/anvil";
import { paidResourceCall, startPaidServer, type PaidAnswer, type PaidServer } from "../helpers/chain/x402-paid";
import { openDb, queryRows, type Db, type DbHandle } from "@/lib/db/client";
import { invalidateCandidates } from "@/lib/discovery";
import { reloadDiscoverySettings } from "@/lib/discovery/settings";
import { runIfDue } from "@/lib/jobs";
import { rollUpAll } from "@/lib/outcomes";
import { checkEndpointById, chooseTargets, readPaidCheckConfig, runPaidCheckPass, paidCheckStartupNotes, type PaidCheckConfig } from "@/lib/paid-checks";
import { paidCheckJob } from "@/lib/paid-checks/jobs";
import * as discoverRoute from "@/app/api/discover/route";
import * as statusRoute from "@/app/api/listing_status/route";
import * as metricsRoute from "@/app/api/metrics/route";
import { addEndpoint } from "./outcomes-fixtures";

const PRICE = "10000"; // 0.01 test USDC (6 decimals)
const CAPABILITY = "weather.forecast";
const METRICS_TOKEN = "paid-checks-metrics-token-0123456789";

const logLines: string[] = [];
const saved = { ...process.env };
let chain: LocalChain;
let token: Address;
let deployer: PrivateKeyAccount;
let key: Hex;
let wallet: PrivateKeyAccount;
const servers: PaidServer[] = [];


async function balanceOf(address: Address): Promise<bigint> {
  return (await chain.publicClient.readContract({ address: token, abi: testUsdcArtifact().abi, functionName: "balanceOf", args: [address] })) as bigint;
}

async function mint(to: Address, value: bigint) {
  await chain.publicClient.waitForTransactionReceipt({
    hash: await chain.wallet(deployer).writeContract({ address: token, abi: testUsdcArtifact().abi, functionName: "mint", args: [to, value] }),
  });
}

type Seller = { id: string; payTo: PrivateKeyAccount; server: PaidServer };

/** A listed endpoint of CAPABILITY served by a paid resource that answers as told, with a declared call. */
async function seller(db: Db, answer: PaidAnswer, price = 0.01): Promise<Seller> {
  const payTo = await chain.account(0n);
  // A facilitator account per seller: one account settling two payments at once would race for its nonce.
  const facilitator = await chain.account();
  const server = await startPaidServer(chain, { token, payTo: payTo.address, amount: PRICE, facilitator, answer });
  servers.push(server);
  const id = await addEndpoint(db, { capabilityId: CAPABILITY, price });
  await db.execute(sql`update endpoints set url = ${server.url}, network = 'base-sepolia', networks = '{base-sepolia}',
    call = ${JSON.stringify(paidResourceCall())}::jsonb where id = ${id}::uuid`);
  return { id, payTo, server };
}

function env(budgetUsd: string): Record<string, string> {
  return {
    CAPDEX_PAID_CHECK_KEY: key,
    CAPDEX_PAID_CHECK_BUDGETS: `base-sepolia=${budgetUsd}`,
    CAPDEX_PAID_CHECK_ASSETS: `base-sepolia=${token}`,
    CAPDEX_RPC_URLS: `base-sepolia=${chain.rpcUrl}`,
    CAPDEX_PAID_CHECK_REPEAT_HOURS: "0",
  };
}

function configOf(budgetUsd: string): PaidCheckConfig {
  const { config, problems } = readPaidCheckConfig(env(budgetUsd));
  expect(problems).toEqual([]);
  return config!;
}

async function checksOf(db: Db) {
  return queryRows<{ endpoint_id: string; verdict: string; tx: string | null; reason: string; status_code: number | null }>(
    db,
    sql`select endpoint_id::text as endpoint_id, verdict, tx, detail->>'reason' as reason, status_code from paid_checks order by id`,
  );
}

const discover = async (limit = 3) => {
  const res = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: { capability_id: CAPABILITY, preferences: { limit } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { ranked_endpoints: Array<{ endpoint_id: string; score: number; observed: { delivery: Record<string, unknown> | null } }> };
};

beforeAll(async () => {
  // Every log line of the run, to look for the key in.
  (globalThis as { __capdexLogger?: unknown }).__capdexLogger = pino({ level: "trace" }, { write: (line: string) => void logLines.push(line) });
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  // Places by score alone: no exploration window moves a new endpoint up.
  process.env.DISCOVERY_EXPLORATION_RATE = "0";
  reloadDiscoverySettings();
  process.env.METRICS_TOKEN = METRICS_TOKEN;
  chain = await startAnvil();
  deployer = await chain.account();
  token = await chain.deployToken(deployer);
  key = generatePrivateKey();
  wallet = privateKeyToAccount(key);
  await mint(wallet.address, 1_000_000n);
  process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await chain?.close();
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  delete (globalThis as { __capdexLogger?: unknown }).__capdexLogger;
  reloadDiscoverySettings();
});

describe("paid test calls: verdicts and the ranking", () => {
  let t: TestDb;
  let honest: Seller[];
  let garbage: Seller;
  let failing: Seller;
  let cfg: PaidCheckConfig;

  beforeAll(async () => {
    t = await createTestDb({ seed: "catalogue" });
    honest = [await seller(t.db, "honest"), await seller(t.db, "honest"), await seller(t.db, "honest")];
    // The cheapest: first before any paid call.
    failing = await seller(t.db, "fail_after_settling", 0.002);
    garbage = await seller(t.db, "garbage");
    await t.db.execute(sql`update endpoints set capability_id = 'weather.historical' where id = ${garbage.id}::uuid`);
    cfg = configOf("1.00");
  }, 60_000);
  afterAll(() => t?.close());

  it("is off without a key or a budget, and says what is wrong without the key", () => {
    expect(readPaidCheckConfig({}).config).toBeNull();
    expect(readPaidCheckConfig({ ...env("1"), CAPDEX_PAID_CHECK_KEY: "" }).config).toBeNull();
    expect(readPaidCheckConfig({ ...env("1"), CAPDEX_PAID_CHECK_BUDGETS: "" }).config).toBeNull();
    const bad = paidCheckStartupNotes({ ...env("1"), CAPDEX_PAID_CHECK_KEY: `${key}00` });
    expect(bad.info).toBeNull();
    expect(bad.warnings).toEqual(["CAPDEX_PAID_CHECK_KEY is not a 32-byte hex private key"]);
    // The key pasted into the budgets by mistake is not echoed either.
    const misplaced = paidCheckStartupNotes({ ...env("1"), CAPDEX_PAID_CHECK_BUDGETS: key });
    expect(misplaced.warnings.join(" ")).not.toContain(key.slice(2));
    const noRpc = paidCheckStartupNotes({ ...env("1"), CAPDEX_RPC_URLS: "" });
    expect(noRpc.warnings).toEqual(["CAPDEX_PAID_CHECK_BUDGETS: base-sepolia has no RPC in CAPDEX_RPC_URLS; it is left out"]);
    const on = paidCheckStartupNotes(env("2.5"));
    expect(on.info).toBe(`paid test calls on from ${wallet.address}: base-sepolia=$2.50/day`);
  });

  it("an honest seller is delivered: paid on chain, 2xx, the declared schema holds", async () => {
    const before = await balanceOf(honest[0].payTo.address);
    const r = await checkEndpointById(t.db, honest[0].id, cfg);
    expect(r).toMatchObject({ verdict: "delivered", reason: "ok", paid: true, network: "eip155:84532" });
    expect(r.verdict && r.tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await balanceOf(honest[0].payTo.address)) - before).toBe(BigInt(PRICE));
  }, 30_000);

  it("a seller that takes payment and answers garbage is wrong_output", async () => {
    const before = await balanceOf(garbage.payTo.address);
    const r = await checkEndpointById(t.db, garbage.id, cfg);
    expect(r).toMatchObject({ verdict: "wrong_output", reason: "schema_mismatch", paid: true });
    expect((await balanceOf(garbage.payTo.address)) - before).toBe(BigInt(PRICE));
  }, 30_000);

  it("a seller that takes payment, hides it and answers 500 is paid_not_delivered and leaves the top 3 after one check", async () => {
    await rollUpAll(t.db);
    invalidateCandidates(t.db);
    const before = await discover();
    expect(before.ranked_endpoints.map((e) => e.endpoint_id)).toContain(failing.id);
    expect(before.ranked_endpoints).toHaveLength(3);

    const paidBefore = await balanceOf(failing.payTo.address);
    const r = await checkEndpointById(t.db, failing.id, cfg);
    // No PAYMENT-RESPONSE came back: the chain shows the authorisation used.
    expect(r).toMatchObject({ verdict: "paid_not_delivered", reason: "error_status", paid: true, tx: null });
    expect((await balanceOf(failing.payTo.address)) - paidBefore).toBe(BigInt(PRICE));

    await rollUpAll(t.db);
    invalidateCandidates(t.db);
    const after = await discover(10);
    const place = after.ranked_endpoints.findIndex((e) => e.endpoint_id === failing.id);
    expect(place).toBeGreaterThanOrEqual(3);
    expect(after.ranked_endpoints[place].observed.delivery).toMatchObject({ checks: 1, delivered_share: 0, last_verdict: "paid_not_delivered" });
    expect(after.ranked_endpoints.find((e) => e.endpoint_id === honest[0].id)!.observed.delivery).toMatchObject({ checks: 1, delivered_share: 1, last_verdict: "delivered" });
    expect(after.ranked_endpoints.find((e) => e.endpoint_id === honest[1].id)!.observed.delivery).toBeNull();
  }, 30_000);

  it("stores each check, weighs paid ones as Capdex's reports, and shows them in listing_status", async () => {
    const rows = await checksOf(t.db);
    expect(rows.map((r) => [r.endpoint_id, r.verdict])).toEqual([
      [honest[0].id, "delivered"],
      [garbage.id, "wrong_output"],
      [failing.id, "paid_not_delivered"],
    ]);
    const reports = await queryRows<{ endpoint_id: string; success: boolean; weight: number; failure: string | null }>(
      t.db,
      sql`select endpoint_id::text as endpoint_id, success, weight, failure from outcome_reports where reporter_kind = 'paid_check' order by created_at`,
    );
    expect(reports).toEqual([
      { endpoint_id: honest[0].id, success: true, weight: 16, failure: null },
      { endpoint_id: garbage.id, success: false, weight: 16, failure: "wrong_output" },
      { endpoint_id: failing.id, success: false, weight: 16, failure: "http_error" },
    ]);
    const status = await call(statusRoute.GET, `/api/listing_status?url=${encodeURIComponent(failing.server.url)}`);
    expect(status.status).toBe(200);
    const listing = (status.body.listings as Array<Record<string, unknown>>)[0];
    expect(listing.delivery).toMatchObject({ checks: 1, delivered_share: 0, last_verdict: "paid_not_delivered" });
    expect(listing.reasons).toContain("paid_call_not_delivered");
    const garbageStatus = await call(statusRoute.GET, `/api/listing_status?url=${encodeURIComponent(garbage.server.url)}`);
    expect((garbageStatus.body.listings as Array<Record<string, unknown>>)[0].reasons).toContain("paid_call_wrong_output");
  });

  it("a delivered call restores the seller's score", async () => {
    // The same seller mends its ways: its next check is delivered.
    const mended = await startPaidServer(chain, { token, payTo: failing.payTo.address, amount: PRICE, facilitator: await chain.account(), answer: "honest" });
    servers.push(mended);
    await t.db.execute(sql`update endpoints set url = ${mended.url} where id = ${failing.id}::uuid`);
    expect(await checkEndpointById(t.db, failing.id, cfg)).toMatchObject({ verdict: "delivered" });
    invalidateCandidates(t.db);
    const after = await discover(10);
    expect(after.ranked_endpoints.find((e) => e.endpoint_id === failing.id)!.observed.delivery).toMatchObject({ checks: 2, delivered_share: 0.5, last_verdict: "delivered" });
  }, 30_000);

  it("an endpoint that asks no payment, or one on a network without a budget, is an unpaid_error and costs nothing", async () => {
    const before = await balanceOf(wallet.address);
    const free = await addEndpoint(t.db, { capabilityId: CAPABILITY });
    const callValue = { source: "submitted", method: "GET", input: { kind: "query", example: {} }, updated_at: new Date().toISOString() };
    await t.db.execute(sql`update endpoints set url = ${`${chain.rpcUrl}/`}, call = ${JSON.stringify(callValue)}::jsonb where id = ${free}::uuid`);
    expect(await checkEndpointById(t.db, free, cfg)).toMatchObject({ verdict: "unpaid_error", reason: "no_challenge", paid: false });
    const other = readPaidCheckConfig({ ...env("1"), CAPDEX_PAID_CHECK_BUDGETS: "base-sepolia=1,base=1", CAPDEX_RPC_URLS: `base-sepolia=${chain.rpcUrl},base=${chain.rpcUrl}`, CAPDEX_PAID_CHECK_ASSETS: "" }).config!;
    // Only real USDC on base-sepolia is paid in without CAPDEX_PAID_CHECK_ASSETS: the test token is not.
    expect(await checkEndpointById(t.db, honest[2].id, other)).toMatchObject({ verdict: "unpaid_error", reason: "no_budgeted_offer", paid: false });
    expect(await balanceOf(wallet.address)).toBe(before);
    // Unpaid errors are stored but neither weighed nor counted as deliveries.
    expect((await checksOf(t.db)).filter((r) => r.verdict === "unpaid_error")).toHaveLength(2);
    const [d] = await queryRows<{ delivery: unknown }>(t.db, sql`select delivery from endpoints where id = ${honest[2].id}::uuid`);
    expect(d.delivery).toBeNull();
  }, 30_000);

  it("favours the endpoints discover returns most", async () => {
    // One discovery that returned honest[2] a hundred thousand times against nothing for the rest:
    // a 1-in-30,000 chance of any other being drawn first.
    await t.db.execute(sql`insert into discoveries (id, capability_id, principal_key, endpoint_ids)
      values (gen_random_uuid(), ${CAPABILITY}, 'ip:203.0.113.1', array_fill(${honest[2].id}::uuid, array[100000]))`);
    const [first] = await chooseTargets(t.db, { ...cfg, repeatMs: 0 }, 1);
    expect(first.id).toBe(honest[2].id);
    // Without picks every eligible endpoint can be drawn; endpoints without a usable call never are.
    const all = await chooseTargets(t.db, { ...cfg, repeatMs: 0 }, 100);
    expect(new Set(all.map((e) => e.id))).toEqual(new Set([...honest.map((s) => s.id), failing.id, garbage.id]));
  });
});

describe("paid test calls: the budget", () => {
  let t: TestDb;
  let second: DbHandle | null = null;
  let sellers: Seller[];

  beforeAll(async () => {
    t = await createTestDb({ seed: "catalogue" });
    sellers = [];
    for (let i = 0; i < 5; i++) sellers.push(await seller(t.db, "honest"));
    // On Postgres, a second pool on the same database: another instance.
    if (t.url) second = await openDb({ url: t.url, migrate: false });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it("never spends past the day's budget, with passes racing on one or two instances (counted on chain)", async () => {
    const walletBefore = await balanceOf(wallet.address);
    const received = async () => (await Promise.all(sellers.map((s) => balanceOf(s.payTo.address)))).reduce((a, b) => a + b, 0n);
    const receivedBefore = await received();
    // 2.5 calls' worth: two payments fit, a third never does.
    const cfg = configOf("0.025");
    const dbs = [t.db, second?.db ?? t.db];
    const results = await Promise.all([
      runPaidCheckPass(dbs[0], { config: cfg, limit: 5 }),
      runPaidCheckPass(dbs[1], { config: cfg, limit: 5 }),
      runPaidCheckPass(dbs[0], { config: cfg, limit: 5 }),
    ]);
    const delivered = results.reduce((n, r) => n + ("delivered" in r ? r.delivered : 0), 0);
    expect(delivered).toBe(2);
    expect(walletBefore - (await balanceOf(wallet.address))).toBe(2n * BigInt(PRICE));
    expect((await received()) - receivedBefore).toBe(2n * BigInt(PRICE));
    const [budget] = await queryRows<{ spent_micros: number; payments: number; budget_micros: number }>(
      t.db,
      sql`select spent_micros, payments, budget_micros from paid_check_budgets where network = 'eip155:84532'`,
    );
    expect({ spent: Number(budget.spent_micros), payments: Number(budget.payments), budget: Number(budget.budget_micros) }).toEqual({ spent: 20_000, payments: 2, budget: 25_000 });
    expect((await checksOf(t.db)).map((r) => r.verdict)).toEqual(["delivered", "delivered"]);
    // Nothing left for a call: a further pass pays nothing.
    expect(await runPaidCheckPass(t.db, { config: cfg, limit: 5 })).toMatchObject({ checked: 0 });
    expect(walletBefore - (await balanceOf(wallet.address))).toBe(2n * BigInt(PRICE));
  }, 60_000);

  it("runs as a job claimed once across instances, off by default", async () => {
    // Off: no settings, nothing paid.
    for (const k of ["CAPDEX_PAID_CHECK_KEY", "CAPDEX_PAID_CHECK_BUDGETS"]) delete process.env[k];
    expect(await runIfDue(t.db, paidCheckJob, { force: true })).toEqual({ off: true });
    Object.assign(process.env, env("0.045"));
    const walletBefore = await balanceOf(wallet.address);
    const [a, b] = await Promise.all([runIfDue(t.db, paidCheckJob, { force: true }), runIfDue(second?.db ?? t.db, paidCheckJob, { force: true })]);
    // One of the two claimed the run; the other found it taken.
    expect([a, b].filter((r) => r === null)).toHaveLength(1);
    // 0.045 is 4.5 calls' worth, 2 spent already: two more at most (perRun 3 by default).
    expect((a ?? b) as Record<string, unknown>).toMatchObject({ checked: 2, delivered: 2 });
    expect(walletBefore - (await balanceOf(wallet.address))).toBe(2n * BigInt(PRICE));
  }, 60_000);

  it("never logs, serves or stores the wallet's key", async () => {
    const needles = [key.slice(2).toLowerCase()];
    const haystacks: Array<[string, string]> = [["log", logLines.join("\n").toLowerCase()]];
    const status = await call(statusRoute.GET, `/api/listing_status?url=${encodeURIComponent(sellers[0].server.url)}`);
    haystacks.push(["listing_status", JSON.stringify(status.body).toLowerCase()]);
    invalidateCandidates(t.db);
    haystacks.push(["discover", JSON.stringify(await discover(10)).toLowerCase()]);
    const metrics = await metricsRoute.GET(new Request("http://localhost:3000/api/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }), {
      params: Promise.resolve({}),
    });
    expect(metrics.status).toBe(200);
    const exposition = await metrics.text();
    expect(exposition).toMatch(/capdex_paid_checks_total\{network="eip155:84532",verdict="delivered"\} \d+/);
    expect(exposition).toMatch(/capdex_paid_check_spent_usd_total\{network="eip155:84532"\} 0\.\d+/);
    haystacks.push(["metrics", exposition.toLowerCase()]);
    for (const table of ["paid_checks", "paid_check_budgets", "outcome_reports", "job_claims", "endpoints"]) {
      const rows = await queryRows<Record<string, unknown>>(t.db, sql.raw(`select * from ${table}`));
      haystacks.push([table, JSON.stringify(rows).toLowerCase()]);
    }
    expect(logLines.some((l) => l.includes('"paid check"'))).toBe(true);
    for (const [where, text] of haystacks) for (const n of needles) expect(text.includes(n), where).toBe(false);
  });
});
