// A realistic x402 resource server for tests: Hono with the official @x402/hono payment middleware,
// the exact EVM scheme of @x402/evm, and bazaar declarations made with @x402/extensions, on a
// loopback port. Its facilitator is an in-process stand-in that supports exact on Base and settles
// nothing (tests never pay), so no test reaches a real facilitator.
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension, declareDiscoveryExtension, type DeclareDiscoveryExtensionInput } from "@x402/extensions/bazaar";
import { paymentMiddleware, x402ResourceServer } from "@x402/hono";

export const HONO_PAY_TO = "0x2222222222222222222222222222222222222222";
const BASE = "eip155:8453";

export type HonoRoute = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  /** "$0.001" */
  price: string;
  description?: string;
  /** The bazaar declaration (declareDiscoveryExtension's input); none when absent. */
  bazaar?: DeclareDiscoveryExtensionInput;
  /** Replace the built declaration by anything at all (invalid or oversized ones). */
  rawBazaar?: unknown;
  /** What a paid call would answer. */
  answer?: unknown;
};

export type HonoX402Server = { origin: string; url(path: string): string; close(): Promise<void> };

const facilitator = {
  verify: async () => ({ isValid: false, invalidReason: "test_facilitator" }),
  settle: async () => ({ success: false, transaction: "", network: BASE, errorReason: "test_facilitator" }),
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: "exact", network: BASE }], extensions: ["bazaar"], signers: {} }),
};

export async function startHonoX402Server(routes: HonoRoute[]): Promise<HonoX402Server> {
  const resourceServer = new x402ResourceServer(facilitator as never)
    .register(BASE, new ExactEvmScheme())
    .registerExtension(bazaarResourceServerExtension);
  const config: Record<string, unknown> = {};
  for (const r of routes) {
    const extensions = r.rawBazaar !== undefined ? { bazaar: r.rawBazaar } : r.bazaar ? declareDiscoveryExtension(r.bazaar) : undefined;
    config[`${r.method} ${r.path}`] = {
      accepts: { scheme: "exact", price: r.price, network: BASE, payTo: HONO_PAY_TO },
      description: r.description ?? `test resource ${r.path}`,
      mimeType: "application/json",
      ...(extensions ? { extensions } : {}),
    };
  }
  const app = new Hono();
  app.use(paymentMiddleware(config as never, resourceServer));
  for (const r of routes) app.on(r.method, r.path, (c) => c.json((r.answer ?? { ok: true }) as never));

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
