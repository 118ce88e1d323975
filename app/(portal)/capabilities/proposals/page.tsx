// Capability proposals for everyone: the open ones with the listings that would join them, and (for
// the signed-in) a form to propose one when no capability fits. Operators decide at /operator/proposals.
import type { Metadata } from "next";
import Link from "next/link";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { portalUser } from "@/lib/portal/request";
import { listProposals } from "@/lib/proposals";
import { proposeCapabilityAction } from "./actions";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Capability proposals" };

const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

export default portalPage("/capabilities/proposals", async function ProposalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const [{ proposals, total }, user] = await Promise.all([listProposals(await getDb(), { limit: 100 }), portalUser()]);
  const proposed = firstParam(sp.proposed);
  const error = firstParam(sp.error);
  return (
    <div>
      <PageTitle
        title="Capability proposals"
        lead="Jobs the registry does not name yet: grouped from catalogue listings Capdex could not place, or proposed by providers. An operator accepts, merges or rejects each."
      />
      {proposed && (
        <Notice tone="success" role="status">
          {proposed.slice(0, 100)} is proposed. Once an operator accepts it, you can submit endpoints under it.
        </Notice>
      )}
      {error && (
        <Notice tone="error" role="alert">
          {error.slice(0, 300)}
        </Notice>
      )}
      <p className="mt-4 text-sm text-slate-700">{total} open proposal(s).</p>
      <ul className="mt-4 space-y-4">
        {proposals.map((p) => (
          <li key={p.proposal_id} className="rounded-lg border border-slate-200 p-4">
            <div className="flex flex-wrap items-baseline gap-3">
              <code className="font-semibold">{p.id}</code>
              <span>{p.title}</span>
              <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{p.source === "provider" ? "proposed by a provider" : "from the unmapped queue"}</span>
            </div>
            <p className="mt-1 text-sm text-slate-700">{p.description}</p>
            <p className="mt-1 text-xs text-slate-600">{p.listings.length} listing(s) would join it{p.listings.length ? `: ${p.listings.map((l) => new URL(l.url).host).join(", ")}` : ""}.</p>
          </li>
        ))}
      </ul>
      <section id="propose" aria-labelledby="propose-h" className="mt-10 max-w-2xl">
        <h2 id="propose-h" className="text-lg font-semibold text-slate-950">
          None fits? Propose a capability
        </h2>
        {user ? (
          <form action={proposeCapabilityAction} className="mt-3 space-y-3 text-sm">
            <label className="block">
              Id (<code>category.slug</code>, lower snake_case)
              <input name="id" required placeholder="astro.moon_phase" className={input} />
            </label>
            <label className="block">
              Title
              <input name="title" required placeholder="Moon phase" className={input} />
            </label>
            <label className="block">
              What the job is
              <textarea name="description" required rows={2} className={input} />
            </label>
            <label className="block">
              Example needs, one a line (optional)
              <textarea name="example_intents" rows={2} className={input} />
            </label>
            <label className="block">
              Your endpoint that does it (optional)
              <input name="endpoint_url" placeholder="https://api.example.com/v1/moon" className={input} />
            </label>
            <button type="submit" className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700">
              Propose
            </button>
          </form>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            <Link className="underline" href="/signin?callbackUrl=%2Fcapabilities%2Fproposals">
              Sign in
            </Link>{" "}
            to propose one, or send <code>POST /api/capabilities/proposals</code> with an API key; a provider can also submit an
            endpoint proposing its capability: “None fits” in the{" "}
            <Link className="underline" href="/providers/submit">
              submission wizard
            </Link>
            , or <code>proposed_capability</code> instead of <code>capability_id</code> through the API (docs/proposals.md).
          </p>
        )}
      </section>
    </div>
  );
});
