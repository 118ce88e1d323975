// The latest run of each imported catalogue, from GET /api/stats's `imports`: what it saw, listed,
// left unmapped and skipped (by reason).
import type { Stats } from "@/lib/schemas/stats";

export function ImportRuns({ runs }: { runs: Stats["imports"] }) {
  if (!runs.length) return null;
  const th = "px-3 py-2 text-left font-semibold whitespace-nowrap";
  const td = "px-3 py-2 align-top tabular-nums";
  return (
    <section aria-labelledby="imports-h" className="mt-10">
      <h2 id="imports-h" className="text-xl font-semibold text-slate-950">
        Catalogue imports
      </h2>
      <p className="mt-1 text-sm text-slate-700">The latest run of each x402 facilitator catalogue Capdex imports; bad items are skipped and counted.</p>
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Catalogue imports">
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="import-runs">
          <thead className="bg-slate-50 text-slate-800">
            <tr>
              {["Source", "Status", "Finished", "Seen", "New", "Updated", "Unmapped", "Delisted", "Skipped", "Time"].map((h) => (
                <th key={h} scope="col" className={th}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {runs.map((r) => (
              <tr key={r.source}>
                <td className={`${td} max-w-[18rem] break-all font-mono text-xs`}>{r.source}</td>
                <td className={td}>{r.status}</td>
                <td className={`${td} whitespace-nowrap`}>{r.finished_at ? `${r.finished_at.slice(0, 16).replace("T", " ")} UTC` : "running"}</td>
                <td className={td}>{r.seen}</td>
                <td className={td}>{r.new}</td>
                <td className={td}>{r.updated}</td>
                <td className={td}>{r.unmapped}</td>
                <td className={td}>{r.delisted}</td>
                <td className={`${td} text-xs`}>
                  {Object.entries(r.skipped)
                    .map(([k, n]) => `${k.replace(/_/g, " ")} ${n}`)
                    .join(", ") || "none"}
                </td>
                <td className={`${td} whitespace-nowrap`}>{(r.ms / 1000).toFixed(1)} s</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
