// Claim the listings of my domain: endpoints imported from x402 catalogues become their provider's
// with one DNS TXT record for the whole registrable domain.
import type { Metadata } from "next";
import Link from "next/link";
import { StartClaimForm } from "@/components/claim-forms";
import { PageTitle } from "@/components/page-title";
import { firstParam, type SearchParams } from "@/lib/portal/params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Claim the listings of your domain" };

export default async function ClaimPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  return (
    <>
      <PageTitle
        title="Claim the listings of your domain"
        lead="Capdex imports the public catalogues of x402 facilitators, so your endpoints may already be listed. Prove you own the domain once, with one DNS TXT record, and every listing imported under it is yours: marked domain verified, with your contact, and never overwritten by an import again."
      />
      <StartClaimForm initialDomain={firstParam(sp.domain) ?? ""} />
      <p className="mt-8 text-sm text-slate-700">
        Not listed yet? <Link className="underline" href="/providers/submit">Submit an endpoint</Link>. Why is an endpoint listed or not?{" "}
        <Link className="underline" href="/providers/status">Check its listing status</Link>.
      </p>
    </>
  );
}
