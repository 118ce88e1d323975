// "Why is my endpoint (not) listed?": a URL box, and what GET /api/listing_status says of it, in
// plain words with the reason codes (each explained at /docs/errors) and the next steps.
import type { Metadata } from "next";
import Link from "next/link";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { getListingStatus } from "@/lib/listings";
import { describeListing } from "@/lib/listings/words";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { portalPrincipal } from "@/lib/portal/request";
import { checkRateLimit } from "@/lib/ratelimit";
import { listingStatusQuerySchema, type ListingStatus } from "@/lib/schemas/listing-status";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Listing status" };

const STATE_TONE: Record<string, "success" | "warning" | "error" | "info"> = {
  listed: "success",
  failing: "error",
  delisted: "warning",
  unmapped: "info",
  ignored: "warning",
  pending_verification: "info",
  pending_capability: "info",
  expired: "warning",
  rejected: "error",
};

export default portalPage("/providers/status", async function StatusPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const raw = firstParam((await searchParams).url)?.trim() ?? "";
  let status: ListingStatus | null = null;
  let problem: string | null = null;
  if (raw) {
    const parsed = listingStatusQuerySchema.safeParse({ url: raw });
    if (!parsed.success) problem = parsed.error.issues[0]?.message ?? "Not a URL.";
    else {
      const db = await getDb();
      try {
        const limit = await checkRateLimit(db, "capabilities", await portalPrincipal(db));
        if (!limit.allowed) throw limit.error;
        status = await getListingStatus(db, parsed.data.url);
      } catch (err) {
        if (!isApiError(err)) throw err;
        problem = err.code === "rate_limited" ? "Too many look-ups from your address; wait a minute." : err.message;
      }
    }
  }
  return (
    <>
      <PageTitle
        title="Listing status"
        lead="Why an endpoint is or isn't listed: what Capdex's probes saw, which catalogue lists it, whether its domain is proven, and what to do next."
      />
      <form method="get" action="/providers/status" className="flex max-w-3xl flex-wrap items-end gap-3" role="search">
        <div className="min-w-0 flex-1">
          <label htmlFor="status-url" className="block text-sm font-medium text-slate-800">
            Endpoint URL
          </label>
          <input id="status-url" name="url" type="url" inputMode="url" defaultValue={raw} placeholder="https://api.example.com/v1/weather" required aria-invalid={problem ? true : undefined} aria-describedby={problem ? "status-url-error" : undefined} className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-950" />
        </div>
        <button type="submit" className="rounded-md bg-indigo-700 px-5 py-2 font-semibold text-white hover:bg-indigo-800">
          Check
        </button>
      </form>
      {problem && (
        <p id="status-url-error" role="alert" className="mt-2 text-sm font-medium text-red-800">
          {problem}
        </p>
      )}
      {status && (
        <section aria-labelledby="status-result" className="mt-8 max-w-3xl space-y-4" data-testid="listing-status">
          <h2 id="status-result" className="break-all font-mono text-sm text-slate-700">
            {status.url}
          </h2>
          {!status.known ? (
            <Notice tone="empty" title="Capdex does not know this URL">
              No listing, catalogue item or submission has it.{" "}
              <Link className="underline" href="/providers/submit">
                Submit it
              </Link>{" "}
              to have it listed.
            </Notice>
          ) : (
            status.listings.map((l, i) => (
              <Notice key={i} tone={STATE_TONE[l.state]} title={describeListing(l)}>
                <div data-testid="listing" data-state={l.state}>
                  {l.reasons.length > 0 && (
                    <p className="mt-1">
                      Reasons:{" "}
                      {l.reasons.map((r, j) => (
                        <span key={r}>
                          {j > 0 && ", "}
                          <Link className="font-mono underline" href={`/docs/errors#${r}`}>
                            {r}
                          </Link>
                        </span>
                      ))}
                    </p>
                  )}
                  {l.next_steps.length > 0 && (
                    <ul className="mt-2 list-disc space-y-1 pl-5">
                      {l.next_steps.map((s) => (
                        <li key={s}>{s}</li>
                      ))}
                    </ul>
                  )}
                  {l.submission_id && (
                    <p className="mt-2">
                      <Link className="underline" href={`/providers/submissions/${l.submission_id}`}>
                        The submission&apos;s page
                      </Link>
                    </p>
                  )}
                  {l.reasons.includes("domain_not_claimed") && (
                    <p className="mt-2">
                      <Link className="underline" href={`/providers/claim?domain=${encodeURIComponent(new URL(status.url).hostname)}`}>
                        Claim the listings of your domain
                      </Link>
                    </p>
                  )}
                </div>
              </Notice>
            ))
          )}
          <p className="text-sm text-slate-700">
            The same over the API: <code className="break-all font-mono">GET /api/listing_status?url={encodeURIComponent(status.url)}</code>
          </p>
        </section>
      )}
    </>
  );
});
