// The provider dashboard: every endpoint the signed-in account owns (lib/provider), with what
// discover made of it in the last day, callers' reports and failed checks, and a link to manage each.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getSessionUser } from "@/lib/auth/session";
import { listOwnedEndpoints } from "@/lib/provider";
import { formatInt, formatPayment, formatPrice } from "@/lib/portal/format";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { getDb } from "@/lib/server/db";
import { CheckBadge } from "./check-badge";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your endpoints" };

export default portalPage("/providers/dashboard", async function ProviderDashboardPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?callbackUrl=%2Fproviders%2Fdashboard");
  const sp = await searchParams;
  const list = await listOwnedEndpoints(await getDb(), { id: user.id, email: user.email });
  const error = firstParam(sp.error);
  return (
    <div>
      <PageTitle
        title="Your endpoints"
        lead={
          <>
            Every endpoint listed with <strong>{user.email ?? "your account"}</strong> as its contact, or submitted or claimed while signed in.
            Change one and it is checked again at once: it shows as unverified until that check passes. The same through the API with your key:{" "}
            <code>GET /api/provider/endpoints</code> (<Link href="/docs#op-getProviderEndpoints" className="text-indigo-700 underline">docs</Link>).
          </>
        }
      />
      {error && (
        <Notice tone="error" role="alert">
          {error.slice(0, 200)}
        </Notice>
      )}
      {!list.length ? (
        <Notice tone="empty" title="No endpoints yet">
          <Link href="/providers/submit" className="text-indigo-700 underline">
            Submit an endpoint
          </Link>{" "}
          with this e-mail as its contact, or{" "}
          <Link href="/providers/claim" className="text-indigo-700 underline">
            claim your imported listings
          </Link>
          ; once listed they appear here.
        </Notice>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full text-sm" data-testid="provider-endpoints">
            <caption className="sr-only">Your endpoints and their figures</caption>
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-2 pr-4 font-medium">Endpoint</th>
                <th scope="col" className="py-2 pr-4 font-medium">Price</th>
                <th scope="col" className="py-2 pr-4 font-medium">State</th>
                <th scope="col" className="py-2 pr-4 font-medium" title="Place among the endpoints discover ranks for the capability (default preset)">Rank</th>
                <th scope="col" className="py-2 pr-4 font-medium" title="Discover answers of the last 24 hours that returned it">Impressions (24 h)</th>
                <th scope="col" className="py-2 pr-4 font-medium" title="Callers' outcome reports of 7 days, failed ones in brackets">Reports (7 d)</th>
                <th scope="col" className="py-2 font-medium" title="Probes of the last 7 days that failed">Failed checks (7 d)</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.endpoint_id} className="border-t border-slate-100 align-top">
                  <td className="max-w-xs py-2 pr-4">
                    <Link href={`/providers/dashboard/${e.endpoint_id}`} className="break-all text-indigo-700 underline">
                      {e.url}
                    </Link>
                    <div className="font-mono text-xs text-slate-600">
                      {e.method} · {e.capability_id}
                    </div>
                  </td>
                  <td className="py-2 pr-4">
                    {formatPrice(e.price_per_call)}
                    <div className="text-xs text-slate-600">{formatPayment(e).networks}</div>
                  </td>
                  <td className="py-2 pr-4">
                    {e.status === "listed" ? <CheckBadge state={e.check_state} /> : <span className="font-medium text-slate-800">delisted</span>}
                    {e.last_check && !e.last_check.ok && <div className="font-mono text-xs text-red-800">{e.last_check.reason}</div>}
                  </td>
                  <td className="py-2 pr-4">{e.rank.position ? `${e.rank.position} of ${e.rank.of}` : "not ranked"}</td>
                  <td className="py-2 pr-4">
                    {formatInt(e.impressions_24h)}
                    {e.average_position_24h !== null && <div className="text-xs text-slate-600">avg. place {e.average_position_24h}</div>}
                  </td>
                  <td className="py-2 pr-4">
                    {formatInt(e.reports_7d.reports)} ({formatInt(e.reports_7d.failures)} failed)
                  </td>
                  <td className="py-2">{formatInt(e.failing_checks_7d)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
});
