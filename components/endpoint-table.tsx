// Endpoints of a capability as a ranked table: what an agent would call, in the order Capdex ranks
// them, with price, network, observed figures, check state and score. Scrolls sideways on phones.
import type { EndpointFacts } from "@/lib/portal/endpoints";
import { describeExclusion, formatAgo, formatMs, formatPayment, formatPercent, formatPrice, formatScore } from "@/lib/portal/format";
import type { RankedEndpoint } from "@/lib/schemas/discover";

type Row = RankedEndpoint & { exclusion_reasons?: string[] };

function CheckState({ ep, facts }: { ep: Row; facts?: EndpointFacts }) {
  const state = facts?.checkState ?? (ep.verified ? "verified" : "unverified");
  if (state === "verified") return <span className="font-medium text-emerald-800">✓ Verified</span>;
  if (state === "failing") {
    const reason = facts?.lastCheckReason?.replace(/_/g, " ");
    return (
      <span className="text-red-800">
        <span className="font-medium">✗ Failing</span>
        {reason && <span className="block text-xs">{reason}</span>}
      </span>
    );
  }
  return <span className="text-slate-700">Unverified</span>;
}

/** An entry that exploration placed above its score: a new endpoint earning a record (docs/ranking.md). */
function ExplorationTag() {
  return (
    <span className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 text-xs font-semibold text-sky-900" title="New endpoint with a short record, placed here by exploration so it can earn one; its score is its real one">
      exploring
    </span>
  );
}

export function EndpointTable({
  rows,
  facts,
  caption,
  now,
  startRank = 1,
  showReasons = false,
  testId,
}: {
  rows: Row[];
  facts: Map<string, EndpointFacts>;
  caption: string;
  now: Date;
  startRank?: number;
  showReasons?: boolean;
  testId?: string;
}) {
  const th = "px-3 py-2 text-left font-semibold whitespace-nowrap";
  const td = "px-3 py-2 align-top";
  return (
    <>
      {/* Phones get one card per endpoint; the table (from md up) would need sideways scrolling. */}
      <EndpointCards rows={rows} facts={facts} now={now} startRank={startRank} showReasons={showReasons} caption={caption} />
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 md:block" tabIndex={0} role="region" aria-label={caption}>
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-slate-800">
            <tr>
              <th scope="col" className={th}>
                {showReasons ? "#" : "Rank"}
              </th>
              <th scope="col" className={th}>
                Provider
              </th>
              <th scope="col" className={th}>
                Price / call
              </th>
              <th scope="col" className={th}>
                Network, assets
              </th>
              <th scope="col" className={th}>
                Success 7d
              </th>
              <th scope="col" className={th}>
                p95
              </th>
              <th scope="col" className={th}>
                Checks
              </th>
              <th scope="col" className={th}>
                Last check
              </th>
              <th scope="col" className={`${th} text-right`} title="0 to 1: success, latency, price and stability, each 0 to 1, weighted by the ranking preset">
                Score <span className="font-normal text-slate-500">(0–1)</span>
              </th>
              </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {rows.map((ep, i) => {
              const f = facts.get(ep.endpoint_id);
              return (
                <tr key={ep.endpoint_id} data-endpoint-id={ep.endpoint_id}>
                  <td className={`${td} tabular-nums text-slate-700`}>{startRank + i}</td>
                  <td className={td}>
                    <a className="font-medium text-slate-950 underline" href={ep.page}>
                      {ep.provider_name}
                    </a>
                    {f?.isDemo && (
                      <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900" title="Demo listing: sample data, not a real provider">
                        demo
                      </span>
                    )}
                    {ep.exploration && <ExplorationTag />}
                    <span className="mt-0.5 block max-w-[16rem] truncate font-mono text-xs text-slate-600" title={ep.url}>
                      <span className="font-semibold">{ep.method}</span> {ep.url}
                    </span>
                    {showReasons && (ep.exclusion_reasons ?? []).length > 0 && (
                      <span className="mt-1 block max-w-[16rem] text-xs font-medium text-amber-900" data-testid="exclusion-reasons">
                        Left out: {(ep.exclusion_reasons ?? []).map(describeExclusion).join("; ")}
                      </span>
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>{formatPrice(ep.payment.price_per_call)}</td>
                  <td className={td}>
                    <span className="block max-w-[12rem]" data-testid="payment-networks">{formatPayment(ep.payment).networks}</span>
                    <span className="block text-xs text-slate-600">{formatPayment(ep.payment).assets}</span>
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>
                    {formatPercent(ep.observed.success_rate_7d)}
                    <span className="block text-xs text-slate-600">n = {ep.observed.sample_size_7d}</span>
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>{formatMs(ep.observed.p95_latency_ms)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    <CheckState ep={ep} facts={f} />
                  </td>
                  <td className={`${td} whitespace-nowrap text-slate-700`}>{formatAgo(f?.lastCheckAt ?? null, now)}</td>
                  <td className={`${td} text-right font-semibold tabular-nums`}>{formatScore(ep.score)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function EndpointCards({
  rows,
  facts,
  now,
  startRank,
  showReasons,
  caption,
}: {
  rows: Row[];
  facts: Map<string, EndpointFacts>;
  now: Date;
  startRank: number;
  showReasons: boolean;
  caption: string;
}) {
  return (
    <ol aria-label={caption} className="space-y-3 md:hidden">
      {rows.map((ep, i) => {
        const f = facts.get(ep.endpoint_id);
        const item = (label: string, value: React.ReactNode) => (
          <div>
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="tabular-nums text-slate-900">{value}</dd>
          </div>
        );
        return (
          <li key={ep.endpoint_id} className="rounded-lg border border-slate-200 p-3">
            <p className="flex items-baseline justify-between gap-2">
              <span className="font-medium text-slate-950">
                {startRank + i}.{" "}
                <a className="underline" href={ep.page}>
                  {ep.provider_name}
                </a>
                {f?.isDemo && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">demo</span>}
                {ep.exploration && <ExplorationTag />}
              </span>
              <span className="text-sm font-semibold tabular-nums">score {formatScore(ep.score)}</span>
            </p>
            <p className="mt-0.5 break-all font-mono text-xs text-slate-600">
              <span className="font-semibold">{ep.method}</span> {ep.url}
            </p>
            <dl className="mt-2 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
              {item("Price / call", formatPrice(ep.payment.price_per_call))}
              {item("Network", `${formatPayment(ep.payment).networks} · ${formatPayment(ep.payment).assets}`)}
              {item("Success 7d", `${formatPercent(ep.observed.success_rate_7d)} (n = ${ep.observed.sample_size_7d})`)}
              {item("p95", formatMs(ep.observed.p95_latency_ms))}
              {item("Checks", <CheckState ep={ep} facts={f} />)}
              {item("Last check", formatAgo(f?.lastCheckAt ?? null, now))}
            </dl>
            {showReasons && (ep.exclusion_reasons ?? []).length > 0 && (
              <p className="mt-2 text-sm text-slate-800">Not ranked: {(ep.exclusion_reasons ?? []).map(describeExclusion).join("; ")}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
