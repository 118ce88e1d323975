// "My submissions": the signed-in user's submissions and, once listed, their endpoints' 7-day figures
// (the stored figures discover ranks with).
import Link from "next/link";
import type { Db } from "@/lib/db/client";
import { readStoredFigures } from "@/lib/outcomes/figures";
import { formatInt, formatMs, formatPercent } from "@/lib/portal/format";
import { listSubmissions } from "@/lib/submissions";

/** What the list shows, read by the page itself (so under its deadline, lib/portal/unavailable.ts). */
export async function loadMySubmissions(db: Db, userId: string) {
  const subs = await listSubmissions(db, { userId });
  const endpointIds = subs.map((s) => s.endpoint_id).filter((id): id is string => !!id);
  return { subs, figures: await readStoredFigures(db, endpointIds) };
}

export function MySubmissions({ subs, figures }: Awaited<ReturnType<typeof loadMySubmissions>>) {
  if (!subs.length) {
    return (
      <p className="mt-2 text-sm text-slate-600">
        None yet.{" "}
        <Link href="/providers/submit" className="text-indigo-700 underline">
          Submit an endpoint
        </Link>{" "}
        while signed in and it appears here.
      </p>
    );
  }
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="my-submissions">
        <thead>
          <tr className="text-left text-slate-600">
            <th className="py-2 pr-4 font-medium">Endpoint</th>
            <th className="py-2 pr-4 font-medium">Capability</th>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 pr-4 font-medium">Success (7 d)</th>
            <th className="py-2 pr-4 font-medium">p95 latency</th>
            <th className="py-2 font-medium">Reports (7 d)</th>
          </tr>
        </thead>
        <tbody>
          {subs.map((s) => {
            const f = s.endpoint_id ? figures.get(s.endpoint_id) : undefined;
            return (
              <tr key={s.submission_id} className="border-t border-slate-100">
                <td className="max-w-xs truncate py-2 pr-4">
                  <Link href={`/providers/submissions/${s.submission_id}`} className="text-indigo-700 underline">
                    {s.endpoint_url}
                  </Link>
                </td>
                <td className="py-2 pr-4 font-mono text-xs">{s.capability_id}</td>
                <td className="py-2 pr-4">{s.status.replace(/_/g, " ")}</td>
                <td className="py-2 pr-4">{f ? formatPercent(f.success_rate_7d) : "—"}</td>
                <td className="py-2 pr-4">{f ? formatMs(f.p95_latency_ms) : "—"}</td>
                <td className="py-2">{f ? formatInt(f.sample_size_7d) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
