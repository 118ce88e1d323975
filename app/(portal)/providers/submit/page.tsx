// The submission wizard: endpoint, pricing, contact; then the DNS step on the submission's own page.
import type { Metadata } from "next";
import Link from "next/link";
import { PageTitle } from "@/components/page-title";
import { SubmitWizard } from "@/components/submit-wizard";
import { getDb } from "@/lib/server/db";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { portalUser } from "@/lib/portal/request";
import { getRegistry } from "@/lib/registry";
import { HTTP_METHODS } from "@/lib/schemas/submit";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit an endpoint" };

export default portalPage("/providers/submit", async function SubmitPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const [registry, user] = await Promise.all([getRegistry(await getDb()), portalUser()]);
  const wanted = firstParam(sp.capability) ?? "";
  const capabilities = registry.capabilities.map((c) => ({ id: c.id, title: c.title, category: c.categoryId }));
  const categories = Object.fromEntries(registry.categories.map((c) => [c.id, c.title]));
  return (
    <>
      <PageTitle
        title="Submit an endpoint"
        lead="List your HTTP API under a capability. Three short steps, then you prove you control the domain with one DNS TXT record, and the endpoint is listed."
      />
      <div className="grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,42rem)_1fr]">
        <SubmitWizard methods={HTTP_METHODS} capabilities={capabilities} categories={categories} initialCapability={registry.byId.has(wanted) ? wanted : ""} />
        <aside aria-labelledby="next-h" className="h-fit rounded-lg border border-slate-200 bg-slate-50 p-5 text-sm text-slate-800">
          <h2 id="next-h" className="font-semibold text-slate-950">
            What happens next
          </h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5">
            <li>You get a DNS TXT record to add at your DNS host, on a page you can come back to by its link.</li>
            <li>Once Capdex finds the record (press “Check now”, or wait: it looks by itself), the endpoint is listed.</li>
            <li>
              Capdex then probes it regularly: a paid endpoint must answer <code className="font-mono">402</code> with an x402 challenge at your price, a free one
              with <code className="font-mono">2xx</code>. Agents rank it by what they report.
            </li>
          </ol>
          <p className="mt-3" data-testid="submitter">
            {user ? (
              <>
                Signed in as {user.email ?? user.name}: the submission goes on your{" "}
                <Link className="underline" href="/account">
                  account
                </Link>
                , and once a domain is proven, your later endpoints on it are listed at once.
              </>
            ) : (
              <>
                <Link className="underline" href="/signin">
                  Sign in
                </Link>{" "}
                to keep your submissions on your account; once a domain is proven, your later endpoints on it are listed at once.
              </>
            )}
          </p>
          <p className="mt-3" data-testid="claim-link">
            Already listed from an x402 facilitator&apos;s catalogue?{" "}
            <Link className="underline" href="/providers/claim">
              Claim the listings of your domain
            </Link>{" "}
            with one DNS record. Wondering why an endpoint is or isn&apos;t listed?{" "}
            <Link className="underline" href="/providers/status">
              Check its listing status
            </Link>
            .
          </p>
          <p className="mt-3" data-testid="propose-link">
            No capability fits? Choose “None fits — propose a capability” in the first step: you prove the domain as usual, and the endpoint is listed
            once an operator accepts the capability (through the API: <code className="font-mono">proposed_capability</code> instead of{" "}
            <code className="font-mono">capability_id</code>). The open proposals are on{" "}
            <Link className="underline" href="/capabilities/proposals">
              Capability proposals
            </Link>
            .
          </p>
          <p className="mt-3">
            Prefer the API? <code className="font-mono">POST /api/submit</code> takes the same fields (
            <Link className="underline" href="/docs#op-postSubmit">
              docs
            </Link>
            ).
          </p>
        </aside>
      </div>
    </>
  );
});
