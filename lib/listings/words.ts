// A listing's state in plain words, for the /providers/status page ("listed under weather.current
// since ...", "not listed: the last 3 checks got HTTP 200 instead of 402 (last at ...)").
import type { Listing } from "@/lib/schemas/listing-status";
import { LISTING_REASONS, reasonOfProbe } from "./reasons";

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function probeWords(p: NonNullable<Listing["last_probe"]>): string {
  const reason = reasonOfProbe(p.reason);
  if (reason === "probe_no_402" && p.status !== null) return `got HTTP ${p.status} instead of 402`;
  if (reason === "probe_unreachable") return `could not reach it (${p.reason.replace(/_/g, " ")})`;
  return reason ? LISTING_REASONS[reason].title.toLowerCase() : p.reason.replace(/_/g, " ");
}

export function describeListing(l: Listing): string {
  const from = l.source === "submission" ? "" : ` (imported from ${l.source})`;
  switch (l.state) {
    case "listed": {
      const head = `Listed under ${l.capability_id} since ${when(l.since)}${from}.`;
      if (!l.last_probe) return `${head} Not probed yet.`;
      return l.last_probe.passed
        ? `${head} The last check passed (${when(l.last_probe.at)}).`
        : `${head} The last check ${probeWords(l.last_probe)} (${when(l.last_probe.at)}); ${3 - l.last_probe.consecutive_failures} more failure(s) and it stops being ranked.`;
    }
    case "failing":
      return `Not listed: the last ${l.last_probe?.consecutive_failures ?? 3} checks ${l.last_probe ? probeWords(l.last_probe) : "failed"} (last at ${l.last_probe ? when(l.last_probe.at) : "?"})${from}.`;
    case "delisted":
      return `Delisted since ${when(l.since)}${from}: ${l.reasons[0] ? LISTING_REASONS[l.reasons[0] as keyof typeof LISTING_REASONS].title.toLowerCase() : "no longer listed"}.`;
    case "unmapped":
      return `Found in catalogue ${l.source}, waiting for a capability (first seen ${when(l.since)}, last seen ${l.last_seen_in_source ? when(l.last_seen_in_source) : "?"}).`;
    case "held_back":
      return `Found in catalogue ${l.source}, held back: ${l.reasons[0] ? LISTING_REASONS[l.reasons[0] as keyof typeof LISTING_REASONS].title.replace(/^Held back: /, "").toLowerCase() : "noise"} (last seen ${l.last_seen_in_source ? when(l.last_seen_in_source) : "?"}).`;
    case "ignored":
      return `Found in catalogue ${l.source}; an operator chose to keep it out.`;
    case "pending_verification":
      return `Submitted for ${l.capability_id} on ${when(l.since)}; waiting for its DNS TXT record.`;
    case "pending_capability":
      return `Submitted for the proposed capability ${l.capability_id} on ${when(l.since)}; the domain is proven, and it is listed once an operator accepts the capability.`;
    case "expired":
      return `A submission for ${l.capability_id} expired (${when(l.since)}): its DNS record was not found within 7 days.`;
    case "rejected":
      return `A submission for ${l.capability_id} was rejected (${when(l.since)}).`;
  }
}
