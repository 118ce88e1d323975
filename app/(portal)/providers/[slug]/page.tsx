// One provider and its endpoints, each linked to its page.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { getProviderPage } from "@/lib/portal/endpoint-page";
import { formatPayment, formatPrice } from "@/lib/portal/format";
import { portalMetadata, portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export const generateMetadata = portalMetadata(async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = await getProviderPage(await getDb(), (await params).slug);
  return { title: page ? `${page.provider.name} (provider)` : "Unknown provider" };
}, {});

export default portalPage("/providers/[slug]", async function ProviderPageView({ params }: Props) {
  const page = await getProviderPage(await getDb(), (await params).slug);
  if (!page) notFound();
  const th = "px-3 py-2 text-left font-semibold";
  return (
    <>
      <PageTitle
        title={page.provider.name}
        lead={`${page.endpoints.length} endpoint${page.endpoints.length === 1 ? "" : "s"} listed on Capdex${page.provider.isDemo ? " (demo provider: sample data)" : ""}.`}
      />
      <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label={`Endpoints of ${page.provider.name}`}>
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="provider-endpoints">
          <caption className="sr-only">Endpoints of {page.provider.name}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>Capability</th>
              <th scope="col" className={th}>Endpoint</th>
              <th scope="col" className={th}>Price</th>
              <th scope="col" className={th}>Networks</th>
              <th scope="col" className={th}>State</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.endpoints.map((e) => (
              <tr key={e.id}>
                <td className="px-3 py-2">{e.capabilityId}</td>
                <td className="px-3 py-2">
                  <Link className="break-all font-mono text-xs text-sky-800 underline" href={`/endpoints/${e.id}`}>
                    {e.method} {e.url}
                  </Link>
                </td>
                <td className="px-3 py-2 tabular-nums">{formatPrice(e.pricePerCall)}</td>
                <td className="px-3 py-2">{formatPayment({ price_per_call: e.pricePerCall, network: e.network, networks: e.networks, accepted_assets: [] }).networks}</td>
                <td className="px-3 py-2">
                  {e.status}, {e.checkState}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
});
