// The stats page's hourly series as chart points. The last hour of GET /api/stats is the current
// one, still under way: its counts are partial and its success rate rests on whatever few reports
// have come in, so it is marked partial, and its rate is left out until it has enough reports to
// mean something. A partial hour is never drawn as a drop, least of all as 0%.
import type { Stats } from "@/lib/schemas/stats";

export type Point = { label: string; value: number | null; partial?: boolean };
type Hour = Stats["hourly"][number];

/** The current hour's rate is drawn only from this many reports on (a full hour is always drawn). */
export const MIN_PARTIAL_HOUR_REPORTS = 20;
const HOUR_MS = 3_600_000;

/** True when the hour had not ended when the statistics were computed. */
export function isPartialHour(hour: string, generatedAt: string): boolean {
  return Date.parse(hour) + HOUR_MS > Date.parse(generatedAt);
}

/** Points labelled by age ("47 h ago" .. "this hour"), which reads the same in every time zone. */
export function toPoints(rows: Hour[], pick: (r: Hour) => number | null, generatedAt?: string): Point[] {
  return rows.map((r, i) => {
    const ago = rows.length - 1 - i;
    const partial = generatedAt !== undefined && isPartialHour(r.hour, generatedAt);
    return { label: ago === 0 ? (partial ? "this hour so far" : "this hour") : `${ago} h ago`, value: pick(r), ...(partial ? { partial } : {}) };
  });
}

/** Success-rate points: the current hour's is marked partial, and left out while it has few reports. */
export function ratePoints(rows: Hour[], generatedAt: string): Point[] {
  return toPoints(
    rows,
    (h) => (isPartialHour(h.hour, generatedAt) && h.outcome_reports < MIN_PARTIAL_HOUR_REPORTS ? null : h.success_rate),
    generatedAt,
  );
}

/** The chart's text summary: the latest full hour, and the current hour so far when it counts. */
export function rateSummary(rows: Hour[], generatedAt: string, percent: (r: number | null) => string): string {
  const full = [...rows].reverse().find((h) => !isPartialHour(h.hour, generatedAt) && h.success_rate !== null);
  const current = rows.find((h) => isPartialHour(h.hour, generatedAt));
  const parts = [`Latest full hour with reports: ${percent(full?.success_rate ?? null)}.`];
  if (current) {
    parts.push(
      current.outcome_reports >= MIN_PARTIAL_HOUR_REPORTS && current.success_rate !== null
        ? `This hour so far: ${percent(current.success_rate)} of ${current.outcome_reports} reports.`
        : `This hour so far: ${current.outcome_reports} report${current.outcome_reports === 1 ? "" : "s"}, too few for a rate.`,
    );
  }
  return parts.join(" ");
}
