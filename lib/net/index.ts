// The one way Capdex makes outbound HTTP requests (endpoint probes): public addresses only, checked
// when the socket connects; redirects returned, never followed; a total deadline; a capped read.
// node:http rather than fetch: its per-request `lookup` lets us connect to exactly the checked address.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { createResolver } from "@/lib/dns/resolver";
import { NetError, toNetError } from "./errors";
import { createGuardedLookup, privateTargetsAllowed, resolveChecked, type ResolvedAddress } from "./lookup";

export { NetError, type NetErrorCode } from "./errors";
export { isPublicAddress, judgeAddress } from "./address";

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_BYTES = 64 * 1024;
/**
 * Response headers read at most. Above Node's 16 KiB default: a version 2 challenge travels in the
 * PAYMENT-REQUIRED header, base64 JSON with the bazaar declaration (up to 32 KiB of JSON) inside.
 */
export const MAX_HEADER_BYTES = 96 * 1024;
const USER_AGENT = "CapdexProbe/0.1 (+https://github.com/capdex; endpoint check)";

export type SafeFetchInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Total deadline: DNS, connect, TLS, headers and body (default 5 s). */
  timeoutMs?: number;
  /** Bytes of body read at most (default 64 KiB); the rest is never read. */
  maxBytes?: number;
  /** Gives up at once when aborted (rejects with NetError `aborted`). */
  signal?: AbortSignal;
};

export type SafeResponse = {
  url: string;
  status: number;
  headers: Headers;
  /** At most maxBytes of the body. Never hand it to anyone: keep parsed facts only. */
  body: Buffer;
  /** The body was longer than maxBytes and the connection was dropped. */
  truncated: boolean;
  remoteAddress: string | null;
  elapsedMs: number;
  text(): string;
};

/** Parses and checks a URL for outbound use: http(s) only, https unless private targets are allowed. */
export function parseTargetUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new NetError("invalid_url", "not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new NetError("invalid_url", `scheme ${url.protocol} not allowed`);
  if (url.protocol === "http:" && !privateTargetsAllowed()) throw new NetError("insecure_scheme", "only https:// targets are allowed");
  if (url.username || url.password) throw new NetError("invalid_url", "credentials in URL not allowed");
  return url;
}

/** Checks, without connecting, that a URL may be requested now (its host's current addresses). */
export async function assertPublicUrl(input: string | URL): Promise<ResolvedAddress[]> {
  const url = parseTargetUrl(input);
  return resolveChecked(bareHost(url));
}

/** An SSRF-safe request. Resolves with any HTTP status (3xx included); rejects with a NetError. */
export async function safeFetch(input: string | URL, init: SafeFetchInit = {}): Promise<SafeResponse> {
  const started = performance.now();
  const url = parseTargetUrl(input);
  const host = bareHost(url);
  const allowPrivate = privateTargetsAllowed();
  // Sockets skip `lookup` for IP literals, so those are judged here (same rule).
  if (isIP(host)) await resolveChecked(host, { allowPrivate });
  const resolver = createResolver({ timeoutMs: 1500, tries: 2 });
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
  const client = url.protocol === "https:" ? https : http;

  if (init.signal?.aborted) throw new NetError("aborted", "request cancelled before it was sent");
  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const onAbort = () => finish(new NetError("aborted", "request cancelled"));
    const finish = (err: NetError | null, res?: SafeResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      init.signal?.removeEventListener("abort", onAbort);
      if (err) {
        resolver.cancel();
        req.destroy();
        reject(err);
      } else resolve(res!);
    };
    const timer = setTimeout(() => finish(new NetError("timeout", `no complete answer within ${timeoutMs} ms`)), timeoutMs);
    init.signal?.addEventListener("abort", onAbort, { once: true });

    const req = client.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: (init.method ?? "GET").toUpperCase(),
        headers: { "user-agent": USER_AGENT, accept: "application/json", ...init.headers },
        lookup: createGuardedLookup({ allowPrivate, resolver }) as never,
        // A fresh connection per request: no pooled socket skips the connect-time check.
        agent: false,
        maxHeaderSize: MAX_HEADER_BYTES,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () => {
          const body = Buffer.concat(chunks, Math.min(size, maxBytes));
          finish(null, {
            url: url.toString(),
            status: res.statusCode ?? 0,
            headers: toHeaders(res.rawHeaders),
            body,
            truncated,
            remoteAddress: res.socket?.remoteAddress ?? null,
            elapsedMs: Math.round(performance.now() - started),
            text: () => body.toString("utf8"),
          });
        };
        res.on("data", (chunk: Buffer) => {
          if (settled || truncated) return;
          size += chunk.length;
          chunks.push(chunk);
          if (size > maxBytes) {
            truncated = true;
            done();
            res.destroy();
            req.destroy();
          }
        });
        res.on("end", done);
        res.on("error", (err) => finish(toNetError(err)));
      },
    );
    req.on("error", (err) => finish(toNetError(err)));
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

function bareHost(url: URL): string {
  const h = url.hostname.toLowerCase();
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

function toHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // a header value fetch's Headers rejects is simply left out
    }
  }
  return headers;
}
