// Rows the outcome tests need: providers (optionally owned by an account), endpoints, accounts with
// API keys, principals and discoveries, inserted directly so each test states exactly what it has.
import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { apiKeys, discoveries, endpoints, providers, users } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";

export async function addProvider(db: Db, opts: { userId?: string; name?: string } = {}): Promise<string> {
  const id = randomUUID();
  await db.insert(providers).values({ id, name: opts.name ?? `Provider ${id.slice(0, 6)}`, userId: opts.userId ?? null });
  return id;
}

export async function addEndpoint(
  db: Db,
  opts: { id?: string; capabilityId?: string; providerId?: string; price?: number; checkState?: string; status?: string } = {},
): Promise<string> {
  const id = opts.id ?? randomUUID();
  const providerId = opts.providerId ?? (await addProvider(db));
  const host = `api-${id.slice(-12)}.example`;
  await db.insert(endpoints).values({
    id,
    capabilityId: opts.capabilityId ?? "weather.current",
    providerId,
    url: `https://${host}/v1/${id}`,
    host,
    domain: host,
    pricePerCall: opts.price ?? 0.001,
    checkState: opts.checkState ?? "verified",
    status: opts.status ?? "listed",
  });
  return id;
}

/**
 * A user with one API key, and the principal a request with that key resolves to (`secret`: the key
 * itself). The account is `ageDays` old (default 30) and has reported on `reportDays` earlier days
 * (default 30): past the new-account discount of lib/outcomes/weights.ts.
 */
export async function addAccount(
  db: Db,
  n: number | string,
  opts: { ageDays?: number; reportDays?: number } = {},
): Promise<Principal & { kind: "authenticated"; secret: string }> {
  const userId = randomUUID();
  const createdAt = new Date(Date.now() - (opts.ageDays ?? 30) * 86_400_000);
  await db.insert(users).values({ id: userId, email: `caller${n}-${userId.slice(0, 6)}@example.com`, createdAt, reportDays: opts.reportDays ?? 30 });
  const apiKeyId = randomUUID();
  const key = `cdx_${randomUUID().replace(/-/g, "")}`;
  await db.insert(apiKeys).values({
    id: apiKeyId,
    userId,
    prefix: key.slice(0, 8),
    hash: createHash("sha256").update(key).digest("hex"),
  });
  return { kind: "authenticated", key: `key:${apiKeyId}`, ip: `198.51.100.${Number(n) % 250}`, apiKeyId, userId, secret: key };
}

export function anonymous(ip: string): Principal {
  return { kind: "anonymous", key: `ip:${ip}`, ip };
}

/** A discovery answer given to `principal`, `minutesAgo` minutes ago, listing `endpointIds`. */
export async function addDiscovery(db: Db, principal: Principal, endpointIds: string[], minutesAgo = 0): Promise<string> {
  const id = randomUUID();
  await db.insert(discoveries).values({
    id,
    capabilityId: "weather.current",
    principalKey: principal.key,
    endpointIds,
    createdAt: sql`now() - ${minutesAgo} * interval '1 minute'` as never,
  });
  return id;
}

export type RollupTotals = { reports: number; successes: number; w_success: number; w_total: number };

/** The rolled-up totals of one endpoint over every hour. */
export async function rollupOf(db: Db, endpointId: string): Promise<RollupTotals> {
  const [r] = await queryRows<RollupTotals>(
    db,
    sql`select coalesce(sum(reports), 0)::int as reports, coalesce(sum(successes), 0)::int as successes,
               coalesce(sum(w_success), 0)::float8 as w_success, coalesce(sum(w_total), 0)::float8 as w_total
        from outcome_rollups where endpoint_id = ${endpointId}::uuid`,
  );
  return { reports: Number(r.reports), successes: Number(r.successes), w_success: Number(r.w_success), w_total: Number(r.w_total) };
}

/** Base weights stored on an endpoint's reports, in insertion order. */
export async function storedWeights(db: Db, endpointId: string): Promise<number[]> {
  const rows = await queryRows<{ weight: number }>(
    db,
    sql`select weight from outcome_reports where endpoint_id = ${endpointId}::uuid order by created_at, id`,
  );
  return rows.map((r) => Number(r.weight));
}
