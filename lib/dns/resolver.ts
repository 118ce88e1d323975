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

/** What a TXT lookup found: each record as its character strings, or why there is none. */
export type TxtLookup = {
  name: string;
  status: "found" | "no_records" | "nxdomain" | "servfail" | "refused" | "timeout" | "error";
  records: string[][];
};

const TXT_FAILURES: Record<string, TxtLookup["status"]> = {
  ENODATA: "no_records",
  ENOTFOUND: "nxdomain",
  ESERVFAIL: "servfail",
  EREFUSED: "refused",
  ECONNREFUSED: "refused",
  ETIMEOUT: "timeout",
  ECANCELLED: "timeout",
};

/**
 * The TXT records of a name, never taking longer than deadlineMs in all (c-ares backs off between
 * tries, so its own timeout alone does not bound the wait): a silent server answers "timeout".
 */
export async function lookupTxt(name: string, opts: { deadlineMs?: number; resolver?: Resolver } = {}): Promise<TxtLookup> {
  const deadlineMs = opts.deadlineMs ?? 4000;
  const resolver = opts.resolver ?? createResolver({ timeoutMs: Math.min(1500, Math.floor(deadlineMs / 3)), tries: 2 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<TxtLookup>((resolve) => {
    timer = setTimeout(() => {
      resolver.cancel();
      resolve({ name, status: "timeout", records: [] });
    }, deadlineMs);
  });
  const query = resolver.resolveTxt(name).then(
    (records): TxtLookup => ({ name, status: records.length ? "found" : "no_records", records }),
    (err: NodeJS.ErrnoException): TxtLookup => ({ name, status: TXT_FAILURES[err.code ?? ""] ?? "error", records: [] }),
  );
  try {
    return await Promise.race([query, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
