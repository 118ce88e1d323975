// The operator's settings of paid test calls (docs/paid-checks.md), read from the environment:
// the wallet's key (CAPDEX_PAID_CHECK_KEY, or a file named by CAPDEX_PAID_CHECK_KEY_FILE), a daily
// budget in US dollars per network (CAPDEX_PAID_CHECK_BUDGETS) and the RPC of each network
// (CAPDEX_RPC_URLS, lib/payments/rpc.ts). Off unless a key and at least one usable budget are set.
// The key is turned into a viem account here and never leaves this module as text: problems name
// the variable, never its value.
import { readFileSync } from "node:fs";
import { numberSetting } from "@/lib/env";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { rpcUrls } from "@/lib/payments/rpc";
import { USDC_ADDRESSES } from "@/lib/probes/assets";
import { NETWORKS, normalizeNetwork, type NetworkName } from "@/lib/schemas/networks";

export type PaidCheckNetwork = {
  name: NetworkName;
  caip2: string;
  /** The day's budget, in millionths of a US dollar. */
  budgetMicros: number;
  /** Lower-case contract addresses of the assets Capdex pays in there (USDC, and CAPDEX_PAID_CHECK_ASSETS). */
  assets: string[];
};

export type PaidCheckConfig = {
  account: PrivateKeyAccount;
  /** By CAIP-2 id; only networks with a budget above 0, a known asset and an RPC. */
  networks: Map<string, PaidCheckNetwork>;
  /** How often the job runs (CAPDEX_PAID_CHECK_EVERY_MS, default 15 minutes). */
  everyMs: number;
  /** Checks per run at most (CAPDEX_PAID_CHECK_PER_RUN, default 3). */
  perRun: number;
  /** An endpoint is paid for again at most this often (CAPDEX_PAID_CHECK_REPEAT_HOURS, default 24). */
  repeatMs: number;
  /** Deadline of the paid call (CAPDEX_PAID_CHECK_TIMEOUT_MS, default 15 s). */
  timeoutMs: number;
};

/** The environment, or any stand-in for it (tests, the CLI). */
export type Env = Record<string, string | undefined>;

export type ConfigResult = { config: PaidCheckConfig | null; problems: string[] };

const num = (v: string | undefined, fallback: number, min: number, max: number) => numberSetting(v, fallback, { min, max });

/** Everything the job runs on (not the key itself): safe to compute at start-up for the warnings. */
export function jobEveryMs(env: Env = process.env): number {
  return num(env.CAPDEX_PAID_CHECK_EVERY_MS, 15 * 60_000, 1_000, 24 * 3_600_000);
}

function readKey(env: Env, problems: string[]): PrivateKeyAccount | null {
  let raw = env.CAPDEX_PAID_CHECK_KEY?.trim() ?? "";
  let from = "CAPDEX_PAID_CHECK_KEY";
  if (!raw && env.CAPDEX_PAID_CHECK_KEY_FILE?.trim()) {
    from = "CAPDEX_PAID_CHECK_KEY_FILE";
    try {
      raw = readFileSync(env.CAPDEX_PAID_CHECK_KEY_FILE.trim(), "utf8").trim();
    } catch {
      problems.push("CAPDEX_PAID_CHECK_KEY_FILE cannot be read");
      return null;
    }
  }
  if (!raw) return null;
  const hex = raw.startsWith("0x") ? raw : `0x${raw}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) {
    problems.push(`${from} is not a 32-byte hex private key`);
    return null;
  }
  try {
    return privateKeyToAccount(hex as `0x${string}`);
  } catch {
    problems.push(`${from} is not a valid secp256k1 private key`);
    return null;
  }
}

/** `network=usd,...`: budgets per network in millionths of a dollar (bad pairs reported, left out). */
export function parseBudgets(value: string | undefined, problems: string[] = []): Map<NetworkName, number> {
  const out = new Map<NetworkName, number>();
  for (const part of (value ?? "").split(",")) {
    if (!part.trim()) continue;
    const i = part.indexOf("=");
    const name = i > 0 ? normalizeNetwork(part.slice(0, i)) : null;
    const usd = i > 0 ? Number(part.slice(i + 1).trim()) : NaN;
    if (!name || !Number.isFinite(usd) || usd < 0 || usd > 1_000_000) {
      // The value is not echoed: whatever was pasted there by mistake stays out of the log.
      problems.push("CAPDEX_PAID_CHECK_BUDGETS: a pair is not network=dollars (e.g. base=5.00); it is left out");
      continue;
    }
    out.set(name, Math.floor(usd * 1_000_000 + 1e-6));
  }
  return out;
}

/** `network=0xasset,...`: more assets (6 decimals, counted as dollars) to pay in, for test networks. */
function parseAssets(value: string | undefined, problems: string[]): Map<NetworkName, string[]> {
  const out = new Map<NetworkName, string[]>();
  for (const part of (value ?? "").split(",")) {
    if (!part.trim()) continue;
    const i = part.indexOf("=");
    const name = i > 0 ? normalizeNetwork(part.slice(0, i)) : null;
    const asset = i > 0 ? part.slice(i + 1).trim().toLowerCase() : "";
    if (!name || !/^0x[0-9a-f]{40}$/.test(asset)) {
      problems.push("CAPDEX_PAID_CHECK_ASSETS: a pair is not network=0xaddress; it is left out");
      continue;
    }
    out.set(name, [...(out.get(name) ?? []), asset]);
  }
  return out;
}

/** Reads the settings; `config` is null when paid checks are off (no key, no usable budget). */
export function readPaidCheckConfig(env: Env = process.env): ConfigResult {
  const problems: string[] = [];
  const keySet = Boolean(env.CAPDEX_PAID_CHECK_KEY?.trim() || env.CAPDEX_PAID_CHECK_KEY_FILE?.trim());
  const budgetsSet = Boolean(env.CAPDEX_PAID_CHECK_BUDGETS?.trim());
  if (!keySet && !budgetsSet) return { config: null, problems };
  const account = readKey(env, problems);
  if (!keySet) problems.push("CAPDEX_PAID_CHECK_BUDGETS is set but no CAPDEX_PAID_CHECK_KEY (or _FILE): paid checks are off");
  const budgets = parseBudgets(env.CAPDEX_PAID_CHECK_BUDGETS, problems);
  if (keySet && !budgetsSet) problems.push("CAPDEX_PAID_CHECK_KEY is set but CAPDEX_PAID_CHECK_BUDGETS is empty: paid checks are off");
  const extra = parseAssets(env.CAPDEX_PAID_CHECK_ASSETS, problems);
  const rpc = rpcUrls(env.CAPDEX_RPC_URLS);
  const networks = new Map<string, PaidCheckNetwork>();
  for (const [name, budgetMicros] of budgets) {
    const caip2 = NETWORKS[name];
    if (!caip2.startsWith("eip155:")) {
      problems.push(`CAPDEX_PAID_CHECK_BUDGETS: ${name} is not an EVM network; only EVM networks can be paid on`);
      continue;
    }
    if (!rpc.has(caip2)) {
      problems.push(`CAPDEX_PAID_CHECK_BUDGETS: ${name} has no RPC in CAPDEX_RPC_URLS; it is left out`);
      continue;
    }
    if (budgetMicros <= 0) continue;
    const usdc = USDC_ADDRESSES[name]?.toLowerCase();
    const assets = [...new Set([...(usdc ? [usdc] : []), ...(extra.get(name) ?? [])])];
    networks.set(caip2, { name, caip2, budgetMicros, assets });
  }
  if (!account || !networks.size) return { config: null, problems };
  return {
    config: {
      account,
      networks,
      everyMs: jobEveryMs(env),
      perRun: Math.floor(num(env.CAPDEX_PAID_CHECK_PER_RUN, 3, 1, 100)),
      repeatMs: num(env.CAPDEX_PAID_CHECK_REPEAT_HOURS, 24, 0, 24 * 30) * 3_600_000,
      timeoutMs: num(env.CAPDEX_PAID_CHECK_TIMEOUT_MS, 15_000, 1_000, 60_000),
    },
    problems,
  };
}

/** The start-up lines about paid checks: whether they are on, and what is wrong (never the key). */
export function paidCheckStartupNotes(env: Env = process.env): { info: string | null; warnings: string[] } {
  const { config, problems } = readPaidCheckConfig(env);
  if (!config) return { info: null, warnings: problems };
  const nets = [...config.networks.values()].map((n) => `${n.name}=$${(n.budgetMicros / 1e6).toFixed(2)}/day`).join(", ");
  return { info: `paid test calls on from ${config.account.address}: ${nets}`, warnings: problems };
}
