// "How to call" one endpoint: its parameters, a ready curl with the provider's example, and the
// output example, from the endpoint's `call` (its bazaar declaration, or what its provider submitted).
import { callParameters, curlForCall } from "@/lib/discovery/call";
import type { RankedEndpoint } from "@/lib/schemas/discover";
import { CodeBlock } from "./code-block";

function exampleText(v: unknown): string {
  if (v === undefined) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function EndpointCall({ endpoint }: { endpoint: RankedEndpoint }) {
  const call = endpoint.call;
  if (!call) return null;
  const params = callParameters(call);
  const what = call.input.kind === "mcp" ? "Arguments" : call.input.kind === "body" ? "Body fields" : "Query parameters";
  const th = "px-3 py-2 text-left font-semibold";
  return (
    <div className="space-y-3" data-testid="endpoint-call" data-endpoint-id={endpoint.endpoint_id}>
      <p className="text-sm text-slate-800">
        <span className="font-mono font-semibold">{call.method}</span>{" "}
        {call.input.kind === "mcp" ? (
          <>
            MCP tool <code className="font-mono">{call.input.tool}</code>
          </>
        ) : call.input.kind === "body" ? (
          <>with a {call.input.body_type ?? "json"} body</>
        ) : (
          <>with query parameters</>
        )}
        . {call.source === "declared" ? "Declared by the endpoint's own 402 answer (x402 bazaar)." : "As submitted by the provider."}
      </p>
      {params.length > 0 ? (
        <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label={`${what} of ${endpoint.url}`}>
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="call-parameters">
            <caption className="sr-only">{what}</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className={th}>
                  Name
                </th>
                <th scope="col" className={th}>
                  Type
                </th>
                <th scope="col" className={th}>
                  Required
                </th>
                <th scope="col" className={th}>
                  Example
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {params.map((p) => (
                <tr key={p.name}>
                  <td className="px-3 py-2 font-mono">
                    {p.name}
                    {p.description && <span className="block font-sans text-xs text-slate-600">{p.description}</span>}
                  </td>
                  <td className="px-3 py-2 font-mono text-slate-700">{p.type}</td>
                  <td className="px-3 py-2">{p.required ? "yes" : "no"}</td>
                  <td className="max-w-[16rem] truncate px-3 py-2 font-mono text-slate-700" title={exampleText(p.example)}>
                    {exampleText(p.example)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-slate-700">No parameters.</p>
      )}
      <div className="grid grid-cols-1 items-start gap-3 lg:grid-cols-2">
        <CodeBlock label="curl with the example (answers 402: pay with an x402 client)" copyLabel="Copy curl" code={curlForCall(endpoint.url, call)} />
        {call.output?.example !== undefined && (
          <CodeBlock label={`Output example (${call.output.type})`} copyLabel="Copy output" code={JSON.stringify(call.output.example, null, 2)} />
        )}
      </div>
    </div>
  );
}

/** Every ranked endpoint with a known call, in rank order. */
export function HowToCall({ endpoints }: { endpoints: RankedEndpoint[] }) {
  const callable = endpoints.filter((e) => e.call);
  if (!callable.length) return null;
  return (
    <section aria-labelledby="how-to-call-heading" className="mt-10">
      <h2 id="how-to-call-heading" className="text-xl font-semibold text-slate-950">
        How to call
      </h2>
      <p className="mt-1 text-sm text-slate-700">What to send and what comes back, for the endpoints whose call is known.</p>
      <div className="mt-3 space-y-3">
        {callable.map((e, i) => (
          <details key={e.endpoint_id} open={i === 0} className="rounded-lg border border-slate-200 p-3">
            <summary className="cursor-pointer font-medium text-slate-950">
              {e.provider_name}: <span className="font-mono text-sm">{e.method} {e.url}</span>
            </summary>
            <div className="mt-3">
              <EndpointCall endpoint={e} />
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
