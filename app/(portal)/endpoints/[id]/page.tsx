// One endpoint: price and networks, how to call it (curl and a paying @x402/fetch snippet), its
// 7-day figures, probe history with reasons, the last 402 seen, reports, where it came from and its
// place per ranking preset. Read through lib/portal/endpoint-page.ts (discover's own functions).
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CodeBlock } from "@/components/code-block";
import { EndpointCall } from "@/components/endpoint-call";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { getEndpointPage } from "@/lib/portal/endpoint-page";
import { formatAgo, formatMs, formatPayment, formatPercent, formatPrice, formatScore, formatUtcDateTime } from "@/lib/portal/format";
import { paySnippet } from "@/lib/portal/pay-snippet";
import { EndpointHistory } from "./history";
import { portalMetadata, portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export const generateMetadata = portalMetadata(async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = await getEndpointPage(await getDb(), (await params).id);
  if (!page) return { title: "Unknown endpoint" };
  const e = page.endpoint;
  const title = `${page.provider.name}: ${e.capabilityId}`;
  return { title, description: `${e.method} ${e.url}: ${formatPrice(e.pricePerCall)} a call, ranked by Capdex.`, openGraph: { title, type: "website" } };
}, {});

export default portalPage("/endpoints/[id]", async function EndpointPageView({ params }: Props) {
  const page = await getEndpointPage(await getDb(), (await params).id);
  if (!page) notFound();
  const { endpoint: e, ranked, provider } = page;
  const now = new Date();
  const payment = ranked?.payment ?? { price_per_call: e.pricePerCall, network: e.network, networks: e.networks, accepted_assets: e.acceptedAssets };
  const shown = formatPayment(payment);
  const dt = "font-medium text-slate-800";
  return (
    <>
      <PageTitle title={`${provider.name}: ${e.capabilityId}`} lead={e.description || undefined}>
        <p className="mt-2 break-all font-mono text-sm text-slate-700">
          <span className="font-semibold">{e.method}</span> {e.url}
        </p>
      </PageTitle>
      <dl className="grid max-w-3xl gap-2 text-sm sm:grid-cols-[11rem_1fr]" data-testid="endpoint-facts">
        <dt className={dt}>Price per call</dt>
        <dd>{formatPrice(e.pricePerCall)}</dd>
        <dt className={dt}>Networks</dt>
        <dd data-testid="endpoint-networks">{shown.networks === "Free" ? "Free: no payment, so no network" : `${shown.networks} (${shown.assets})`}</dd>
        <dt className={dt}>Capability</dt>
        <dd>
          <Link className="text-sky-800 underline" href={`/capabilities/${e.capabilityId}`}>
            {e.capabilityId}
          </Link>
        </dd>
        <dt className={dt}>Provider</dt>
        <dd>
          <Link className="text-sky-800 underline" href={`/providers/${provider.slug}`}>
            {provider.name}
          </Link>
          {provider.isDemo && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">demo</span>}
        </dd>
        <dt className={dt}>Source</dt>
        <dd data-testid="endpoint-source">
          {e.source === "submission" ? "Submitted by its provider" : `Imported from ${e.source}`};{" "}
          {e.domainVerified ? "domain proven with the DNS record" : e.source === "submission" ? "domain record lost" : "not claimed yet (no DNS record)"}
        </dd>
        <dt className={dt}>Listing</dt>
        <dd>
          {e.status}, checks: {e.checkState}
          {e.lastCheckReason && e.checkState !== "verified" ? ` (${e.lastCheckReason.replace(/_/g, " ")})` : ""}, last check {formatAgo(e.lastCheckAt, now)}
        </dd>
        <dt className={dt}>Success 7d</dt>
        <dd>
          {formatPercent(ranked?.observed.success_rate_7d)} (n = {ranked?.observed.sample_size_7d ?? 0}, {ranked?.observed.distinct_reporters_7d ?? 0} distinct reporters)
        </dd>
        <dt className={dt}>p95 latency 7d</dt>
        <dd>{formatMs(ranked?.observed.p95_latency_ms)}</dd>
        <dt className={dt}>Paid test calls</dt>
        <dd data-testid="endpoint-delivery">
          {ranked?.observed.delivery
            ? `${formatPercent(ranked.observed.delivery.delivered_share)} delivered of ${ranked.observed.delivery.checks}; last ${ranked.observed.delivery.last_verdict.replace(/_/g, " ")} ${formatAgo(ranked.observed.delivery.last_check_at, now)}`
            : "none yet"}
        </dd>
        <dt className={dt}>Score (default)</dt>
        <dd>
          {ranked ? formatScore(ranked.score) : "not ranked"}{" "}
          {ranked && (
            <span className="text-slate-600">
              (success {formatScore(ranked.score_breakdown.success)}, latency {formatScore(ranked.score_breakdown.latency)}, price {formatScore(ranked.score_breakdown.price)}, stability{" "}
              {formatScore(ranked.score_breakdown.stability)}; each 0 to 1, <Link className="text-sky-800 underline" href="/docs/submissions#ranking">how ranking works</Link>)
            </span>
          )}
        </dd>
      </dl>

      <section aria-labelledby="rank-heading" className="mt-8">
        <h2 id="rank-heading" className="text-xl font-semibold text-slate-950">
          Place per ranking preset
        </h2>
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-5" data-testid="endpoint-positions">
          {page.positions.map((p) => (
            <li key={p.preset} className="rounded border border-slate-200 px-3 py-2">
              <span className="font-medium">{p.preset}</span>: {p.position ? `#${p.position} of ${p.of}` : "not ranked"}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="call-heading" className="mt-8 space-y-3">
        <h2 id="call-heading" className="text-xl font-semibold text-slate-950">
          How to call it
        </h2>
        {ranked?.call ? <EndpointCall endpoint={ranked} /> : <p className="text-sm text-slate-700">The endpoint has not declared how to call it (no x402 bazaar declaration, nothing submitted).</p>}
        {e.pricePerCall > 0 && <CodeBlock label="Pay and call it with @x402/fetch (TypeScript)" code={paySnippet(e.url, e.method, ranked?.call, payment.networks ?? [e.network])} />}
      </section>

      <EndpointHistory page={page} now={now} />
      {page.lastChallenge && (
        <section aria-labelledby="challenge-heading" className="mt-8">
          <h2 id="challenge-heading" className="text-xl font-semibold text-slate-950">
            Last 402 challenge seen
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {page.lastChallenge.seen.via === "probe" ? "Read by a probe" : page.lastChallenge.seen.via === "catalogue" ? "From the catalogue it was imported from" : "Demo data"}
            {page.lastChallenge.at ? `, ${formatUtcDateTime(page.lastChallenge.at)}` : ""}.
          </p>
          <CodeBlock label="Payment requirements (x402 v2)" code={JSON.stringify(page.lastChallenge.seen.accepts, null, 2)} />
        </section>
      )}
    </>
  );
});
