// A paid x402 resource that really settles, for the loopback payment test: Hono with the official
// @x402/hono middleware, whose facilitator is a local x402Facilitator (@x402/core) with the exact
// EVM scheme of @x402/evm, sending transferWithAuthorization to the local chain from its own
// account; and a client that pays with @x402/fetch.
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { x402Facilitator } from "@x402/core/facilitator";
import { toClientEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactEvmClientScheme } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { paymentMiddleware, x402ResourceServer } from "@x402/hono";
import type { Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { CHAIN_ID, type LocalChain } from "./anvil";

export const NETWORK = `eip155:${CHAIN_ID}` as const;

export type PaidServer = { url: string; close(): Promise<void> };

/** What an honest GET /paid answers: JSON with a temperature. */
export const PAID_OUTPUT_SCHEMA = { type: "object", properties: { temperature_c: { type: "number" } }, required: ["temperature_c"] };

/** The `call` of an endpoint listing GET /paid, as a provider would declare it (lib/schemas/call.ts). */
export function paidResourceCall() {
  return {
    source: "submitted",
    method: "GET",
    input: { kind: "query", example: { city: "Oslo" } },
    output: { type: "json", schema: PAID_OUTPUT_SCHEMA },
    updated_at: new Date().toISOString(),
  };
}

/**
 * What the resource does once paid: `honest` answers its JSON; `garbage` takes the payment and
 * answers JSON of another shape; `fail_after_settling` lets the payment settle, then answers 500
 * without the PAYMENT-RESPONSE header (a seller that takes the money and hides it).
 */
export type PaidAnswer = "honest" | "garbage" | "fail_after_settling";

/** GET /paid on loopback, asking `amount` atomic units of `token` paid to `payTo`. */
export async function startPaidServer(
  chain: LocalChain,
  opts: { token: Address; payTo: Address; amount: string; facilitator: PrivateKeyAccount; answer?: PaidAnswer },
): Promise<PaidServer> {
  const signer = toFacilitatorEvmSigner(Object.assign(chain.wallet(opts.facilitator), { address: opts.facilitator.address }) as never);
  const facilitator = new x402Facilitator().register(NETWORK, new ExactEvmFacilitatorScheme(signer));
  const resourceServer = new x402ResourceServer(facilitator as never).register(NETWORK, new ExactEvmServerScheme());
  const app = new Hono();
  if (opts.answer === "fail_after_settling") {
    // Outside the payment middleware: it has settled by the time this sees the answer.
    app.use(async (c, next) => {
      await next();
      if (c.res.status !== 200) return;
      // Hono copies the old answer's headers onto the new one: the settlement's is taken out again.
      c.res = new Response("internal error", { status: 500, headers: { "content-type": "text/plain" } });
      c.res.headers.delete("payment-response");
      c.res.headers.delete("x-payment-response");
    });
  }
  app.use(
    paymentMiddleware(
      {
        "GET /paid": {
          accepts: {
            scheme: "exact",
            price: { amount: opts.amount, asset: opts.token, extra: { name: "USD Coin", version: "2" } },
            network: NETWORK,
            payTo: opts.payTo,
          },
          description: "a paid test resource",
          mimeType: "application/json",
        },
      } as never,
      resourceServer,
    ),
  );
  app.get("/paid", (c) => (opts.answer === "garbage" ? c.json({ error: "no data today" }) : c.json({ temperature_c: 11 })));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/paid`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Settlement = { status: number; body: unknown; settlement: { success: boolean; transaction: string; network: string; payer?: string } };

/**
 * Calls `url` as a paying client with `payer`'s wallet, willing to pay up to `maxAmount` of `token`
 * (the client's spend controls allow only known assets otherwise); returns the answer and its PAYMENT-RESPONSE.
 */
export async function payAndCall(chain: LocalChain, payer: PrivateKeyAccount, url: string, token: Address, maxAmount: string): Promise<Settlement> {
  const pay = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: NETWORK, client: new ExactEvmClientScheme(toClientEvmSigner(payer, chain.publicClient as never)) }],
    spendControls: { allowedAssets: [{ network: NETWORK, asset: token, maxAmountPerPayment: maxAmount }] },
  });
  const res = await pay(url);
  const header = res.headers.get("payment-response");
  if (!header) throw new Error(`no PAYMENT-RESPONSE (status ${res.status}: ${(await res.text()).slice(0, 300)})`);
  return { status: res.status, body: await res.json(), settlement: decodePaymentResponseHeader(header) };
}
