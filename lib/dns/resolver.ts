// The one DNS resolver of Capdex (domain verification and outbound requests alike): Node's resolver
// against DNS_SERVERS (comma-separated host:port) when set, the system's resolvers otherwise.
import { Resolver } from "node:dns/promises";

/** DNS_SERVERS as Node's setServers() wants them ("1.2.3.4:53", "[::1]:5353"). */
export function configuredDnsServers(value = process.env.DNS_SERVERS): string[] | null {
  const list = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : null;
}

/** A resolver with a bounded time per query (timeoutMs per try), so a silent server cannot hang a request. */
export function createResolver(opts: { timeoutMs?: number; tries?: number } = {}): Resolver {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 1500, tries: opts.tries ?? 2 });
  const servers = configuredDnsServers();
  if (servers) resolver.setServers(servers);
  return resolver;
}
