// Operators' page for capability proposals (ADMIN_EMAILS only: others are sent to sign in, or get a
// 404): each open proposal with its listings, and accept (optionally as another id or title), merge
// into an existing capability, or reject. The same decisions as `npm run cli -- proposals ...`.
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { getSessionUser } from "@/lib/auth/session";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { listProposals } from "@/lib/proposals";
import { decideProposalAction } from "./actions";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Capability proposals", robots: { index: false } };

const input = "rounded-md border border-slate-300 px-2 py-1 text-sm";
const button = "rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-100";

export default portalPage("/operator/proposals", async function OperatorProposalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?callbackUrl=%2Foperator%2Fproposals");
  if (!user.isAdmin) notFound();
  const sp = await searchParams;
  const { proposals, total } = await listProposals(await getDb(), { limit: 200 });
  const done = firstParam(sp.done);
  const error = firstParam(sp.error);
  return (
    <div>
      <PageTitle title="Capability proposals">
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          {total} open proposal(s), grouped from the unmapped import queue (<code>npm run cli -- proposals suggest</code>) or
          proposed by providers. Accepting adds the capability to every instance at once and lists its listings under it.
        </p>
      </PageTitle>
      {done && (
        <Notice tone="success" role="status">
          {done.slice(0, 300)}
        </Notice>
      )}
      {error && (
        <Notice tone="error" role="alert">
          {error.slice(0, 300)}
        </Notice>
      )}
      <ul className="mt-6 space-y-6">
        {proposals.map((p) => (
          <li key={p.proposal_id} className="rounded-lg border border-slate-200 p-4" data-testid="proposal">
            <div className="flex flex-wrap items-baseline gap-3">
              <code className="font-semibold">{p.id}</code>
              <span className="text-slate-900">{p.title}</span>
              <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{p.source === "provider" ? "provider" : "unmapped queue"}</span>
            </div>
            <p className="mt-1 text-sm text-slate-700">{p.description}</p>
            {p.example_intents.length > 0 && <p className="mt-1 text-xs text-slate-600">Examples: {p.example_intents.join(" · ")}</p>}
            <ul className="mt-2 text-xs text-slate-700">
              {p.listings.map((l) => (
                <li key={`${l.source}:${l.url}`}>
                  <span className="text-slate-500">{l.source}</span> {l.url}
                </li>
              ))}
              {p.listings.length === 0 && <li>No listing waits for it.</li>}
            </ul>
            <div className="mt-3 flex flex-wrap gap-4">
              <form action={decideProposalAction} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="proposal_id" value={p.proposal_id} />
                <input type="hidden" name="decision" value="accept" />
                <input name="as" aria-label="Accept as id" placeholder={p.id} className={input} />
                <input name="title" aria-label="Title" placeholder={p.title} className={input} />
                <button type="submit" className={button}>
                  Accept
                </button>
              </form>
              <form action={decideProposalAction} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="proposal_id" value={p.proposal_id} />
                <input type="hidden" name="decision" value="merge" />
                <input name="into" aria-label="Merge into capability" placeholder="existing.capability" required className={input} />
                <button type="submit" className={button}>
                  Merge
                </button>
              </form>
              <form action={decideProposalAction} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="proposal_id" value={p.proposal_id} />
                <input type="hidden" name="decision" value="reject" />
                <input name="note" aria-label="Why" placeholder="why (optional)" className={input} />
                <button type="submit" className={button}>
                  Reject
                </button>
              </form>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
});
