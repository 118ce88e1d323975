// The API docs: a quickstart for agents, authentication, every operation (generated from the OpenAPI
// document), rate limits, ranking presets and errors.
import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/code-block";
import { DocsOperation } from "@/components/docs-operation";
import { PageTitle } from "@/components/page-title";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/errors";
import { mcpClientConfig } from "@/lib/mcp/client-config";
import { POLICY_OPERATIONS, buildDocOperations } from "@/lib/portal/docs";
import { curlPostJson } from "@/lib/portal/examples";
import { requestOrigin } from "@/lib/portal/request";
import { POLICIES, type PolicyName } from "@/lib/ratelimit/policies";
import { PRESET_NAMES, RANKING_PRESETS } from "@/lib/schemas/discover";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Docs" };

const SECTIONS = [
  ["quickstart", "Quickstart for agents"],
  ["authentication", "Authentication"],
  ["operations", "Operations"],
  ["rate-limits", "Rate limits"],
  ["ranking-presets", "Ranking presets"],
  ["errors", "Errors"],
  ["mcp", "MCP"],
] as const;

const h2 = "text-xl font-semibold text-slate-950";
const th = "px-3 py-2 text-left font-semibold";
const td = "px-3 py-2 align-top";

export default async function DocsPage() {
  const origin = await requestOrigin();
  const api = `${origin}/api`;
  const operations = buildDocOperations(origin);

  return (
    <>
      <PageTitle
        title="Capdex API docs"
        lead={
          <>
            Base URL <code className="rounded bg-slate-100 px-1 font-mono text-sm">{api}</code>. JSON in, JSON out; errors are{" "}
            <Link className="underline" href="/docs/errors">
              problem+json
            </Link>
            . The machine-readable description is{" "}
            <a className="underline" href="/api/openapi.json">
              /api/openapi.json
            </a>{" "}
            (OpenAPI 3.1). Providers: see{" "}
            <Link className="underline" href="/docs/submissions">
              listing your endpoints
            </Link>
            .
          </>
        }
      />
      <nav aria-label="On this page" className="mb-8 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <h2 className="text-sm font-semibold text-slate-800">On this page</h2>
        <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a className="text-indigo-700 underline" href={`#${id}`}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="space-y-12">
        <section id="quickstart" aria-labelledby="quickstart-h" className="space-y-4">
          <h2 id="quickstart-h" className={h2}>
            Quickstart for agents
          </h2>
          <ol className="list-decimal space-y-4 pl-5 text-slate-800">
            <li>
              <p>Ask for what you need, in words or by capability id. The answer ranks the endpoints that do it, best first.</p>
              <CodeBlock label="Discover by intent" code={curlPostJson(`${api}/discover`, { intent: "translate text to German" })} />
            </li>
            <li>
              <p>
                Call the first <code className="font-mono">ranked_endpoints[0].url</code> with its <code className="font-mono">method</code>. Paid endpoints answer{" "}
                <code className="font-mono">402</code> with an x402 challenge at the listed price; pay and retry. If it fails, try the next one, then{" "}
                <code className="font-mono">fallback_endpoints</code>. Keep the answer for <code className="font-mono">ttl_seconds</code>.
              </p>
            </li>
            <li>
              <p>
                Tell Capdex how it went. Reports with the <code className="font-mono">discovery_id</code> of the answer, and from an API key, count more.
              </p>
              <CodeBlock
                label="Report the outcome"
                code={curlPostJson(`${api}/report_outcome`, {
                  endpoint_id: "<ranked_endpoints[0].endpoint_id>",
                  success: true,
                  latency_ms: 412,
                  status_code: 200,
                  discovery_id: "<discovery_id>",
                })}
              />
            </li>
          </ol>
          <p className="text-slate-800">
            Browse the ids with <a className="underline" href="#op-getCapabilities">GET /capabilities</a> or on the{" "}
            <Link className="underline" href="/capabilities">
              capabilities page
            </Link>
            ; providers list their endpoints with the{" "}
            <Link className="underline" href="/providers/submit">
              submission wizard
            </Link>{" "}
            or <a className="underline" href="#op-postSubmit">POST /submit</a>.
          </p>
        </section>

        <section id="authentication" aria-labelledby="authentication-h" className="space-y-3 text-slate-800">
          <h2 id="authentication-h" className={h2}>
            Authentication
          </h2>
          <p>
            Every operation works without credentials (the anonymous tier, limited per client address). An API key gives the authenticated tier: ten times the
            limits, and outcome reports that move the ranking (without a key they are recorded but weigh nothing). Create keys on your{" "}
            <Link className="underline" href="/account">
              account page
            </Link>
            ; a key is shown once, starts with <code className="font-mono">cdx_</code> and is sent as a bearer token:
          </p>
          <CodeBlock label="An authenticated call" code={`curl -s '${api}/stats' \\\n  -H "Authorization: Bearer $CAPDEX_API_KEY"`} />
          <ul className="list-disc space-y-1 pl-5">
            <li>
              An unknown, malformed or revoked key gets <Link className="underline" href="/docs/errors#invalid_api_key">401 invalid_api_key</Link>; it never
              falls back to anonymous.
            </li>
            <li>
              A key in the query string is refused (<Link className="underline" href="/docs/errors#bad_request">400</Link>): query strings end up in logs.
            </li>
            <li>Revoking a key takes effect on every instance within seconds.</li>
          </ul>
        </section>

        <section id="operations" aria-labelledby="operations-h" className="space-y-6">
          <h2 id="operations-h" className={h2}>
            Operations
          </h2>
          <ul className="grid gap-1 text-sm sm:grid-cols-2">
            {operations.map((op) => (
              <li key={op.key}>
                <a className="font-mono text-indigo-700 underline" href={`#${op.anchor}`}>
                  {op.method} /api{op.path === "/" ? "" : op.path}
                </a>{" "}
                <span className="text-slate-700">{op.summary}</span>
              </li>
            ))}
          </ul>
          {operations.map((op) => (
            <DocsOperation key={op.key} op={op} />
          ))}
        </section>

        <section id="rate-limits" aria-labelledby="rate-limits-h" className="space-y-3">
          <h2 id="rate-limits-h" className={h2}>
            Rate limits
          </h2>
          <p className="text-slate-800">
            Limits are per policy and caller (an API key, or the client address when anonymous), shared by every instance. Each limited answer carries{" "}
            <code className="font-mono">RateLimit-Policy</code> and <code className="font-mono">RateLimit</code> headers; over the limit you get{" "}
            <Link className="underline" href="/docs/errors#rate_limited">
              429 rate_limited
            </Link>{" "}
            with <code className="font-mono">Retry-After</code>.
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Rate limits table">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="rate-limits">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>Operations</th>
                  <th scope="col" className={th}>Policy</th>
                  <th scope="col" className={`${th} text-right`}>Anonymous</th>
                  <th scope="col" className={`${th} text-right`}>Authenticated</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {(Object.keys(POLICIES) as PolicyName[]).map((name) => {
                  const p = POLICIES[name];
                  const per = windowName(p.windowSeconds);
                  return (
                    <tr key={name}>
                      <td className={`${td} font-mono`}>{POLICY_OPERATIONS[name].join(", ")}</td>
                      <td className={`${td} font-mono`}>{name}</td>
                      <td className={`${td} text-right tabular-nums`}>
                        {p.anonymous} / {per}
                      </td>
                      <td className={`${td} text-right tabular-nums`}>
                        {p.authenticated} / {per}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>

        <section id="ranking-presets" aria-labelledby="ranking-presets-h" className="space-y-3">
          <h2 id="ranking-presets-h" className={h2}>
            Ranking presets
          </h2>
          <p className="text-slate-800">
            <code className="font-mono">preferences.ranking_preset</code> picks the weights of the score&apos;s four parts. Custom{" "}
            <code className="font-mono">preferences.weights</code> replace them and are normalised to sum 1. Endpoints with no reports get a prior, not 0 or 1.
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Ranking presets table">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="presets">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>Preset</th>
                  <th scope="col" className={`${th} text-right`}>Success 7d</th>
                  <th scope="col" className={`${th} text-right`}>Latency</th>
                  <th scope="col" className={`${th} text-right`}>Price</th>
                  <th scope="col" className={`${th} text-right`}>Stability</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {PRESET_NAMES.map((p) => {
                  const w = RANKING_PRESETS[p];
                  return (
                    <tr key={p}>
                      <td className={`${td} font-mono`}>{p}</td>
                      {[w.success, w.latency, w.price, w.stability].map((v, i) => (
                        <td key={i} className={`${td} text-right tabular-nums`}>
                          {Math.round(v * 100)}%
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>

        <section id="errors" aria-labelledby="errors-h" className="space-y-3">
          <h2 id="errors-h" className={h2}>
            Errors
          </h2>
          <p className="text-slate-800">
            Errors are RFC 9457 problem details with a stable <code className="font-mono">code</code>; their <code className="font-mono">type</code> links to{" "}
            <Link className="underline" href="/docs/errors">
              the list of errors
            </Link>
            .
          </p>
          <ul className="grid gap-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
            {(Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => (
              <li key={code}>
                <Link className="font-mono text-indigo-700 underline" href={`/docs/errors#${code}`}>
                  {ERROR_CODES[code].status} {code}
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <section id="mcp" aria-labelledby="mcp-h" className="space-y-3 text-slate-800">
          <h2 id="mcp-h" className={h2}>
            MCP
          </h2>
          <McpSetup origin={origin} />
        </section>
      </div>
    </>
  );
}

function windowName(seconds: number): string {
  return seconds === 60 ? "min" : seconds === 3600 ? "hour" : `${seconds} s`;
}

function McpSetup({ origin }: { origin: string }) {
  const config = mcpClientConfig(origin);
  return (
    <>
      <p>
        Agents that speak the Model Context Protocol can use Capdex as a tool server (Streamable HTTP) at{" "}
        <code className="break-all font-mono">{config.url}</code>: the same discovery, capabilities and outcome reports as the HTTP API, with the same rate
        limits. Replace the placeholder with an API key from your{" "}
        <Link className="underline" href="/account">
          account
        </Link>
        , or leave the header out to use it anonymously.
      </p>
      <div className="space-y-4">
        {config.snippets.map((s) => (
          <div key={s.id}>
            <h3 className="font-medium text-slate-950">
              {s.client} <span className="font-normal text-slate-700">· {s.where === "terminal" ? "in a terminal" : s.where}</span>
            </h3>
            {s.note && <p className="text-sm text-slate-700">{s.note}</p>}
            <div className="mt-2">
              <CodeBlock label={`${s.client}: ${s.where}`} code={s.code} />
            </div>
          </div>
        ))}
      </div>
    </>
  );
}
