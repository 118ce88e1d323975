// Paid test calls (docs/paid-checks.md): Capdex pays for a real call to a listed endpoint, with the
// input of its declared `call` example, and checks what comes back. One check: claim the endpoint
// (a paid_checks row without a verdict; at most one per endpoint), ask without paying to read its 402,
// pick an offer on a budgeted network in a known asset, reserve its amount against the day's budget,
// pay with @x402/fetch (the client may sign nothing above the reservation, in nothing else), and judge
// the answer (./verdict.ts). Every request goes through safeFetch (lib/net). The verdict is stored,
// summarised on the endpoint (endpoints.delivery) and, for a paid call, fed to the outcome figures
// as a report of Capdex's own (lib/outcomes, WEIGHTS.paidCheck).
import { sql } from "drizzle-orm";
import { decodePaymentSignatureHeader } from "@x402/core/http";
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { queryRows, type Db } from "@/lib/db/client";
import { NetError, safeFetch, type SafeResponse } from "@/lib/net";
import { errorFields, logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { recordPaidCheckOutcome } from "@/lib/outcomes";
import { rpcClient } from "@/lib/payments/rpc";
import { parseChallenge, type Offer } from "@/lib/probes/challenge";
import { requestForCall } from "@/lib/discovery/call";
import type { EndpointCall } from "@/lib/schemas/call";
import { NETWORKS } from "@/lib/schemas/networks";
import { release, reserve, remainingToday, type Reservation } from "./budget";
import { readPaidCheckConfig, type PaidCheckConfig } from "./config";
import { judgeCall, type DeclaredOutput, type Judgement, type PaidCheckVerdict, type VerdictReason } from "./verdict";

export { PAID_CHECK_VERDICTS, type PaidCheckVerdict } from "./verdict";
export { readPaidCheckConfig, paidCheckStartupNotes, type PaidCheckConfig } from "./config";
export { budgetsToday } from "./budget";

/** Bytes of a paid answer read at most (its schema is not checked beyond). */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A check without a verdict after this long was abandoned (its instance died): closed, its reservation kept. */
const ABANDONED_MINUTES = 10;

export type CheckTarget = { id: string; url: string; method: string; call: EndpointCall | null };

export type CheckResult =
  | { endpointId: string; skipped: "in_flight" | "over_budget" | "not_callable"; verdict?: undefined }
  | { endpointId: string; skipped?: undefined; verdict: PaidCheckVerdict; reason: VerdictReason; network: string; paid: boolean; tx: string | null };

/** The call an example describes: method, URL, body. Null when Capdex cannot make it (MCP tools, form data). */
export function requestOf(t: CheckTarget): { method: string; url: string; body?: string; contentType?: string } | null {
  const call = t.call;
  if (!call || (call.input.kind === "body" && call.input.body_type === "form-data")) return null;
  const r = requestForCall(t.url, { ...call, method: (call.method || t.method || "GET").toUpperCase() });
  if (r.kind === "query") return { method: r.method, url: r.url };
  if (r.kind === "json" || r.kind === "text") return { method: r.method, url: r.url, body: r.body, contentType: r.contentType };
  return null;
}

/** The cheapest exact-scheme offer Capdex can pay: a budgeted network, one of its assets, 6 decimals. */
export function chooseOffer(offers: Offer[], cfg: PaidCheckConfig): { offer: Offer; caip2: string; micros: number } | null {
  let best: { offer: Offer; caip2: string; micros: number } | null = null;
  for (const o of offers) {
    const caip2 = o.networkName ? NETWORKS[o.networkName] : null;
    const net = caip2 ? cfg.networks.get(caip2) : undefined;
    if (!net || o.scheme !== "exact" || o.decimals !== 6 || !net.assets.includes(o.asset.toLowerCase())) continue;
    if (o.amount > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    const micros = Number(o.amount);
    if (!best || micros < best.micros) best = { offer: o, caip2: caip2!, micros };
  }
  return best;
}

const AUTHORIZATION_STATE_ABI = [
  {
    type: "function",
    name: "authorizationState",
    stateMutability: "view",
    inputs: [{ name: "authorizer", type: "address" }, { name: "nonce", type: "bytes32" }],
    outputs: [{ type: "bool" }],
  },
] as const;

type Sent = { payer: string; nonce: string | null; asset: string; amount: string };

/** Whether the chain shows the EIP-3009 authorisation used (the payment settled); null when it cannot tell. */
async function settledOnChain(caip2: string, sent: Sent): Promise<boolean | null> {
  const rpc = rpcClient(caip2);
  if (!rpc || !sent.nonce) return null;
  try {
    return await rpc.client.readContract({
      address: sent.asset as `0x${string}`,
      abi: AUTHORIZATION_STATE_ABI,
      functionName: "authorizationState",
      args: [sent.payer as `0x${string}`, sent.nonce as `0x${string}`],
    });
  } catch {
    return null;
  }
}

function toResponse(r: SafeResponse): Response {
  const nullBody = [101, 103, 204, 205, 304].includes(r.status);
  // Response refuses statuses outside 200-599; such an answer is no answer (judged from the raw one).
  const status = r.status >= 200 && r.status <= 599 ? r.status : 599;
  return new Response(nullBody ? null : new Uint8Array(r.body), { status, headers: r.headers });
}

/** Pays for and judges one call to the endpoint; stores the check. Never throws for the endpoint's faults. */
export async function checkEndpoint(db: Db, t: CheckTarget, cfg: PaidCheckConfig): Promise<CheckResult> {
  const req = requestOf(t);
  if (!req) return { endpointId: t.id, skipped: "not_callable" };
  const claimed = await queryRows<{ id: number }>(
    db,
    sql`insert into paid_checks (endpoint_id, network) values (${t.id}::uuid, '')
        on conflict (endpoint_id) where verdict is null do nothing returning id`,
  );
  if (!claimed.length) return { endpointId: t.id, skipped: "in_flight" };
  const checkId = Number(claimed[0].id);
  const started = performance.now();
  const init = { method: req.method, headers: req.contentType ? { "content-type": req.contentType } : undefined, body: req.body, timeoutMs: cfg.timeoutMs };
  let network = "";
  let reservation: Reservation | null = null;
  let sent: Sent | null = null;
  let last: SafeResponse | null = null;
  const finish = (j: Judgement, extra: { status?: number | null; tx?: string | null; settled?: boolean | null; detail?: Record<string, unknown> } = {}) =>
    store(db, checkId, t.id, cfg, {
      network,
      judgement: j,
      reservation,
      sent,
      status: extra.status ?? null,
      tx: extra.tx ?? null,
      latencyMs: Math.round(performance.now() - started),
      detail: { ...(extra.detail ?? {}), ...(extra.settled !== undefined ? { settled: extra.settled } : {}) },
    });
  try {
    // 1. The unpaid request: its 402 says what to pay.
    let first: SafeResponse;
    try {
      first = await safeFetch(req.url, { ...init, timeoutMs: Math.min(cfg.timeoutMs, 10_000) });
    } catch (err) {
      const code = err instanceof NetError ? err.code : "connection_failed";
      return await finish({ verdict: "unpaid_error", reason: code === "timeout" ? "timeout" : code === "private_address" ? "private_address" : "connection_failed" });
    }
    if (first.status !== 402) return await finish({ verdict: "unpaid_error", reason: "no_challenge" }, { status: first.status });
    const parsed = parseChallenge(first, req.method);
    if (!parsed.ok) return await finish({ verdict: "unpaid_error", reason: "challenge_unusable", problem: parsed.reason }, { status: 402 });
    const chosen = chooseOffer(parsed.challenge.offers, cfg);
    if (!chosen) return await finish({ verdict: "unpaid_error", reason: "no_budgeted_offer" }, { status: 402 });
    network = chosen.caip2;
    const net = cfg.networks.get(chosen.caip2)!;

    // 2. The reservation: nothing is signed unless the day's budget holds the amount.
    reservation = await reserve(db, chosen.caip2, chosen.micros, net.budgetMicros);
    if (!reservation) {
      await db.execute(sql`delete from paid_checks where id = ${checkId}`);
      return { endpointId: t.id, skipped: "over_budget" };
    }

    // 3. The paid call: the client may pay only the chosen offer, at most the reserved amount.
    const rpc = rpcClient(chosen.caip2);
    const asset = chosen.offer.asset.toLowerCase();
    const cap = chosen.offer.amount;
    const transport = async (input: RequestInfo | URL, requestInit?: RequestInit): Promise<Response> => {
      const r = new Request(input, requestInit);
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => (headers[k] = v));
      const signature = headers["payment-signature"] ?? headers["x-payment"];
      if (signature) {
        // One payment per check, whatever the client would retry.
        if (sent) throw new Error("a second payment was attempted");
        sent = sentOf(signature, cfg, asset, cap);
      }
      delete headers["access-control-expose-headers"];
      const body = r.method === "GET" || r.method === "HEAD" ? undefined : new Uint8Array(await r.arrayBuffer());
      last = await safeFetch(r.url, { method: r.method, headers, body: body?.length ? body : undefined, timeoutMs: cfg.timeoutMs, maxBytes: MAX_ANSWER_BYTES });
      return toResponse(last);
    };
    const pay = wrapFetchWithPaymentFromConfig(transport as typeof fetch, {
      schemes: [{ network: chosen.caip2 as `${string}:${string}`, client: new ExactEvmScheme(toClientEvmSigner(cfg.account, rpc?.client as never)) }],
      policies: [
        (_v, reqs) =>
          reqs.filter((r) => {
            const amount = (r as { amount?: string }).amount ?? (r as { maxAmountRequired?: string }).maxAmountRequired ?? "";
            return r.network === chosen.caip2 && r.scheme === "exact" && r.asset.toLowerCase() === asset && /^\d{1,78}$/.test(amount) && BigInt(amount) <= cap;
          }),
      ],
      spendControls: { allowedAssets: [{ network: chosen.caip2 as `${string}:${string}`, asset: chosen.offer.asset, maxAmountPerPayment: cap.toString() }] },
    });
    let answer: Response | null = null;
    let failure: "timeout" | "connection_failed" | null = null;
    let notCreated: string | null = null;
    try {
      answer = await pay(req.url, { method: req.method, headers: req.contentType ? { "content-type": req.contentType } : undefined, body: req.body });
    } catch (err) {
      if (err instanceof NetError) failure = err.code === "timeout" ? "timeout" : "connection_failed";
      else notCreated = err instanceof Error ? err.message.split("\n")[0].slice(0, 200) : "payment failed";
    }
    const sentNow = sent as Sent | null;
    if (!sentNow) {
      // Nothing was signed: the reservation goes back.
      await release(db, reservation);
      reservation = null;
      if (notCreated) return await finish({ verdict: "unpaid_error", reason: "payment_not_created", problem: notCreated });
      if (failure) return await finish({ verdict: "unpaid_error", reason: failure });
      return await finish({ verdict: "unpaid_error", reason: answer?.status === 402 ? "payment_refused" : "no_challenge" }, { status: answer?.status ?? null });
    }
    // 4. Settled? The seller's PAYMENT-RESPONSE, else the chain (a seller may take the money and hide it).
    const lastResponse = last as SafeResponse | null;
    const header = answer?.headers.get("payment-response") ?? answer?.headers.get("x-payment-response") ?? null;
    let tx: string | null = null;
    let settled: boolean | null = null;
    if (header) {
      try {
        const s = decodePaymentResponseHeader(header);
        if (s.success && typeof s.transaction === "string") {
          tx = s.transaction.toLowerCase();
          settled = true;
        }
      } catch {
        // an unreadable header proves nothing
      }
    }
    if (!settled) settled = (await settledOnChain(chosen.caip2, sentNow)) ?? settled;
    const status = answer && lastResponse ? lastResponse.status : null;
    const judgement = judgeCall({
      paymentSent: true,
      settled,
      status,
      error: failure,
      contentType: lastResponse?.headers.get("content-type") ?? null,
      body: answer && lastResponse ? lastResponse.text() : "",
      truncated: lastResponse?.truncated ?? false,
      output: t.call?.output as DeclaredOutput,
    });
    return await finish(judgement, { status, tx, settled });
  } catch (err) {
    // Capdex's own trouble (the database, the RPC): the check is closed unpaid if nothing was signed.
    logger().error({ endpoint_id: t.id, ...errorFields(err) }, "paid check failed");
    if (reservation && !sent) {
      await release(db, reservation).catch(() => {});
      reservation = null;
    }
    return await finish({ verdict: "unpaid_error", reason: sent ? "unsettled_error" : "payment_not_created", problem: "internal error" }).catch(() => ({
      endpointId: t.id,
      skipped: "in_flight" as const,
    }));
  }
}

/** What the signed payment authorised (never the signature itself), checked against what was allowed. */
function sentOf(header: string, cfg: PaidCheckConfig, asset: string, cap: bigint): Sent {
  let auth: { from?: string; nonce?: string; value?: string } = {};
  try {
    const p = decodePaymentSignatureHeader(header) as { payload?: { authorization?: typeof auth } };
    auth = p.payload?.authorization ?? {};
  } catch {
    // kept as unknown below
  }
  if (auth.value !== undefined && /^\d+$/.test(String(auth.value)) && BigInt(auth.value) > cap) throw new Error("the payment exceeds the reservation");
  return { payer: (auth.from ?? cfg.account.address).toLowerCase(), nonce: typeof auth.nonce === "string" ? auth.nonce : null, asset, amount: String(auth.value ?? cap) };
}

type Stored = {
  network: string;
  judgement: Judgement;
  reservation: Reservation | null;
  sent: Sent | null;
  status: number | null;
  tx: string | null;
  latencyMs: number;
  detail: Record<string, unknown>;
};

async function store(db: Db, checkId: number, endpointId: string, cfg: PaidCheckConfig, s: Stored): Promise<CheckResult> {
  const detail = {
    reason: s.judgement.reason,
    ...(s.judgement.problem ? { problem: s.judgement.problem } : {}),
    ...(s.reservation ? { budget_day: s.reservation.day } : {}),
    ...s.detail,
  };
  await db.execute(
    sql`update paid_checks set network = ${s.network || "unknown"}, reserved_micros = ${s.reservation?.micros ?? 0},
          asset = ${s.sent?.asset ?? null}, amount = ${s.sent?.amount ?? null}, payer = ${s.sent ? cfg.account.address.toLowerCase() : null},
          tx = ${s.tx}, verdict = ${s.judgement.verdict}, status_code = ${s.status}, latency_ms = ${s.latencyMs},
          detail = ${JSON.stringify(detail)}::jsonb, checked_at = now()
        where id = ${checkId}`,
  );
  const paid = s.sent !== null && s.judgement.verdict !== "unpaid_error";
  const m = metrics();
  m.paidChecks.inc({ network: s.network || "unknown", verdict: s.judgement.verdict });
  if (s.reservation) m.paidCheckSpent.inc({ network: s.reservation.network }, s.reservation.micros / 1e6);
  if (paid) {
    await summarise(db, endpointId);
    await recordPaidCheckOutcome(db, {
      endpointId,
      success: s.judgement.verdict === "delivered",
      latencyMs: s.latencyMs,
      statusCode: s.status,
      // In the callers' failure words (lib/schemas/outcomes.ts OUTCOME_FAILURES).
      failure: s.judgement.verdict === "delivered" ? null : s.judgement.verdict === "wrong_output" ? "wrong_output" : s.judgement.reason === "timeout" ? "timeout" : "http_error",
    }).catch((err) => logger().error({ endpoint_id: endpointId, ...errorFields(err) }, "paid check outcome not recorded"));
  }
  logger().info(
    { endpoint_id: endpointId, verdict: s.judgement.verdict, reason: s.judgement.reason, network: s.network || null, status: s.status, tx: s.tx, ms: s.latencyMs },
    "paid check",
  );
  return { endpointId, verdict: s.judgement.verdict, reason: s.judgement.reason, network: s.network, paid, tx: s.tx };
}

/** endpoints.delivery from the paid calls (unpaid errors left out) of the 7 days before now. */
async function summarise(db: Db, endpointId: string): Promise<void> {
  await db.execute(
    sql`update endpoints e set delivery = s.v
        from (select jsonb_build_object(
                'checks', count(*)::int,
                'delivered', (count(*) filter (where verdict = 'delivered'))::int,
                'last_check_at', to_char(max(checked_at) at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'last_verdict', (array_agg(verdict order by checked_at desc, id desc))[1]) as v
              from paid_checks
              where endpoint_id = ${endpointId}::uuid and verdict in ('delivered', 'wrong_output', 'paid_not_delivered')
                and checked_at > now() - interval '7 days') s
        where e.id = ${endpointId}::uuid and (s.v->>'checks')::int > 0`,
  );
}

export type PassSummary = { checked: number; delivered: number; wrong_output: number; paid_not_delivered: number; unpaid_error: number; skipped: number; abandoned: number };

/**
 * Endpoints to check now, favouring those discover returned most in the last hour (each endpoint's
 * chance grows with 1 + its picks: weighted sampling without replacement), among listed ones with a
 * usable call on a budgeted network, a listed price within what is left of its budget, no check in
 * flight and none started within the repeat interval.
 */
export async function chooseTargets(db: Db, cfg: PaidCheckConfig, limit = cfg.perRun): Promise<CheckTarget[]> {
  const remaining = await remainingToday(db, new Map([...cfg.networks].map(([k, v]) => [k, v.budgetMicros])));
  const names = [...cfg.networks.values()].filter((n) => (remaining.get(n.caip2) ?? 0) > 0).map((n) => n.name);
  if (!names.length) return [];
  const maxLeftUsd = Math.max(...[...remaining.values()]) / 1e6;
  const rows = await queryRows<{ id: string; url: string; method: string; call: EndpointCall | null }>(
    db,
    sql`with picks as (
          select u.id, count(*)::float8 as n
          from discoveries d cross join lateral unnest(d.endpoint_ids) as u(id)
          where d.created_at > now() - interval '1 hour'
          group by u.id)
        select e.id::text as id, e.url, e.method, e.call
        from endpoints e left join picks p on p.id = e.id
        where e.status = 'listed' and not e.is_demo
          and e.call is not null
          and (e.call->'input'->>'kind' = 'query'
               or (e.call->'input'->>'kind' = 'body' and coalesce(e.call->'input'->>'body_type', 'json') in ('json', 'text')))
          and (e.network = any(${`{${names.join(",")}}`}::text[]) or e.networks && ${`{${names.join(",")}}`}::text[])
          and e.price_per_call <= ${maxLeftUsd}
          and not exists (select 1 from paid_checks c where c.endpoint_id = e.id
                          and (c.verdict is null or c.started_at > now() - ${cfg.repeatMs} * interval '1 millisecond'))
        order by -ln(1 - random()) / (1 + coalesce(p.n, 0))
        limit ${limit}`,
  );
  return rows;
}

/** Closes checks left without a verdict by an instance that died mid-check (their reservations stay spent). */
async function closeAbandoned(db: Db): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update paid_checks set verdict = 'unpaid_error', checked_at = now(),
          detail = coalesce(detail, '{}'::jsonb) || '{"reason":"abandoned"}'::jsonb
        where verdict is null and started_at < now() - ${ABANDONED_MINUTES} * interval '1 minute'
        returning id`,
  );
  return rows.length;
}

/** One pass: up to perRun checks, one at a time (the budget is the limit, not speed). */
export async function runPaidCheckPass(db: Db, opts: { config?: PaidCheckConfig | null; signal?: AbortSignal; limit?: number } = {}): Promise<PassSummary | { off: true }> {
  const cfg = opts.config === undefined ? readPaidCheckConfig().config : opts.config;
  if (!cfg) return { off: true };
  const summary: PassSummary = { checked: 0, delivered: 0, wrong_output: 0, paid_not_delivered: 0, unpaid_error: 0, skipped: 0, abandoned: await closeAbandoned(db) };
  const targets = await chooseTargets(db, cfg, opts.limit ?? cfg.perRun);
  for (const t of targets) {
    if (opts.signal?.aborted) break;
    const r = await checkEndpoint(db, t, cfg);
    if (r.skipped) summary.skipped += 1;
    else {
      summary.checked += 1;
      summary[r.verdict] += 1;
    }
  }
  return summary;
}

/** One endpoint now (the CLI), whatever the schedule says. */
export async function checkEndpointById(db: Db, endpointId: string, cfg: PaidCheckConfig): Promise<CheckResult> {
  const rows = await queryRows<CheckTarget>(db, sql`select id::text as id, url, method, call from endpoints where id = ${endpointId}::uuid and status = 'listed'`);
  if (!rows.length) return { endpointId, skipped: "not_callable" };
  return checkEndpoint(db, rows[0], cfg);
}

export type CheckRow = {
  id: number;
  endpoint_id: string;
  network: string;
  verdict: string | null;
  status_code: number | null;
  amount: string | null;
  tx: string | null;
  reason: string | null;
  checked_at: string | null;
};

/** The latest checks, newest first (the CLI's status). */
export async function recentChecks(db: Db, limit = 20): Promise<CheckRow[]> {
  return queryRows<CheckRow>(
    db,
    sql`select id, endpoint_id::text as endpoint_id, network, verdict, status_code, amount, tx, detail->>'reason' as reason,
               to_char(checked_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as checked_at
        from paid_checks order by started_at desc, id desc limit ${limit}`,
  );
}
