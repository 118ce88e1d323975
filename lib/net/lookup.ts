// Host name resolution for outbound requests: Capdex's resolver (DNS_SERVERS when set), every answer
// judged before a socket may use it. Plugged into the socket as its `lookup`, so the address that is
// checked is the address that is connected to, at connect time (no DNS rebinding window).
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP } from "node:net";
import type { Resolver } from "node:dns/promises";
import { createResolver } from "@/lib/dns/resolver";
import { judgeAddress } from "./address";
import { NetError } from "./errors";

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** ALLOW_PRIVATE_TARGETS=1 (tests and local development) lifts the public-address rule. */
export function privateTargetsAllowed(): boolean {
  return process.env.ALLOW_PRIVATE_TARGETS === "1";
}

/** Throws private_address unless `address` may be connected to. */
export function assertAllowedAddress(host: string, address: string, allowPrivate = privateTargetsAllowed()): void {
  if (allowPrivate) return;
  const verdict = judgeAddress(address);
  if (!verdict.public) throw new NetError("private_address", `${host} resolves to a non-public address (${verdict.range})`);
}

/**
 * Every A and AAAA address of `host`, each one checked: one non-public answer rejects the host,
 * so a name cannot mix a public address with an internal one and hope for the latter.
 */
export async function resolveChecked(
  host: string,
  opts: { allowPrivate?: boolean; resolver?: Resolver } = {},
): Promise<ResolvedAddress[]> {
  const allowPrivate = opts.allowPrivate ?? privateTargetsAllowed();
  const family = isIP(host);
  if (family) {
    assertAllowedAddress(host, host, allowPrivate);
    return [{ address: host, family: family as 4 | 6 }];
  }
  if (allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) return [{ address: "127.0.0.1", family: 4 }];
  const resolver = opts.resolver ?? createResolver({ timeoutMs: 1500, tries: 2 });
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const found: ResolvedAddress[] = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  if (!found.length) {
    const err = (v4.status === "rejected" ? v4.reason : v6.status === "rejected" ? v6.reason : null) as NodeJS.ErrnoException | null;
    throw new NetError("dns_failed", `${host} did not resolve${err?.code ? ` (${err.code})` : ""}`);
  }
  for (const a of found) assertAllowedAddress(host, a.address, allowPrivate);
  return found;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls sockets that only ever hands out checked addresses. */
export function createGuardedLookup(opts: { allowPrivate: boolean; resolver: Resolver }) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveChecked(hostname, opts).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (!wanted.length) return callback(new NetError("dns_failed", `${hostname} has no IPv${options.family} address`), "");
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0].address, wanted[0].family);
      },
      (err: unknown) => callback(err instanceof NetError ? err : new NetError("dns_failed", String(err)), ""),
    );
  };
}
