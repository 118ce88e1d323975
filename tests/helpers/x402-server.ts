// Real x402 providers on a loopback port for tests: each path answers as configured (a v1 or v2
// payment challenge built with the official @x402/core types and header encoder, a plain status, a
// redirect, an oversized body, or nothing at all), and the server counts connections and hits.
// Not the official express/hono middleware: that one asks a facilitator for its supported kinds
// before it will answer, and tests must not reach one.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequiredV1, PaymentRequiredV2 } from "@x402/core/schemas";
import { NETWORKS, type NetworkName } from "@/lib/schemas/networks";
import { USDC_ADDRESSES } from "@/lib/probes/assets";

export type X402Route = RouteKind & {
  /** Wait this long before answering (to make concurrent probes overlap). */
  delayMs?: number;
};

type RouteKind =
  /** 402 with a version 1 challenge in the JSON body; `network` is the friendly name. */
  | { kind: "v1"; network: NetworkName | string; amount: string; asset?: string; extra?: Record<string, unknown> }
  /** 402 with a version 2 challenge in the PAYMENT-REQUIRED header; `network` is a friendly name (sent as CAIP-2). */
  | { kind: "v2"; network: NetworkName | string; amount: string; asset?: string; extra?: Record<string, unknown> }
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "redirect"; status?: number; location: string }
  /** 402 with a body of `bytes` bytes (padding inside a v1 challenge). */
  | { kind: "big"; bytes: number }
  /** Accepts the request and never answers. */
  | { kind: "hang" };

export type X402TestServer = {
  origin: string;
  port: number;
  url(path: string): string;
  route(path: string, route: X402Route): void;
  /** Requests received on a path (any method). */
  hits(path: string): number;
  /** Methods seen on a path, in order. */
  methods(path: string): string[];
  /** TCP connections accepted since start (or reset). */
  connections(): number;
  reset(): void;
  close(): Promise<void>;
};

const PAY_TO = "0x1111111111111111111111111111111111111111";

export function v1Challenge(resource: string, r: { network: string; amount: string; asset?: string; extra?: Record<string, unknown> }): PaymentRequiredV1 {
  return {
    x402Version: 1,
    error: "X-PAYMENT header is required",
    accepts: [
      {
        scheme: "exact",
        network: r.network,
        maxAmountRequired: r.amount,
        asset: r.asset ?? USDC_ADDRESSES[r.network as NetworkName] ?? "0x0000000000000000000000000000000000000001",
        payTo: PAY_TO,
        resource,
        description: "test resource",
        mimeType: "application/json",
        maxTimeoutSeconds: 60,
        extra: r.extra ?? { name: "USD Coin", version: "2" },
      },
    ],
  };
}

export function v2Challenge(resource: string, r: { network: string; amount: string; asset?: string; extra?: Record<string, unknown> }): PaymentRequiredV2 {
  const caip = (NETWORKS as Record<string, string>)[r.network] ?? r.network;
  return {
    x402Version: 2,
    error: "Payment required",
    resource: { url: resource, description: "test resource", mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: caip,
        amount: r.amount,
        asset: r.asset ?? USDC_ADDRESSES[r.network as NetworkName] ?? "0x0000000000000000000000000000000000000001",
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        extra: r.extra ?? { name: "USD Coin", version: "2" },
      },
    ],
  };
}

export async function startX402Server(routes: Record<string, X402Route> = {}): Promise<X402TestServer> {
  const table = new Map(Object.entries(routes));
  const hits = new Map<string, string[]>();
  const sockets = new Set<Socket>();
  let connections = 0;

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.set(path, [...(hits.get(path) ?? []), req.method ?? "?"]);
    req.resume();
    const r = table.get(path);
    const resource = `http://${req.headers.host}${path}`;
    if (!r) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    if (r.delayMs) setTimeout(() => answer(r, resource, res), r.delayMs);
    else answer(r, resource, res);
  });

  const answer = (r: X402Route, resource: string, res: http.ServerResponse) => {
    switch (r.kind) {
      case "v1":
        res.writeHead(402, { "content-type": "application/json" }).end(JSON.stringify(v1Challenge(resource, r)));
        return;
      case "v2":
        res
          .writeHead(402, { "content-type": "application/json", "payment-required": encodePaymentRequiredHeader(v2Challenge(resource, r) as never) })
          .end("{}");
        return;
      case "status":
        res.writeHead(r.status, { "content-type": "application/json", ...r.headers }).end(r.body ?? '{"ok":true}');
        return;
      case "redirect":
        res.writeHead(r.status ?? 302, { location: r.location }).end();
        return;
      case "big": {
        const challenge = v1Challenge(resource, { network: "base", amount: "1000" });
        const padded = JSON.stringify({ ...challenge, padding: "x".repeat(Math.max(0, r.bytes - JSON.stringify(challenge).length - 14)) });
        res.writeHead(402, { "content-type": "application/json" }).end(padded);
        return;
      }
      case "hang":
        return; // never answers; close() drops the socket
    }
  };
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    route: (path, r) => void table.set(path, r),
    hits: (path) => hits.get(path)?.length ?? 0,
    methods: (path) => [...(hits.get(path) ?? [])],
    connections: () => connections,
    reset: () => {
      hits.clear();
      connections = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
