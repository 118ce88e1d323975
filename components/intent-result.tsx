// The answer to a home-page search: the capability an intent resolved to, how sure, and its best endpoints.
import Link from "next/link";
import type { EndpointFacts } from "@/lib/portal/endpoints";
import { formatMs, formatPercent, formatPrice, formatProbability, formatScore } from "@/lib/portal/format";
import type { DiscoverResponse } from "@/lib/schemas/discover";

export function IntentResult({
  answer,
  facts,
  titleOf,
}: {
  answer: DiscoverResponse;
  facts: Map<string, EndpointFacts>;
  titleOf: (id: string) => string;
}) {
  const { resolved, ranked_endpoints: top } = answer;
  return (
    <div className="rounded-lg border border-indigo-200 bg-indigo-50/40 p-4 sm:p-5" data-testid="intent-result">
      <p className="text-sm text-slate-700">Best match</p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <Link href={`/capabilities/${resolved.capability_id}`} className="text-xl font-semibold text-slate-950 underline">
          {titleOf(resolved.capability_id)}
        </Link>
        <span className="font-mono text-sm text-slate-700">{resolved.capability_id}</span>
        <span className="rounded bg-white px-2 py-0.5 text-sm font-medium text-slate-800 ring-1 ring-slate-200" data-testid="confidence">
          confidence {formatProbability(resolved.confidence)}
        </span>
      </p>
      {resolved.candidates.length > 0 && (
        <p className="mt-2 text-sm text-slate-700">
          Also close:{" "}
          {resolved.candidates.map((c, i) => (
            <span key={c.capability_id}>
              {i > 0 && ", "}
              <Link className="underline" href={`/capabilities/${c.capability_id}`}>
                {titleOf(c.capability_id)}
              </Link>{" "}
              ({formatProbability(c.confidence)})
            </span>
          ))}
        </p>
      )}
      {resolved.also_needed && resolved.also_needed.length > 0 && (
        <p className="mt-2 text-sm text-slate-700" data-testid="also-needed">
          Your request also asks for:{" "}
          {resolved.also_needed.map((c, i) => (
            <span key={c.capability_id}>
              {i > 0 && ", "}
              <Link className="underline" href={`/capabilities/${c.capability_id}`}>
                {titleOf(c.capability_id)}
              </Link>
            </span>
          ))}{" "}
          (search for it on its own).
        </p>
      )}
      {answer.ranking_info.preset_from_intent && (
        <p className="mt-2 text-sm text-slate-700" data-testid="preset-from-intent">
          Ranked by the {answer.ranking_info.preset_from_intent} preset, as your words asked.
        </p>
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-800">Top endpoints</h3>
      {top.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          No endpoint is ranked for it right now.{" "}
          <Link className="underline" href={`/providers/submit?capability=${resolved.capability_id}`}>
            List yours
          </Link>
          .
        </p>
      ) : (
        <ol className="mt-2 space-y-2">
          {top.map((ep, i) => (
            <li key={ep.endpoint_id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-md bg-white p-3 ring-1 ring-slate-200">
              <span className="min-w-0">
                <span className="font-medium text-slate-950">
                  {i + 1}.{" "}
                  <Link className="underline" href={ep.page}>
                    {ep.provider_name}
                  </Link>
                </span>
                {facts.get(ep.endpoint_id)?.isDemo && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">demo</span>}
                <span className="block truncate font-mono text-xs text-slate-600">
                  {ep.method} {ep.url}
                </span>
              </span>
              <span className="flex flex-wrap gap-x-3 text-sm tabular-nums text-slate-800 [&>span]:whitespace-nowrap">
                <span>{formatPrice(ep.payment.price_per_call)}</span>
                <span>{ep.observed.success_rate_7d === null ? "no reports yet" : `${formatPercent(ep.observed.success_rate_7d)} ok`}</span>
                {ep.observed.p95_latency_ms !== null && <span>p95 {formatMs(ep.observed.p95_latency_ms)}</span>}
                <span className="font-semibold">score {formatScore(ep.score)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-3 text-sm">
        <Link className="font-medium text-indigo-700 underline" href={`/capabilities/${resolved.capability_id}`}>
          All endpoints, filters and the API call →
        </Link>
      </p>
    </div>
  );
}
