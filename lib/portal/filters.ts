// The capability page's endpoint filters: URL parameters -> a POST /discover body, checked with the
// API's own schema so the page and the API accept and refuse the same things.
import type { DiscoverBody } from "@/lib/schemas/discover";
import { discoverBodySchema } from "@/lib/schemas/discover";
import { firstParam, type SearchParams } from "./params";

export type FilterValues = { max_price: string; network: string; verified_only: boolean; preset: string };
export type FilterResult =
  | { active: false; values: FilterValues; body: DiscoverBody; errors: Record<string, string> }
  | { active: true; values: FilterValues; body: DiscoverBody | null; errors: Record<string, string> };

const FIELD_OF: Record<string, keyof FilterValues> = {
  "constraints.max_price": "max_price",
  "constraints.network": "network",
  "constraints.verified_only": "verified_only",
  "preferences.ranking_preset": "preset",
};

export function readFilters(capabilityId: string, sp: SearchParams): FilterResult {
  const values: FilterValues = {
    max_price: firstParam(sp.max_price)?.trim() ?? "",
    network: firstParam(sp.network)?.trim() ?? "",
    verified_only: ["1", "on", "true"].includes(firstParam(sp.verified_only) ?? ""),
    preset: firstParam(sp.preset)?.trim() ?? "",
  };
  const active = Boolean(values.max_price || values.network || values.verified_only || (values.preset && values.preset !== "default"));
  const errors: Record<string, string> = {};
  const constraints: Record<string, unknown> = {};
  if (values.max_price) {
    const n = Number(values.max_price);
    if (!Number.isFinite(n)) errors.max_price = "Must be a number (USD per call).";
    else constraints.max_price = n;
  }
  if (values.network) constraints.network = values.network;
  if (values.verified_only) constraints.verified_only = true;
  const raw = {
    capability_id: capabilityId,
    ...(Object.keys(constraints).length ? { constraints } : {}),
    preferences: { ...(values.preset ? { ranking_preset: values.preset } : {}), limit: 20, include_fallbacks: true },
  };
  const parsed = discoverBodySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[issue.path.join(".")];
      if (field && !errors[field]) errors[field] = issue.message;
    }
    if (!Object.keys(errors).length) errors.form = parsed.error.issues[0]?.message ?? "These filters are not valid.";
  }
  const body = parsed.success && !Object.keys(errors).length ? parsed.data : null;
  if (!active) return { active, values, body: body ?? (raw as DiscoverBody), errors };
  return { active, values, body, errors };
}

/** The body an agent would send for the same view (without the portal's own limit). */
export function agentBody(body: DiscoverBody): Record<string, unknown> {
  const { preferences, ...rest } = body;
  const prefs = { ...(preferences ?? {}) };
  delete prefs.limit;
  delete prefs.include_fallbacks;
  return { ...rest, ...(Object.keys(prefs).length ? { preferences: prefs } : {}) };
}
