// The anonymous caller's address: the TCP peer, or with TRUST_PROXY_HOPS=N the right-most address
// that none of our N proxies vouches for. IPv6 callers are grouped by /64 (one subscriber's network).
//
// `next start` does not hand the socket to route handlers. It sets X-Forwarded-For to the socket's
// address only when the request has none (`req.headers['x-forwarded-for'] ??= socket.remoteAddress`
// in next/dist/server/base-server.js, Next 16.4), so a client that sends its own X-Forwarded-For
// would choose its own address. installPeerStamp() therefore stamps every incoming request with the
// socket's address under a header that carries a per-process secret, which a client cannot forge.
import http from "node:http";
import { randomBytes } from "node:crypto";
import ipaddr from "ipaddr.js";

export const PEER_HEADER = "x-capdex-peer";
type StampState = { token: string };
const globalState = globalThis as unknown as { __capdexPeerStamp?: StampState };

/**
 * Patches the Node HTTP server so each request carries `x-capdex-peer: <token> <socket address>`
 * (any client-sent value is replaced). Idempotent; called once at server start.
 */
export function installPeerStamp(): void {
  if (globalState.__capdexPeerStamp) return;
  const state: StampState = { token: randomBytes(18).toString("base64url") };
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = `${state.token} ${req.socket?.remoteAddress ?? ""}`;
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
  globalState.__capdexPeerStamp = state;
}

/** Number of proxies in front of us whose X-Forwarded-For entries we trust (TRUST_PROXY_HOPS). */
export function trustedHops(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.TRUST_PROXY_HOPS ?? 0);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 10) : 0;
}

/** The verified socket address of a stamped request (the TCP peer), or undefined. */
export function socketPeer(req: Request): string | undefined {
  const state = globalState.__capdexPeerStamp;
  const value = req.headers.get(PEER_HEADER);
  if (!state || !value) return undefined;
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space) !== state.token) return undefined;
  return value.slice(space + 1);
}

/**
 * The caller's address as a rate-limit key part: `203.0.113.7`, `2001:db8:1:2::/64`, or `unknown`.
 * The hop chain is X-Forwarded-For followed by the socket peer; we count N trusted hops from the right.
 */
export function clientAddress(req: Request, hops = trustedHops()): string {
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const peer = socketPeer(req);
  let chain: string[];
  if (peer !== undefined) {
    chain = [...forwarded, peer];
  } else if (globalState.__capdexPeerStamp) {
    // The server is stamping, yet this request has no valid stamp (it arrived before the stamp was
    // installed): its headers are the client's word, so it shares one bucket.
    return "unknown";
  } else {
    // In-process callers (tests, tools): the right-most entry is the one the server itself added.
    chain = forwarded;
  }
  const pick = chain[chain.length - 1 - hops] ?? chain[0];
  return normaliseAddress(pick);
}

/** IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64; anything unparsable as `unknown`. */
export function normaliseAddress(raw: string | undefined): string {
  if (!raw) return "unknown";
  let text = raw.trim();
  // "[2001:db8::1]:443", "203.0.113.7:8080", "fe80::1%eth0"
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, "");
  // ipaddr.js also accepts "1" or "0x7f.1"; only the dotted-quad form is an address a server reports.
  if (!text.includes(":")) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text).toString() : "unknown";
  if (!ipaddr.IPv6.isValid(text)) return "unknown";
  const v6 = ipaddr.IPv6.parse(text);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toString()}/64`).toString()}/64`;
}
