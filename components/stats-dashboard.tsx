"use client";
// The live statistics: every figure of GET /api/stats, refreshed every few seconds without a reload
// (paused while the tab is hidden), with the time of the last update.
import { useEffect, useState } from "react";
import { formatInt, formatMs, formatPercent, formatPrice, formatUtcTime } from "@/lib/portal/format";
import type { Stats } from "@/lib/schemas/stats";
import { MIN_PARTIAL_HOUR_REPORTS, rateSummary, ratePoints } from "@/lib/portal/hourly";
import { BarChart, RateChart, toPoints } from "./charts";
import { FigureCard } from "./figure-card";

const EVERY_MS = 5000;

export function StatsDashboard({ initial, titles }: { initial: Stats; titles: Record<string, string> }) {
  const [stats, setStats] = useState(initial);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    async function refresh() {
      if (document.visibilityState === "visible") {
        try {
          const res = await fetch("/api/stats", { cache: "no-store", headers: { Accept: "application/json" } });
          if (!res.ok) throw new Error(String(res.status));
          const next = (await res.json()) as Stats;
          if (!stopped && typeof next.generated_at === "string") {
            setStats(next);
            setFailed(false);
          }
        } catch {
          if (!stopped) setFailed(true);
        }
      }
      if (!stopped) timer = window.setTimeout(refresh, EVERY_MS);
    }
    timer = window.setTimeout(refresh, EVERY_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, []);

  const hourly = stats.hourly;
  const sum = (f: (h: Stats["hourly"][number]) => number) => hourly.reduce((a, h) => a + f(h), 0);
  const peak = (f: (h: Stats["hourly"][number]) => number) => hourly.reduce((a, h) => Math.max(a, f(h)), 0);
  const maxTop = Math.max(1, ...stats.top_capabilities.map((t) => t.discover_requests_7d));

  return (
    <>
      <p className="mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${failed ? "bg-amber-500" : "bg-emerald-600"}`} />
          {failed ? "Could not refresh; retrying" : `Live: updates every ${EVERY_MS / 1000} s`}
        </span>
        <span>
          Last updated <time dateTime={stats.generated_at} data-testid="stats-updated">{formatUtcTime(stats.generated_at)}</time>
        </span>
      </p>

      <section aria-labelledby="s-figures">
        <h2 id="s-figures" className="sr-only">
          Figures
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-4">
          <FigureCard label="Capabilities" value={formatInt(stats.capabilities.total)} note={`${formatInt(stats.capabilities.with_endpoints)} with endpoints`} testId="capabilities-total" />
          <FigureCard label="Endpoints listed" value={formatInt(stats.endpoints.total)} note={`${formatInt(stats.endpoints.verified)} verified · ${formatInt(stats.endpoints.failing)} failing`} testId="endpoints-total" />
          <FigureCard label="Providers" value={formatInt(stats.providers.total)} testId="providers-total" />
          <FigureCard label="Submissions pending" value={formatInt(stats.submissions.pending)} note={`${formatInt(stats.submissions.verified_7d)} verified in 7 d`} testId="submissions-pending" />
          <FigureCard label="Discover requests, 24 h" value={formatInt(stats.discover.requests_24h)} note={`${formatInt(stats.discover.requests_7d)} in 7 d · ${formatPercent(stats.discover.intent_share_7d, 0)} by intent`} testId="discover-24h" />
          <FigureCard label="Outcome reports, 24 h" value={formatInt(stats.outcomes.reports_24h)} note={`${formatInt(stats.outcomes.reports_7d)} in 7 d`} testId="reports-24h" />
          <FigureCard label="Success rate, 7 d" value={formatPercent(stats.outcomes.success_rate_7d)} testId="success-rate-7d" />
          <FigureCard label="p95 latency, 7 d" value={formatMs(stats.outcomes.p95_latency_ms_7d)} testId="p95-7d" />
          <FigureCard
            label="Paid calls, 7 d"
            value={formatInt(stats.outcomes.paid_reports_7d ?? 0)}
            note={`${formatPrice(stats.outcomes.paid_usd_7d ?? 0) === "Free" ? "$0" : formatPrice(stats.outcomes.paid_usd_7d ?? 0)} paid · ${formatInt(stats.outcomes.payers_7d ?? 0)} payers, as reported`}
            testId="payments-7d"
          />
        </dl>
      </section>

      <section aria-labelledby="s-charts" className="mt-10">
        <h2 id="s-charts" className="text-xl font-semibold text-slate-950">
          Last 48 hours
        </h2>
        {hourly.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No hourly data yet.</p>
        ) : (
          <div className="mt-3 grid gap-4 lg:grid-cols-3">
            <figure className="rounded-lg border border-slate-200 p-3">
              <figcaption className="mb-2 flex justify-between text-sm font-medium text-slate-800">
                Discover requests per hour <span className="font-normal text-slate-600">peak {formatInt(peak((h) => h.discover_requests))}</span>
              </figcaption>
              <BarChart
                points={toPoints(hourly, (h) => h.discover_requests, stats.generated_at)}
                title="Discover requests per hour"
                summary={`${formatInt(sum((h) => h.discover_requests))} requests over the last ${hourly.length} hours.`}
              />
            </figure>
            <figure className="rounded-lg border border-slate-200 p-3">
              <figcaption className="mb-2 flex justify-between text-sm font-medium text-slate-800">
                Outcome reports per hour <span className="font-normal text-slate-600">peak {formatInt(peak((h) => h.outcome_reports))}</span>
              </figcaption>
              <BarChart
                points={toPoints(hourly, (h) => h.outcome_reports, stats.generated_at)}
                title="Outcome reports per hour"
                colour="fill-sky-600"
                summary={`${formatInt(sum((h) => h.outcome_reports))} reports over the last ${hourly.length} hours.`}
              />
            </figure>
            <figure className="rounded-lg border border-slate-200 p-3">
              <figcaption className="mb-2 text-sm font-medium text-slate-800">Success rate per hour</figcaption>
              <RateChart
                points={ratePoints(hourly, stats.generated_at)}
                title="Success rate per hour"
                summary={rateSummary(hourly, stats.generated_at, (r) => formatPercent(r))}
              />
            </figure>
          </div>
        )}
        {hourly.length > 0 && (
          <p className="mt-2 text-xs text-slate-600" data-testid="partial-hour-note">
            The last hour is still under way: its bars are lighter, and its success rate is a hollow dot, shown once it has{" "}
            {MIN_PARTIAL_HOUR_REPORTS} reports.
          </p>
        )}
      </section>

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="s-top">
          <h2 id="s-top" className="text-xl font-semibold text-slate-950">
            Top capabilities, 7 days
          </h2>
          {stats.top_capabilities.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No discover requests in the last 7 days.</p>
          ) : (
            <ol className="mt-3 space-y-2">
              {stats.top_capabilities.map((t) => (
                <li key={t.capability_id} className="text-sm">
                  <div className="flex justify-between gap-2">
                    <a className="underline" href={`/capabilities/${t.capability_id}`}>
                      {titles[t.capability_id] ?? t.capability_id}
                    </a>
                    <span className="tabular-nums text-slate-700">{formatInt(t.discover_requests_7d)}</span>
                  </div>
                  <div aria-hidden="true" className="mt-1 h-1.5 rounded bg-slate-100">
                    <div className="h-1.5 rounded bg-indigo-600" style={{ width: `${(100 * t.discover_requests_7d) / maxTop}%` }} />
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby="s-cats">
          <h2 id="s-cats" className="text-xl font-semibold text-slate-950">
            Categories
          </h2>
          {stats.categories.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No categories yet.</p>
          ) : (
            <div className="mt-3 max-h-[26rem] overflow-y-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Categories table">
              <table className="min-w-full divide-y divide-slate-200 text-sm">
                <thead className="sticky top-0 bg-slate-50">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Category
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      Capabilities
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      Endpoints
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {stats.categories.map((c) => (
                    <tr key={c.id}>
                      <td className="px-3 py-1.5">
                        <a className="underline" href={`/capabilities?category=${c.id}`}>
                          {titles[`category:${c.id}`] ?? c.id}
                        </a>
                      </td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{c.capabilities}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{c.endpoints}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
