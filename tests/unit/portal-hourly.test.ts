// The stats page's hourly points: the current hour is partial, and its success rate is never drawn
// from a handful of reports (the chart used to drop to 0% when the hour had begun with a failure).
import { describe, expect, it } from "vitest";
import { isPartialHour, MIN_PARTIAL_HOUR_REPORTS, ratePoints, rateSummary, toPoints } from "@/lib/portal/hourly";
import { formatPercent } from "@/lib/portal/format";

const hour = (iso: string, outcome_reports: number, success_rate: number | null) => ({ hour: iso, discover_requests: 10, outcome_reports, success_rate });
const series = (current: { n: number; rate: number | null }) => [
  hour("2026-03-10T13:00:00.000Z", 300, 0.96),
  hour("2026-03-10T14:00:00.000Z", 0, null),
  hour("2026-03-10T15:00:00.000Z", 280, 0.95),
  hour("2026-03-10T16:00:00.000Z", current.n, current.rate),
];
const AT = "2026-03-10T16:04:10.000Z";

describe("hourly chart points", () => {
  it("knows the hour still under way from the time the statistics were computed", () => {
    expect(isPartialHour("2026-03-10T16:00:00.000Z", AT)).toBe(true);
    expect(isPartialHour("2026-03-10T15:00:00.000Z", AT)).toBe(false);
    expect(isPartialHour("2026-03-10T16:00:00.000Z", "2026-03-10T17:00:00.000Z")).toBe(false);
  });

  it("never draws the current hour at 0% from a few failed reports: it is left out", () => {
    const points = ratePoints(series({ n: 2, rate: 0 }), AT);
    expect(points.at(-1)).toEqual({ label: "this hour so far", value: null, partial: true });
    expect(points.slice(0, 3).map((p) => p.value)).toEqual([0.96, null, 0.95]);
    expect(points.slice(0, 3).every((p) => !p.partial)).toBe(true);
    expect(rateSummary(series({ n: 2, rate: 0 }), AT, formatPercent)).toBe(
      "Latest full hour with reports: 95.0%. This hour so far: 2 reports, too few for a rate.",
    );
    expect(ratePoints(series({ n: 0, rate: null }), AT).at(-1)?.value).toBeNull();
  });

  it("draws the current hour as partial once it has enough reports", () => {
    const rows = series({ n: MIN_PARTIAL_HOUR_REPORTS + 5, rate: 0.8 });
    expect(ratePoints(rows, AT).at(-1)).toEqual({ label: "this hour so far", value: 0.8, partial: true });
    expect(rateSummary(rows, AT, formatPercent)).toBe(`Latest full hour with reports: 95.0%. This hour so far: 80.0% of ${MIN_PARTIAL_HOUR_REPORTS + 5} reports.`);
  });

  it("marks the current hour's counts partial too, and nothing else", () => {
    const points = toPoints(series({ n: 5, rate: 1 }), (h) => h.outcome_reports, AT);
    expect(points.map((p) => p.partial ?? false)).toEqual([false, false, false, true]);
    expect(points.map((p) => p.label)).toEqual(["3 h ago", "2 h ago", "1 h ago", "this hour so far"]);
  });
});
