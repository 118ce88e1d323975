// What Capdex knows of one URL (GET /api/listing_status, the /providers/status page): its endpoints,
// the catalogue items that list it, and the submissions of it, each with a state, stable reasons and
// next steps. Read over submissions, probes and imports; never written by them. Never contact e-mails.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import type { Listing, ListingStatus } from "@/lib/schemas/listing-status";
import { NOISE_REASONS, type NoiseReason } from "@/lib/imports/noise";
import type { DeliveryValue } from "@/lib/db/schema";
import { deliveryOf } from "@/lib/discovery/rank";
import { LISTING_REASONS, reasonOfProbe, type ListingReason } from "./reasons";

const isNoise = (r: string | null): r is NoiseReason => NOISE_REASONS.includes(r as NoiseReason);

/** The URL and the forms it may be stored under: scheme and host case, default port, trailing slash. */
export function urlVariants(input: string): { url: string; variants: string[] } {
  const u = new URL(input.trim());
  u.hash = "";
  const url = u.href;
  const variants = new Set([url]);
  if (u.pathname.length > 1 && u.pathname.endsWith("/")) {
    u.pathname = u.pathname.replace(/\/+$/, "");
    variants.add(u.href);
  } else if (!u.pathname.endsWith("/")) {
    u.pathname = `${u.pathname}/`;
    variants.add(u.href);
  }
  return { url, variants: [...variants] };
}

const iso = (d: string | Date) => new Date(d).toISOString();
const arr = (xs: string[]) => sql`${`{${xs.map((x) => `"${x.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`}::text[]`;

type EndpointRow = {
  id: string; capability_id: string; status: string; check_state: string; source: string; domain_verified: boolean; created_at: string | Date;
  last_check_at: string | Date | null; last_check_ok: boolean | null; last_check_reason: string | null; last_check_status: number | null;
  consecutive_failures: number; call_source: string | null; declaration_reason: string | null; submission_status: string | null;
  item_state: string | null; item_reason: string | null; item_missed: number | null; item_last_seen: string | Date | null; updated_at: string | Date;
  delivery: DeliveryValue | string | null;
};
type ItemRow = { id: string; source_host: string; state: string; reason: string | null; capability_id: string | null; candidates: Array<{ capability_id: string; confidence: number }> | null; first_seen_at: string | Date; last_seen_at: string | Date };
type SubmissionRow = { id: string; status: string; capability_id: string; created_at: string | Date; updated_at: string | Date; last_check: { reason?: string; detail?: string } | null };

function steps(reasons: ListingReason[], extra: string[] = []): string[] {
  return [...reasons.map((r) => LISTING_REASONS[r].help), ...extra];
}

export async function getListingStatus(db: Db, input: string): Promise<ListingStatus> {
  const { url, variants } = urlVariants(input);
  const [eps, items, subs] = await Promise.all([
    queryRows<EndpointRow>(
      db,
      sql`select e.id::text as id, e.capability_id, e.status, e.check_state, e.source, e.domain_verified, e.created_at, e.updated_at,
                 e.last_check_at, e.last_check_ok, e.last_check_reason, e.last_check_status, e.consecutive_failures,
                 e.call->>'source' as call_source, e.declaration_issue->>'reason' as declaration_reason, e.delivery,
                 s.status as submission_status, i.state as item_state, i.reason as item_reason, i.missed_runs as item_missed, i.last_seen_at as item_last_seen
          from endpoints e
          left join submissions s on s.id = e.submission_id
          left join import_items i on i.url = e.url and i.source_host = e.source
          where e.url = any(${arr(variants)})
          order by e.created_at, e.id`,
    ),
    queryRows<ItemRow>(
      db,
      sql`select id::text as id, source_host, state, reason, capability_id, candidates, first_seen_at, last_seen_at
          from import_items where url = any(${arr(variants)}) and endpoint_id is null and state in ('unmapped', 'ignored', 'held_back')
          order by first_seen_at, id`,
    ),
    queryRows<SubmissionRow>(
      db,
      sql`select id::text as id, status, capability_id, created_at, updated_at, last_check from submissions
          where endpoint_url = any(${arr(variants)}) and status <> 'verified' order by created_at desc limit 10`,
    ),
  ]);

  const listings: Listing[] = [];
  for (const e of eps) {
    const imported = e.source !== "submission";
    const probeReason = e.last_check_at && !e.last_check_ok ? reasonOfProbe(e.last_check_reason) : null;
    const reasons: ListingReason[] = [];
    let state: Listing["state"];
    if (e.status === "delisted") {
      state = e.item_state === "ignored" ? "ignored" : "delisted";
      if (e.item_state === "ignored") reasons.push("ignored_by_operator");
      else if (e.submission_status === "rejected") reasons.push("rejected_by_operator");
      else if (e.item_state === "held_back" && isNoise(e.item_reason)) reasons.push(e.item_reason);
      else if (e.item_state === "unmapped") reasons.push("unmapped_capability");
      else if ((e.item_missed ?? 0) >= 3) reasons.push("dropped_by_source");
    } else {
      state = e.check_state === "failing" ? "failing" : "listed";
      if (!imported && !e.domain_verified) reasons.push("dns_record_missing");
      if (probeReason) reasons.push(probeReason);
      if (imported && !e.last_check_at) reasons.push("awaiting_first_probe");
      if (imported && !e.domain_verified) reasons.push("domain_not_claimed");
    }
    const delivery = deliveryOf((typeof e.delivery === "string" ? JSON.parse(e.delivery) : e.delivery) as DeliveryValue | null);
    if (e.status !== "delisted" && delivery?.last_verdict === "paid_not_delivered") reasons.push("paid_call_not_delivered");
    if (e.status !== "delisted" && delivery?.last_verdict === "wrong_output") reasons.push("paid_call_wrong_output");
    if (e.declaration_reason === "declaration_invalid" || e.declaration_reason === "declaration_too_large") reasons.push(e.declaration_reason);
    listings.push({
      endpoint_id: e.id,
      submission_id: null,
      capability_id: e.capability_id,
      state,
      source: e.source,
      domain_verified: e.domain_verified,
      since: iso(state === "listed" ? e.created_at : e.updated_at),
      last_probe: e.last_check_at
        ? { at: iso(e.last_check_at), passed: Boolean(e.last_check_ok), reason: e.last_check_reason ?? "unknown", status: e.last_check_status, consecutive_failures: Number(e.consecutive_failures) }
        : null,
      last_seen_in_source: e.item_last_seen ? iso(e.item_last_seen) : null,
      call_declared: e.call_source === "declared",
      delivery,
      reasons,
      next_steps: steps(reasons),
    });
  }
  for (const i of items) {
    const reason: ListingReason = i.state === "ignored" ? "ignored_by_operator" : i.state === "held_back" && isNoise(i.reason) ? i.reason : "unmapped_capability";
    const candidates = (i.candidates ?? []).map((c) => `${c.capability_id} (${c.confidence.toFixed(2)})`).join(", ");
    listings.push({
      endpoint_id: null,
      submission_id: null,
      capability_id: null,
      state: i.state === "ignored" ? "ignored" : i.state === "held_back" ? "held_back" : "unmapped",
      source: i.source_host,
      domain_verified: false,
      since: iso(i.first_seen_at),
      last_probe: null,
      last_seen_in_source: iso(i.last_seen_at),
      call_declared: false,
      delivery: null,
      reasons: [reason],
      next_steps: steps([reason], reason === "unmapped_capability" && candidates ? [`Closest capabilities: ${candidates}.`] : []),
    });
  }
  for (const s of subs) {
    const why = s.last_check?.reason;
    const reason: ListingReason =
      s.status === "pending_verification"
        ? "dns_record_missing"
        : s.status === "pending_capability"
          ? "pending_capability"
          : s.status === "expired"
            ? "challenge_expired"
            : why === "already_listed" || why === "capability_rejected"
              ? why
              : "rejected_by_operator";
    listings.push({
      endpoint_id: null,
      submission_id: s.id,
      capability_id: s.capability_id,
      state: s.status as Listing["state"],
      source: "submission",
      domain_verified: false,
      since: iso(s.status === "pending_verification" ? s.created_at : s.updated_at),
      last_probe: null,
      last_seen_in_source: null,
      call_declared: false,
      delivery: null,
      reasons: [reason],
      next_steps: steps([reason], s.status === "pending_verification" && s.last_check?.detail ? [`Last DNS check: ${s.last_check.detail}`] : []),
    });
  }
  return { url, known: listings.length > 0, listings };
}
