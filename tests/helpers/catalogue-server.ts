// A facilitator's discovery catalogue on a loopback port, for import tests: `GET /discovery/resources
// ?limit=&offset=` pages of items made on demand by a function (so 25,000 items cost no memory), in
// the x402 v2 shape or the older v1 shape, with ways to misbehave: a malformed page, a 10 MB page,
// a failing or slow page, endless pagination, or offset ignored.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { USDC_ADDRESSES } from "@/lib/probes/assets";

export type Misbehaviour =
  | { kind: "malformed" }
  | { kind: "huge"; bytes: number }
  | { kind: "status"; status: number }
  | { kind: "slow"; ms: number };

export type CatalogueOptions = {
  /** The i-th item (0-based); return undefined past the end. */
  item: (i: number) => unknown;
  total: number;
  version?: 1 | 2;
  /** Largest page it serves, whatever limit asks (default 1000). */
  maxLimit?: number;
  /** Misbehaviour of the page starting at an offset. */
  pages?: Record<number, Misbehaviour>;
  /** Claim this total and serve items forever (endless pagination). */
  endless?: boolean;
  /** Always serve the first page. */
  ignoreOffset?: boolean;
};

export type CatalogueServer = { url: string; requests: Array<{ limit: number; offset: number }>; set(opts: Partial<CatalogueOptions>): void; close(): Promise<void> };

export async function startCatalogueServer(initial: CatalogueOptions): Promise<CatalogueServer> {
  let opts = initial;
  const requests: Array<{ limit: number; offset: number }> = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname !== "/discovery/resources") return void res.writeHead(404).end();
    const limit = Math.min(Number(u.searchParams.get("limit") ?? 100), opts.maxLimit ?? 1000);
    const offset = opts.ignoreOffset ? 0 : Number(u.searchParams.get("offset") ?? 0);
    requests.push({ limit, offset });
    const bad = opts.pages?.[offset];
    if (bad?.kind === "malformed") return void res.writeHead(200, { "content-type": "application/json" }).end('{"items": [ {"resource": ');
    if (bad?.kind === "status") return void res.writeHead(bad.status, { "content-type": "application/json" }).end('{"error":"down"}');
    if (bad?.kind === "huge") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"x402Version":2,"items":[],"padding":"');
      const chunk = "x".repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < bad.bytes) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end('"}');
      };
      return pump();
    }
    const answer = () => {
      const items: unknown[] = [];
      const end = opts.endless ? offset + limit : Math.min(opts.total, offset + limit);
      for (let i = offset; i < end; i++) {
        const it = opts.item(i);
        if (it !== undefined) items.push(it);
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ x402Version: opts.version ?? 2, items, pagination: { limit, offset, total: opts.total } }));
    };
    if (bad?.kind === "slow") setTimeout(answer, bad.ms);
    else answer();
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/discovery/resources`,
    requests,
    set: (o) => void (opts = { ...opts, ...o }),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const PAY_TO = "0x5555555555555555555555555555555555555555";

/** A v2 catalogue item (every field as facilitators send them). */
export function v2Item(resource: string, opts: { description?: string; amount?: string; network?: string; asset?: string; extra?: Record<string, unknown>; serviceName?: string; tags?: string[]; extensions?: unknown } = {}) {
  return {
    resource,
    type: "http",
    x402Version: 2,
    accepts: [
      {
        scheme: "exact",
        network: opts.network ?? "eip155:8453",
        amount: opts.amount ?? "2000",
        asset: opts.asset ?? USDC_ADDRESSES.base,
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        extra: opts.extra ?? { name: "USD Coin", version: "2" },
      },
    ],
    lastUpdated: "2026-01-01T00:00:00.000Z",
    description: opts.description ?? "Current weather conditions for a city",
    ...(opts.serviceName ? { serviceName: opts.serviceName } : {}),
    ...(opts.tags ? { tags: opts.tags } : {}),
    ...(opts.extensions ? { extensions: opts.extensions } : {}),
  };
}

/** A v1 catalogue item: `maxAmountRequired`, a friendly network name, the description on the offer. */
export function v1Item(resource: string, opts: { description?: string; amount?: string; network?: string; outputSchema?: unknown } = {}) {
  return {
    resource,
    type: "http",
    x402Version: 1,
    accepts: [
      {
        scheme: "exact",
        network: opts.network ?? "base",
        maxAmountRequired: opts.amount ?? "2000",
        resource,
        description: opts.description ?? "Current weather conditions for a city",
        mimeType: "application/json",
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        asset: USDC_ADDRESSES.base,
        extra: { name: "USD Coin", version: "2" },
        ...(opts.outputSchema ? { outputSchema: opts.outputSchema } : {}),
      },
    ],
    lastUpdated: "2026-01-01T00:00:00.000Z",
    metadata: {},
  };
}
