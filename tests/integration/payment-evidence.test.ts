// Payment evidence end to end on loopback: a real chain (anvil), a USDC-like EIP-3009 token, a paid
// x402 resource (@x402/hono with a local facilitator settling on that chain), a client paying with
// @x402/fetch, and the settlement reported to POST /api/report_outcome and verified on chain through
// CAPDEX_RPC_URLS. Forged, reused, underpaid and misdirected transactions are refused with their codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startAnvil, testUsdcArtifact, type LocalChain } from "../helpers/chain/anvil";
import { payAndCall, startPaidServer, type PaidServer } from "../helpers/chain/x402-paid";
import { queryRows } from "@/lib/db/client";
import { probeEndpoint } from "@/lib/probes";
import * as reportRoute from "@/app/api/report_outcome/route";
import { CAPS, WEIGHTS, getObservedFigures, recordOutcome, rollUpAll } from "@/lib/outcomes";
import { recheckHeldEvidence } from "@/lib/payments/recheck";
import { addAccount, addEndpoint, anonymous, rollupOf } from "./outcomes-fixtures";

const PRICE = "10000"; // 0.01 USDC (6 decimals)

let t: TestDb;
let chain: LocalChain;
let server: PaidServer;
let token: Address;
let payer: PrivateKeyAccount;
let payTo: PrivateKeyAccount;
let ep: string;
const saved = { rpc: process.env.CAPDEX_RPC_URLS, priv: process.env.ALLOW_PRIVATE_TARGETS };

const post = (json: unknown) => call(reportRoute.POST, "/api/report_outcome", { method: "POST", json });
const report = (payment: Record<string, unknown>, endpointId = ep) => post({ endpoint_id: endpointId, success: true, payment });

async function transfer(from: PrivateKeyAccount, to: Address, value: bigint): Promise<Hex> {
  const w = chain.wallet(from);
  const hash = await w.writeContract({ address: token, abi: testUsdcArtifact().abi, functionName: "transfer", args: [to, value] });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

async function evidenceOf(reportId: string) {
  const rows = await queryRows<Record<string, unknown>>(
    t.db,
    sql`select status, reason, network, transaction, payer, payer_is_provider, amount, pay_to, asset from payment_evidence where report_id = ${reportId}::uuid`,
  );
  return rows[0] ?? null;
}

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  t = await createTestDb({ seed: "catalogue" });
  chain = await startAnvil();
  const deployer = await chain.account();
  token = await chain.deployToken(deployer);
  payer = await chain.account();
  payTo = await chain.account();
  const facilitator = await chain.account();
  await chain.publicClient.waitForTransactionReceipt({
    hash: await chain.wallet(deployer).writeContract({ address: token, abi: testUsdcArtifact().abi, functionName: "mint", args: [payer.address, 10_000_000n] }),
  });
  server = await startPaidServer(chain, { token, payTo: payTo.address, amount: PRICE, facilitator });
  process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
  // The endpoint as listed, then probed: its pay-to, asset and amount are what the 402 named.
  ep = await addEndpoint(t.db, { price: 0.01 });
  await t.db.execute(sql`update endpoints set url = ${server.url}, network = 'base-sepolia', networks = '{base-sepolia}' where id = ${ep}::uuid`);
  await probeEndpoint(t.db, ep);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
  await t?.close();
  process.env.CAPDEX_RPC_URLS = saved.rpc;
  if (saved.priv === undefined) delete process.env.ALLOW_PRIVATE_TARGETS;
  else process.env.ALLOW_PRIVATE_TARGETS = saved.priv;
});

describe("payment evidence on a local chain", () => {
  it("the probe keeps the 402's pay-to, asset and amount", async () => {
    const [row] = await queryRows<{ accepts: Array<Record<string, unknown>> }>(t.db, sql`select payment_seen->'accepts' as accepts from endpoints where id = ${ep}::uuid`);
    expect(row.accepts).toEqual([expect.objectContaining({ network: "eip155:84532", amount: PRICE, asset: token, payTo: payTo.address })]);
  });

  let settled: { transaction: string; network: string; payer?: string };
  it("verifies a real x402 payment: paid with @x402/fetch, settled by a local facilitator, reported with its PAYMENT-RESPONSE", async () => {
    const paid = await payAndCall(chain, payer, server.url, token, PRICE);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ temperature_c: 11 });
    expect(paid.settlement).toMatchObject({ success: true, network: "eip155:84532", payer: payer.address });
    settled = paid.settlement;
    const res = await report({ network: settled.network, transaction: settled.transaction, payer: settled.payer });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: true, payment_evidence: "verified" });
    expect(res.body.payment_reason).toBeUndefined();
    expect(await evidenceOf(res.body.report_id as string)).toMatchObject({
      status: "verified",
      reason: null,
      network: "eip155:84532",
      transaction: settled.transaction.toLowerCase(),
      payer: payer.address.toLowerCase(),
      payer_is_provider: false,
      amount: PRICE,
      pay_to: payTo.address.toLowerCase(),
      asset: token.toLowerCase(),
    });
  }, 30_000);

  it("refuses a transaction already used by another report (tx_reused), and still stores the report", async () => {
    const res = await report({ network: "base-sepolia", transaction: settled.transaction.toUpperCase().replace("0X", "0x") });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: true, payment_evidence: "rejected", payment_reason: "tx_reused" });
    const [n] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from outcome_reports where id = ${res.body.report_id as string}::uuid`);
    expect(n.n).toBe(1);
  });

  it("refuses a forged transaction hash (tx_not_found)", async () => {
    const res = await report({ network: "base-sepolia", transaction: `0x${randomBytes(32).toString("hex")}`, payer: payer.address });
    expect(res.body).toMatchObject({ payment_evidence: "rejected", payment_reason: "tx_not_found" });
    expect(await evidenceOf(res.body.report_id as string)).toMatchObject({ status: "rejected", reason: "tx_not_found" });
  });

  it("refuses a transfer of less than the asking amount (underpaid)", async () => {
    const hash = await transfer(payer, payTo.address, BigInt(PRICE) - 1n);
    const res = await report({ network: "base-sepolia", transaction: hash, payer: payer.address });
    expect(res.body).toMatchObject({ payment_evidence: "rejected", payment_reason: "underpaid" });
  });

  it("refuses a transfer to someone else than the endpoint's pay-to (wrong_recipient)", async () => {
    const hash = await transfer(payer, payer.address === payTo.address ? token : (await chain.account()).address, BigInt(PRICE));
    const res = await report({ network: "base-sepolia", transaction: hash, payer: payer.address });
    expect(res.body).toMatchObject({ payment_evidence: "rejected", payment_reason: "wrong_recipient" });
  });

  it("refuses a payment that another wallet than the named payer made (wrong_payer)", async () => {
    const hash = await transfer(payer, payTo.address, BigInt(PRICE));
    const other = await chain.account();
    const res = await report({ network: "base-sepolia", transaction: hash, payer: other.address });
    expect(res.body).toMatchObject({ payment_evidence: "rejected", payment_reason: "wrong_payer" });
  });

  it("refuses a transaction that moved no token (not_a_transfer), and a network the endpoint does not take (wrong_network)", async () => {
    const w = chain.wallet(payer);
    const hash = await w.sendTransaction({ to: payTo.address, value: 1n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect((await report({ network: "base-sepolia", transaction: hash })).body).toMatchObject({ payment_evidence: "rejected", payment_reason: "not_a_transfer" });
    expect((await report({ network: "base", transaction: `0x${randomBytes(32).toString("hex")}` })).body).toMatchObject({
      payment_evidence: "rejected",
      payment_reason: "wrong_network",
    });
  });

  it("counts a payment from the endpoint's own pay-to address as the provider's", async () => {
    await chain.publicClient.waitForTransactionReceipt({
      hash: await chain.wallet(payer).writeContract({ address: token, abi: testUsdcArtifact().abi, functionName: "transfer", args: [payTo.address, 100_000n] }),
    });
    const hash = await transfer(payTo, payTo.address, BigInt(PRICE));
    const res = await report({ network: "base-sepolia", transaction: hash });
    expect(res.body).toMatchObject({ payment_evidence: "verified" });
    expect(await evidenceOf(res.body.report_id as string)).toMatchObject({ payer: payTo.address.toLowerCase(), payer_is_provider: true });
  });

  it("without an RPC for the network, or with one that does not answer, stores the evidence as unverified", async () => {
    const hash = await transfer(payer, payTo.address, BigInt(PRICE));
    process.env.CAPDEX_RPC_URLS = "";
    const none = await report({ network: "base-sepolia", transaction: hash, payer: payer.address });
    expect(none.body).toMatchObject({ payment_evidence: "unverified", payment_reason: "no_rpc" });
    expect(await evidenceOf(none.body.report_id as string)).toMatchObject({ status: "unverified", payer: payer.address.toLowerCase() });

    const hash2 = await transfer(payer, payTo.address, BigInt(PRICE));
    // A port nothing listens on: refused at once.
    process.env.CAPDEX_RPC_URLS = "base-sepolia=http://127.0.0.1:9";
    const down = await report({ network: "base-sepolia", transaction: hash2 });
    expect(down.body).toMatchObject({ payment_evidence: "unverified", payment_reason: "rpc_unavailable" });
    process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
  });

  it("answers bad payment input with 422 problems, never a 500", async () => {
    const cases: Array<[unknown, string]> = [
      [{ network: "base-sepolia", transaction: "abc" }, "#/payment/transaction"],
      [{ network: "base-sepolia", transaction: `0x${"a".repeat(64)}`, payer: "0x12" }, "#/payment/payer"],
      [{ network: "nowhere", transaction: `0x${"a".repeat(64)}` }, "#/payment/network"],
      [{ transaction: `0x${"a".repeat(64)}` }, "#/payment/network"],
      [{ network: "base-sepolia", transaction: `0x${"a".repeat(64)}`, amount: 1 }, "#/payment/amount"],
      [{ network: "base-sepolia", transaction: `0x${"a".repeat(64)}`, payment_identifier: "short" }, "#/payment/payment_identifier"],
    ];
    for (const [payment, pointer] of cases) {
      const res = await report(payment as Record<string, unknown>);
      expect(res.status, JSON.stringify(payment)).toBe(422);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect((res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer)).toContain(pointer);
    }
    const res = await report({ network: "base-sepolia", transaction: `0x${"b".repeat(64)}` }, "00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("endpoint_not_found");
  });
});

describe("how paid reports weigh", () => {
  /** A fresh endpoint asking what `ep` asks (its 402 as the probe saw it). */
  async function paidEndpoint(price = 0.01, providerId?: string): Promise<string> {
    const id = await addEndpoint(t.db, { price, providerId });
    await t.db.execute(sql`update endpoints set network = 'base-sepolia', networks = '{base-sepolia}',
      payment_seen = (select payment_seen from endpoints where id = ${ep}::uuid) where id = ${id}::uuid`);
    return id;
  }
  const pay = (from: PrivateKeyAccount) => transfer(from, payTo.address, BigInt(PRICE));
  async function funded(): Promise<PrivateKeyAccount> {
    const w = await chain.account();
    await transfer(payer, w.address, 1_000_000n);
    return w;
  }
  const paidReport = async (endpointId: string, from: PrivateKeyAccount, success = true) =>
    recordOutcome(t.db, { endpoint_id: endpointId, success, payment: { network: "base-sepolia", transaction: await pay(from) } }, anonymous("203.0.113.9"));
  /**
   * A verified payment of `units` by `from` to an endpoint of its own new provider, listed at that
   * price: spend with another provider, so that the wallet's paid reports elsewhere weigh as paid
   * (WEIGHTS.paidSpreadShare).
   */
  async function spendElsewhere(from: PrivateKeyAccount, units: bigint, providerId?: string): Promise<void> {
    const id = await paidEndpoint(Number(units) / 1e6, providerId);
    const tx = await transfer(from, payTo.address, units);
    expect((await recordOutcome(t.db, { endpoint_id: id, success: true, payment: { network: "base-sepolia", transaction: tx } }, anonymous("203.0.113.200"))).payment_evidence).toBe("verified");
  }
  // The shared payer is an agent's wallet: it has paid other providers before (0.50 USDC).
  beforeAll(() => spendElsewhere(payer, 500_000n), 30_000);

  it("weighs a verified paid report WEIGHTS.paid even from an address, and counts it against the paying wallet", async () => {
    const e = await paidEndpoint();
    expect((await paidReport(e, payer)).payment_evidence).toBe("verified");
    await recordOutcome(t.db, { endpoint_id: e, success: false }, anonymous("203.0.113.9"));
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, w_success: WEIGHTS.paid, w_total: WEIGHTS.paid });
    expect(WEIGHTS.paid).toBe(8);
    const f = (await getObservedFigures(t.db, [e])).get(e)!;
    expect(f).toMatchObject({ paid_reports_7d: 1, distinct_payers_7d: 1, distinct_reporters_7d: 1 });
  });

  it("weighs a failure with verified evidence as its sender's unpaid report: the money proves the call, not the failure", async () => {
    const e = await paidEndpoint();
    // A rival paying for real calls to report them failed: from an address, nothing; from an account, an account's weight.
    expect((await paidReport(e, payer, false)).payment_evidence).toBe("verified");
    const account = await addAccount(t.db, "paid-failure");
    const tx = await pay(payer);
    expect((await recordOutcome(t.db, { endpoint_id: e, success: false, payment: { network: "base-sepolia", transaction: tx } }, account)).payment_evidence).toBe("verified");
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, w_success: 0, w_total: WEIGHTS.authenticated });
  }, 30_000);

  it("caps one wallet's paid reports per endpoint-hour at paidPerPayer, whatever address or account sends them", async () => {
    const e = await paidEndpoint();
    const account = await addAccount(t.db, "payer-cap");
    for (let i = 0; i < 10; i++) {
      const tx = await pay(payer);
      await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: tx } }, i % 2 ? account : anonymous(`203.0.113.${i}`));
    }
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 10, w_total: CAPS.paidPerPayer });
    expect((await getObservedFigures(t.db, [e])).get(e)).toMatchObject({ paid_reports_7d: 10, distinct_payers_7d: 1 });
  }, 30_000);

  it("caps all paid reports of an endpoint-hour at paidPerEndpoint, however many wallets pay", async () => {
    const e = await paidEndpoint();
    // 6 wallets at their own cap (8 plain paid reports of 8) would add 384.
    for (let w = 0; w < 6; w++) {
      const wallet = await funded();
      await spendElsewhere(wallet, 100_000n);
      for (let i = 0; i < 8; i++) await paidReport(e, wallet);
    }
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 48, w_total: CAPS.paidPerEndpoint });
    expect((await getObservedFigures(t.db, [e])).get(e)).toMatchObject({ paid_reports_7d: 48, distinct_payers_7d: 6 });
  }, 60_000);

  it("weighs a wallet's paid reports as paid only while one provider takes at most half its spend (unlinked wash trading)", async () => {
    const e = await paidEndpoint();
    const [{ provider_id: provider }] = await queryRows<{ provider_id: string }>(t.db, sql`select provider_id::text from endpoints where id = ${e}::uuid`);
    const account = await addAccount(t.db, "spread");
    // A wallet nothing links to the provider, paying only that provider (this endpoint and another of its own):
    // as its senders' unpaid reports, an address's 0 and an account's 4.
    const wallet = await funded();
    await paidReport(e, wallet);
    await spendElsewhere(wallet, 40_000n, provider);
    const tx = await pay(wallet);
    await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: tx } }, account);
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, w_total: WEIGHTS.authenticated });
    // 0.085 paid to another provider: this provider's 0.06 so far plus the next call stays within half
    // twice (0.07 of 0.155, 0.08 of 0.165), not a third time (0.09 of 0.175).
    await spendElsewhere(wallet, 85_000n);
    for (let i = 0; i < 3; i++) await paidReport(e, wallet);
    await rollUpAll(t.db);
    expect(WEIGHTS.paidSpreadShare).toBe(0.5);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 5, w_total: WEIGHTS.authenticated + 2 * WEIGHTS.paid });
    // Still a verified paid call on the endpoint's figures: the chain shows it, whatever it weighed.
    expect((await getObservedFigures(t.db, [e])).get(e)).toMatchObject({ paid_reports_7d: 5, distinct_payers_7d: 1 });
  }, 60_000);

  it("holds a report whose RPC was unavailable out of the rollup, and counts it as paid once the re-check reaches the chain", async () => {
    const e = await paidEndpoint();
    const tx = await pay(payer);
    process.env.CAPDEX_RPC_URLS = "base-sepolia=http://127.0.0.1:9";
    let held: Awaited<ReturnType<typeof recordOutcome>>;
    try {
      held = await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: tx } }, anonymous("203.0.113.60"));
      expect(held).toMatchObject({ payment_evidence: "unverified", payment_reason: "rpc_unavailable" });
      await recordOutcome(t.db, { endpoint_id: e, success: false }, anonymous("203.0.113.61"));
      await rollUpAll(t.db);
      // The unpaid report is counted; the held one waits (an address's report alone weighs nothing).
      expect(await rollupOf(t.db, e)).toMatchObject({ reports: 1, w_total: 0 });
      // The RPC is still down: tried, still held.
      const still = await recheckHeldEvidence(t.db);
      expect(still.still_unavailable).toBeGreaterThanOrEqual(1);
      expect(still.verified).toBe(0);
      expect(await evidenceOf(held.report_id)).toMatchObject({ status: "unverified", reason: "rpc_unavailable" });
    } finally {
      process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
    }
    const pass = await recheckHeldEvidence(t.db);
    expect(pass.verified).toBeGreaterThanOrEqual(1);
    expect(await evidenceOf(held.report_id)).toMatchObject({ status: "verified", reason: null, payer: payer.address.toLowerCase(), amount: PRICE });
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, successes: 1, w_success: WEIGHTS.paid, w_total: WEIGHTS.paid });
    expect((await getObservedFigures(t.db, [e])).get(e)).toMatchObject({ paid_reports_7d: 1, distinct_payers_7d: 1 });
    // Judged once: the transaction is the report's own, not a reuse, and a second pass finds nothing held.
    expect((await recheckHeldEvidence(t.db)).tried).toBe(0);
  }, 60_000);

  it("rolls a held report up as unpaid when its hold runs out before the chain answers; a forged one held is rejected", async () => {
    const e = await paidEndpoint();
    const account = await addAccount(t.db, "held");
    process.env.CAPDEX_RPC_URLS = "base-sepolia=http://127.0.0.1:9";
    let late: Awaited<ReturnType<typeof recordOutcome>>;
    let forged: Awaited<ReturnType<typeof recordOutcome>>;
    try {
      late = await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: await pay(payer) } }, account);
      forged = await recordOutcome(t.db, { endpoint_id: e, success: false, payment: { network: "base-sepolia", transaction: `0x${randomBytes(32).toString("hex")}` } }, account);
      expect([late.payment_reason, forged.payment_reason]).toEqual(["rpc_unavailable", "rpc_unavailable"]);
      // The first report's hold ran out (it arrived 31 minutes ago).
      await t.db.execute(sql`update payment_evidence set created_at = now() - interval '31 minutes' where report_id = ${late.report_id}::uuid`);
      await rollUpAll(t.db);
      expect(await rollupOf(t.db, e)).toMatchObject({ reports: 1, w_total: WEIGHTS.authenticated });
    } finally {
      process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
    }
    // The chain answers now: only the report still held is judged (rejected: no such transaction), and counts zero.
    const pass = await recheckHeldEvidence(t.db);
    expect(pass).toMatchObject({ rejected: 1, verified: 0 });
    expect(await evidenceOf(late.report_id)).toMatchObject({ status: "unverified", reason: "rpc_unavailable" });
    expect(await evidenceOf(forged.report_id)).toMatchObject({ status: "rejected", reason: "tx_not_found" });
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, w_total: WEIGHTS.authenticated });
  }, 60_000);

  it("counts the provider's own wallet, and rejected evidence, as nothing; unverified evidence as an unpaid report", async () => {
    const e = await paidEndpoint();
    await transfer(payer, payTo.address, 100_000n);
    const own = await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: await pay(payTo) } }, anonymous("203.0.113.50"));
    expect(own.payment_evidence).toBe("verified");
    const account = await addAccount(t.db, "rejected");
    const forged = await recordOutcome(t.db, { endpoint_id: e, success: false, payment: { network: "base-sepolia", transaction: `0x${randomBytes(32).toString("hex")}` } }, account);
    expect(forged).toMatchObject({ payment_evidence: "rejected", payment_reason: "tx_not_found" });
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 2, w_total: 0 });
    process.env.CAPDEX_RPC_URLS = "";
    try {
      const unverified = await recordOutcome(t.db, { endpoint_id: e, success: true, payment: { network: "base-sepolia", transaction: await pay(payer) } }, account);
      expect(unverified.payment_evidence).toBe("unverified");
    } finally {
      process.env.CAPDEX_RPC_URLS = `base-sepolia=${chain.rpcUrl}`;
    }
    await rollUpAll(t.db);
    expect(await rollupOf(t.db, e)).toMatchObject({ reports: 3, w_total: WEIGHTS.authenticated });
    // The provider's wallet is no paying customer; unverified payments are not counted as paid.
    expect((await getObservedFigures(t.db, [e])).get(e)).toMatchObject({ paid_reports_7d: 0, distinct_payers_7d: 0 });
  }, 30_000);
});
