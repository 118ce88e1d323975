// The ledger that is Capdex itself: reports and discoveries are stored in a database as the service
// stores them (reportRowOf, the probe row of recordProbeOutcome), at their simulated times, and
// counted by the rollup job's own statement (rollUpReports); the endpoints it marks for recomputing
// are the ones reported as changed. Slow next to MemoryLedger, so the evaluation runs it at a small
// size only (tests/integration/ranking-ledger.test.ts, or --ledger sql).
import { sql } from "drizzle-orm";
import catalogue from "@/lib/registry/capabilities.json";
import { queryRows, type Db } from "@/lib/db/client";
import { reportRowOf, WEIGHTS } from "@/lib/outcomes";
import { rollUpReports } from "@/lib/outcomes/rollup";
import { hourOf, type HourRow, type Ledger, type LedgerSetup, type SimDiscovery, type SimReport } from "./ledger";

const iso = (t: number) => new Date(t).toISOString();

export async function openSqlLedger(db: Db, setup: LedgerSetup): Promise<Ledger> {
  await insertSetup(db, setup);
  return new SqlLedger(db);
}

async function insertSetup(db: Db, setup: LedgerSetup): Promise<void> {
  const cats = (catalogue as { categories: Array<{ id: string; title: string }> }).categories;
  const caps = (catalogue as { capabilities: Array<{ id: string; title: string }> }).capabilities;
  const used = new Set(setup.endpoints.map((e) => e.capabilityId));
  await db.execute(sql`insert into categories (id, title)
    select x.id, x.title from jsonb_to_recordset(${JSON.stringify(cats)}::jsonb) as x(id text, title text) on conflict do nothing`);
  await db.execute(sql`insert into capabilities (id, category_id, title)
    select x.id, split_part(x.id, '.', 1), x.title from jsonb_to_recordset(${JSON.stringify(caps.filter((c) => used.has(c.id)))}::jsonb) as x(id text, title text)
    on conflict do nothing`);
  const users = new Map(setup.accounts.map((a) => [a.userId, a]));
  // Each account signed up when the simulation says, with its history (the new-account discount reads users.created_at and report_days).
  await db.execute(sql`insert into users (id, email, created_at, report_days)
    select x.id, 'sim-' || x.id || '@example.com', x.at, x.days
    from jsonb_to_recordset(${JSON.stringify([...users.values()].map((a) => ({ id: a.userId, at: iso(a.createdAt), days: a.reportDays })))}::jsonb) as x(id text, at timestamptz, days int)`);
  await db.execute(sql`insert into api_keys (id, user_id, prefix, hash)
    select x.id::uuid, x.user_id, 'cdx_sim', md5(x.id) || md5(x.user_id)
    from jsonb_to_recordset(${JSON.stringify(setup.accounts.map((a) => ({ id: a.apiKeyId, user_id: a.userId })))}::jsonb) as x(id text, user_id text)`);
  // One provider per endpoint, owned by the endpoint's owner account.
  const rows = setup.endpoints.map((e) => ({ id: e.id, capability_id: e.capabilityId, price: e.price, owner: e.ownerUserId }));
  await db.execute(sql`with x as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid, capability_id text, price float8, owner text)),
    p as (insert into providers (id, name, user_id) select id, 'Provider ' || id, owner from x returning id)
    insert into endpoints (id, capability_id, provider_id, url, host, domain, price_per_call, check_state)
    select x.id, x.capability_id, x.id, 'https://' || x.id || '.example/v1', x.id || '.example', x.id || '.example', x.price, 'verified'
    from x join p on p.id = x.id`);
}

class SqlLedger implements Ledger {
  private discoveries: SimDiscovery[] = [];
  private reports: SimReport[] = [];
  private hourly = new Map<string, Map<number, HourRow>>();

  constructor(private db: Db) {}

  addDiscovery(d: SimDiscovery): void {
    this.discoveries.push(d);
  }

  addReport(r: SimReport): void {
    this.reports.push(r);
  }

  rows(endpointId: string): Map<number, HourRow> {
    let m = this.hourly.get(endpointId);
    if (!m) this.hourly.set(endpointId, (m = new Map()));
    return m;
  }

  async close(): Promise<void> {}

  async count(): Promise<Set<string>> {
    const discoveries = this.discoveries.splice(0);
    const reports = this.reports.splice(0);
    if (discoveries.length) {
      const rows = discoveries.map((d) => ({ id: d.id, capability_id: d.capabilityId, principal_key: d.principal.key, endpoint_ids: d.endpointIds, at: iso(d.at) }));
      await this.db.execute(sql`insert into discoveries (id, capability_id, principal_key, endpoint_ids, created_at)
        select x.id, x.capability_id, x.principal_key, array(select jsonb_array_elements_text(x.endpoint_ids))::uuid[], x.at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid, capability_id text, principal_key text, endpoint_ids jsonb, at timestamptz)`);
    }
    if (!reports.length) return new Set();
    const rows = reports.map((r) => {
      const body = { endpoint_id: r.endpointId, success: r.success, latency_ms: r.latencyMs ?? undefined, discovery_id: r.discoveryId ?? undefined };
      // A probe's row as recordProbeOutcome stores it; a caller's as recordOutcome does.
      const v = r.principal
        ? reportRowOf(body, r.principal)
        : { endpointId: r.endpointId, success: r.success, latencyMs: r.latencyMs, statusCode: null, discoveryId: null, reporterKind: "probe", reporterKey: "probe", userId: null, weight: WEIGHTS.probe };
      return { id: r.id, endpoint_id: v.endpointId, success: v.success, latency_ms: v.latencyMs, discovery_id: v.discoveryId, reporter_kind: v.reporterKind, reporter_key: v.reporterKey, user_id: v.userId, weight: v.weight, at: iso(r.at) };
    });
    // Verified payment evidence, as verifyPendingEvidence leaves it (written before its report, as the service does).
    const paid = reports.filter((r) => r.principal && r.payment).map((r) => ({ id: r.id, endpoint_id: r.endpointId, payer: r.payment!.wallet, provider: r.payment!.provider, at: iso(r.at) }));
    if (paid.length) {
      await this.db.execute(sql`insert into payment_evidence (report_id, endpoint_id, network, transaction, payer, payer_is_provider, status, checked_at, created_at)
        select x.id, x.endpoint_id, 'eip155:8453', '0x' || replace(x.id::text, '-', ''), x.payer, x.provider, 'verified', x.at, x.at
        from jsonb_to_recordset(${JSON.stringify(paid)}::jsonb) as x(id uuid, endpoint_id uuid, payer text, provider boolean, at timestamptz)`);
    }
    await this.db.execute(sql`insert into outcome_reports (id, endpoint_id, success, latency_ms, discovery_id, reporter_kind, reporter_key, user_id, weight, created_at)
      select x.id, x.endpoint_id, x.success, round(x.latency_ms)::int, x.discovery_id, x.reporter_kind, x.reporter_key, x.user_id, x.weight, x.at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid, endpoint_id uuid, success boolean, latency_ms float8, discovery_id uuid,
             reporter_kind text, reporter_key text, user_id text, weight float8, at timestamptz)`);
    while ((await rollUpReports(this.db)) > 0);
    const from = Math.min(...reports.map((r) => hourOf(r.at)));
    const counted = await queryRows<{ endpoint_id: string; hour: number; reports: number; successes: number; w_success: number; w_total: number; hist: Record<string, number> }>(
      this.db,
      sql`select endpoint_id::text, (extract(epoch from hour) * 1000)::float8 as hour, sum(reports)::int as reports, sum(successes)::int as successes,
                 sum(w_success)::float8 as w_success, sum(w_total)::float8 as w_total, jsonb_agg(latency_hist) as hist
          from outcome_rollups where hour >= ${iso(from)}::timestamptz group by 1, 2`,
    );
    for (const c of counted) {
      const hist = new Map<number, number>();
      for (const h of c.hist as unknown as Array<Record<string, number>>) {
        for (const [k, v] of Object.entries(h)) hist.set(Number(k), (hist.get(Number(k)) ?? 0) + Number(v));
      }
      const hour = Number(c.hour);
      this.rows(c.endpoint_id).set(hour, { hour, reports: Number(c.reports), successes: Number(c.successes), wSuccess: Number(c.w_success), wTotal: Number(c.w_total), hist });
    }
    // The endpoints the rollup marked for recomputing (lib/outcomes/figures.ts), taken as the job takes them.
    const marked = await queryRows<{ id: string }>(this.db, sql`update endpoint_figures set dirty = false where dirty returning endpoint_id::text as id`);
    return new Set(marked.map((m) => m.id));
  }
}
