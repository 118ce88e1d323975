// The endpoint page's record: outcome reports of the last 7 days and the latest probes with reasons.
import type { EndpointPage } from "@/lib/portal/endpoint-page";
import { formatAgo, formatInt, formatMs } from "@/lib/portal/format";

export function EndpointHistory({ page, now }: { page: EndpointPage; now: Date }) {
  const r = page.reports;
  const th = "px-3 py-2 text-left font-semibold";
  return (
    <>
      <section aria-labelledby="reports-heading" className="mt-8">
        <h2 id="reports-heading" className="text-xl font-semibold text-slate-950">
          Reports, last 7 days
        </h2>
        <p className="mt-1 text-sm text-slate-800" data-testid="endpoint-reports">
          {formatInt(r.reports)} reports ({formatInt(r.successes)} successful) from {formatInt(r.distinctReporters)} distinct reporters
          {r.paidReports ? `, ${formatInt(r.paidReports)} saying what they paid` : ""}
          {Object.keys(r.failures).length
            ? `; failures: ${Object.entries(r.failures)
                .map(([k, n]) => `${k.replace(/_/g, " ")} ${n}`)
                .join(", ")}`
            : ""}
          . Reports without an API key are counted here but weigh nothing in the ranking.
        </p>
      </section>
      <section aria-labelledby="probes-heading" className="mt-8">
        <h2 id="probes-heading" className="text-xl font-semibold text-slate-950">
          Probe history
        </h2>
        {page.probes.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700">No probes recorded yet{page.provider.isDemo ? " (demo endpoints are not probed)" : ""}.</p>
        ) : (
          <div className="mt-2 overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Probe history">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="probe-history">
              <caption className="sr-only">The latest probes, newest first</caption>
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>When</th>
                  <th scope="col" className={th}>Result</th>
                  <th scope="col" className={th}>Reason</th>
                  <th scope="col" className={th}>HTTP</th>
                  <th scope="col" className={th}>Time</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {page.probes.map((p, i) => (
                  <tr key={i}>
                    <td className="px-3 py-2">{formatAgo(p.checkedAt, now)}</td>
                    <td className="px-3 py-2">{p.ok ? "passed" : "failed"}</td>
                    <td className="px-3 py-2">
                      <a className="text-sky-800 underline" href={`/docs/errors#${p.reason}`}>
                        {p.reason}
                      </a>
                    </td>
                    <td className="px-3 py-2 tabular-nums">{p.statusCode ?? "—"}</td>
                    <td className="px-3 py-2 tabular-nums">{formatMs(p.latencyMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
