// Judging the payment an outcome report names (POST /report_outcome `payment`): the transaction
// must exist on that network, have succeeded, and move at least the endpoint's asking amount of the
// endpoint's asset to the endpoint's pay-to address (as its last 402 challenge named them), from the
// payer, within the hour before the report. An ERC-20 transfer and an EIP-3009
// transferWithAuthorization both emit the token's Transfer event, which is what is read.
// docs/ranking.md says how verified payments weigh.
import { sql } from "drizzle-orm";
import { parseEventLogs, erc20Abi, type Hash, type PublicClient, type TransactionReceipt } from "viem";
import { queryRows, type Db } from "@/lib/db/client";
import type { PaymentSeenValue } from "@/lib/db/schema";
import { NETWORKS, normalizeNetwork } from "@/lib/schemas/networks";
import { withDeadline } from "@/lib/http/deadline";
import { rpcClient, verifyTimeoutMs } from "./rpc";

export type PaymentClaim = { network: string; transaction: string; payer?: string; receipt?: unknown; payment_identifier?: string };

export const PAYMENT_EVIDENCE = ["verified", "unverified", "rejected"] as const;
export type PaymentEvidenceStatus = (typeof PAYMENT_EVIDENCE)[number];

/**
 * Why evidence was not verified. Rejected: the chain shows it does not back the report.
 * Unverified: Capdex could not tell (no RPC, RPC down or too slow, nothing to compare with).
 */
export const REJECT_REASONS = [
  "tx_not_found",
  "tx_failed",
  "tx_reused",
  "not_a_transfer",
  "wrong_asset",
  "wrong_recipient",
  "wrong_payer",
  "underpaid",
  "wrong_network",
  "too_old",
  "too_new",
] as const;
export const UNVERIFIED_REASONS = ["no_rpc", "rpc_unavailable", "unsupported_network", "no_payment_requirements"] as const;
export type PaymentReason = (typeof REJECT_REASONS)[number] | (typeof UNVERIFIED_REASONS)[number];

export const PAYMENT_WINDOW = {
  /** How long before the report the payment may have been made. */
  maxAgeMinutes: 60,
  /** How far after the report's arrival a block's time may be (clocks and block times drift). */
  clockSlackMinutes: 2,
} as const;

export type Verdict = {
  status: PaymentEvidenceStatus;
  reason: PaymentReason | null;
  network: string;
  transaction: string;
  payer: string | null;
  payerIsProvider: boolean;
  asset: string | null;
  payTo: string | null;
  amount: string | null;
  paidAt: Date | null;
};

/** What the endpoint asks on one network: the exact-scheme offers of its last 402. */
export type Asking = { asset: string; payTo: string; amount: bigint };

export type EndpointPayment = { seen: PaymentSeenValue | null; providerWallets: string[] };

const lower = (s: string) => s.toLowerCase();

/** The endpoint's offers on a CAIP-2 network (exact scheme), lower-cased; empty when it offers none there. */
export function askingOn(seen: PaymentSeenValue | null, caip2: string): Asking[] {
  const out: Asking[] = [];
  for (const a of seen?.accepts ?? []) {
    const net = normalizeNetwork(a.network);
    if (!net || NETWORKS[net] !== caip2 || a.scheme !== "exact" || !/^\d{1,78}$/.test(a.amount)) continue;
    out.push({ asset: lower(a.asset), payTo: lower(a.payTo), amount: BigInt(a.amount) });
  }
  return out;
}

type Transfer = { asset: string; from: string; to: string; value: bigint };

/** The token Transfer events of a receipt. */
export function transfersOf(receipt: Pick<TransactionReceipt, "logs">): Transfer[] {
  return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs, strict: true }).map((l) => ({
    asset: lower(l.address),
    from: lower(l.args.from),
    to: lower(l.args.to),
    value: l.args.value,
  }));
}

/**
 * The verdict on a mined transaction (its status, Transfer events and block time) against what the
 * endpoint asks, for a report that arrived at `reportedAt`. Pure: the chain's answer is passed in.
 */
export function judgeTransfers(
  claim: { payer?: string },
  asking: Asking[],
  tx: { status: "success" | "reverted"; transfers: Transfer[]; blockTime: Date },
  reportedAt: Date,
): { reason: (typeof REJECT_REASONS)[number] | null; payer?: string; offer?: Asking; amount?: bigint } {
  if (tx.status !== "success") return { reason: "tx_failed" };
  if (!tx.transfers.length) return { reason: "not_a_transfer" };
  const assets = new Set(asking.map((a) => a.asset));
  const ofAsset = tx.transfers.filter((t) => assets.has(t.asset));
  if (!ofAsset.length) return { reason: "wrong_asset" };
  const toPayTo = ofAsset.filter((t) => asking.some((a) => a.asset === t.asset && a.payTo === t.to));
  if (!toPayTo.length) return { reason: "wrong_recipient" };
  const payer = claim.payer ? lower(claim.payer) : toPayTo[0].from;
  const fromPayer = toPayTo.filter((t) => t.from === payer);
  if (!fromPayer.length) return { reason: "wrong_payer" };
  // The best offer this transaction meets: the payer's transfers of one asset to one pay-to, summed.
  let best: { offer: Asking; amount: bigint } | null = null;
  for (const offer of asking) {
    const amount = fromPayer.filter((t) => t.asset === offer.asset && t.to === offer.payTo).reduce((s, t) => s + t.value, 0n);
    if (amount >= offer.amount && (!best || amount > best.amount)) best = { offer, amount };
  }
  if (!best) return { reason: "underpaid" };
  const age = reportedAt.getTime() - tx.blockTime.getTime();
  if (age > PAYMENT_WINDOW.maxAgeMinutes * 60_000) return { reason: "too_old" };
  if (age < -PAYMENT_WINDOW.clockSlackMinutes * 60_000) return { reason: "too_new" };
  return { reason: null, payer, offer: best.offer, amount: best.amount };
}

/** The endpoint's last seen payment requirements and its provider's wallets (null: no such endpoint). */
export async function endpointPayment(db: Db, endpointId: string): Promise<EndpointPayment | null> {
  const rows = await queryRows<{ payment_seen: PaymentSeenValue | null; wallets: string[] | null }>(
    db,
    sql`select e.payment_seen,
               (select array_agg(distinct lower(a->>'payTo')) from endpoints e2
                  cross join lateral jsonb_array_elements(case when jsonb_typeof(e2.payment_seen->'accepts') = 'array'
                                                               then e2.payment_seen->'accepts' else '[]'::jsonb end) a
                where e2.provider_id = e.provider_id and a->>'payTo' is not null) as wallets
        from endpoints e where e.id = ${endpointId}::uuid`,
  );
  if (!rows.length) return null;
  return { seen: rows[0].payment_seen, providerWallets: rows[0].wallets ?? [] };
}

type ChainRead = { kind: "missing" } | { kind: "mined"; status: "success" | "reverted"; transfers: Transfer[]; blockTime: Date };

async function readChain(client: PublicClient, hash: Hash): Promise<ChainRead> {
  let receipt: TransactionReceipt;
  try {
    receipt = await client.getTransactionReceipt({ hash });
  } catch (err) {
    if ((err as { name?: string }).name === "TransactionReceiptNotFoundError") return { kind: "missing" };
    throw err;
  }
  const block = await client.getBlock({ blockHash: receipt.blockHash });
  return { kind: "mined", status: receipt.status, transfers: transfersOf(receipt), blockTime: new Date(Number(block.timestamp) * 1000) };
}

/**
 * The verdict on one claim for an endpoint, within CAPDEX_PAYMENT_VERIFY_TIMEOUT_MS. Reuse of a
 * transaction already stored is checked here and again by the unique index when stored; a claim
 * judged again (lib/payments/recheck.ts) names its own row, `ownReportId`, which is no reuse.
 */
export async function verifyPayment(
  db: Db,
  claim: PaymentClaim,
  payment: EndpointPayment,
  reportedAt: Date,
  opts: { ownReportId?: string } = {},
): Promise<Verdict> {
  const name = normalizeNetwork(claim.network);
  const network = name ? NETWORKS[name] : claim.network;
  const transaction = lower(claim.transaction);
  const base: Verdict = {
    status: "unverified",
    reason: null,
    network,
    transaction,
    payer: claim.payer ? lower(claim.payer) : null,
    payerIsProvider: false,
    asset: null,
    payTo: null,
    amount: null,
    paidAt: null,
  };
  const wallets = new Set(payment.providerWallets.map(lower));
  const withPayer = (v: Verdict): Verdict => ({ ...v, payerIsProvider: v.payer !== null && wallets.has(v.payer) });
  const unverified = (reason: PaymentReason) => withPayer({ ...base, status: "unverified", reason });
  const rejected = (reason: PaymentReason) => withPayer({ ...base, status: "rejected", reason });

  const used = await queryRows<{ n: number }>(
    db,
    sql`select 1 as n from payment_evidence where network = ${network} and transaction = ${transaction}
        ${opts.ownReportId ? sql`and report_id <> ${opts.ownReportId}::uuid` : sql``} limit 1`,
  );
  if (used.length) return rejected("tx_reused");
  if (!network.startsWith("eip155:")) return unverified("unsupported_network");
  if (!payment.seen?.accepts?.length) return unverified("no_payment_requirements");
  const asking = askingOn(payment.seen, network);
  if (!asking.length) return rejected("wrong_network");
  const rpc = rpcClient(network);
  if (!rpc) return unverified("no_rpc");

  let read: ChainRead;
  try {
    read = await withDeadline(
      (async () => {
        const chainId = await rpc.chainId;
        // An RPC for another chain than the one it is configured for can tell nothing about this one.
        if (chainId === null || `eip155:${chainId}` !== network) throw new Error("rpc chain mismatch");
        return readChain(rpc.client, transaction as Hash);
      })(),
      verifyTimeoutMs(),
      () => new Error("rpc deadline"),
    );
  } catch {
    return unverified("rpc_unavailable");
  }
  if (read.kind === "missing") return rejected("tx_not_found");
  const judged = judgeTransfers(claim, asking, read, reportedAt);
  if (judged.reason) return rejected(judged.reason);
  return withPayer({
    ...base,
    status: "verified",
    payer: judged.payer!,
    asset: judged.offer!.asset,
    payTo: judged.offer!.payTo,
    amount: String(judged.amount!),
    paidAt: read.blockTime,
  });
}
