// One capability: what it does, its endpoints ranked (or filtered through discover's constraints and
// presets, in the URL), and copyable examples for agents.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CodeBlock } from "@/components/code-block";
import { EndpointTable } from "@/components/endpoint-table";
import { EndpointFilters } from "@/components/endpoint-filters";
import { HowToCall } from "@/components/endpoint-call";
import { Notice } from "@/components/notice";
import { getDb } from "@/lib/server/db";
import { discover, listRankedEndpoints } from "@/lib/discovery";
import { isApiError } from "@/lib/http/errors";
import { getEndpointFacts } from "@/lib/portal/endpoints";
import { curlGet, curlPostJson } from "@/lib/portal/examples";
import { agentBody, readFilters } from "@/lib/portal/filters";
import type { SearchParams } from "@/lib/portal/params";
import { portalPrincipal, requestOrigin } from "@/lib/portal/request";
import { checkRateLimit } from "@/lib/ratelimit";
import { getCapabilityOrThrow, getRegistry, suggestCapabilityIds } from "@/lib/registry";
import { capabilityIdSchema } from "@/lib/schemas/common";
import type { DiscoverResponse } from "@/lib/schemas/discover";
import type { Capability } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { portalMetadata, portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

async function findCapability(db: Db, id: string): Promise<Capability | null> {
  if (!capabilityIdSchema.safeParse(id).success) return null;
  try {
    return await getCapabilityOrThrow(db, id);
  } catch (err) {
    if (isApiError(err) && err.code === "capability_not_found") return null;
    throw err;
  }
}

export const generateMetadata = portalMetadata(async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const cap = await findCapability(await getDb(), decodeURIComponent(id));
  return cap ? { title: `${cap.title} (${cap.id})` } : { title: "Unknown capability", robots: { index: false } };
}, {});

export default portalPage("/capabilities/[id]", async function CapabilityPage({ params, searchParams }: Props) {
  const [{ id: rawId }, sp] = await Promise.all([params, searchParams]);
  const db = await getDb();
  const wanted = decodeURIComponent(rawId);
  const cap = await findCapability(db, wanted);
  if (!cap) {
    // The API's own answer to an unknown id (404 capability_not_found with suggestions), for people.
    if (wanted.length > 200) notFound();
    const registry = await getRegistry(db);
    return <UnknownCapability id={wanted} suggestions={suggestCapabilityIds(registry.capabilities, wanted, 5).map((s) => registry.byId.get(s)).filter((c): c is Capability => !!c)} />;
  }
  const [registry, origin] = await Promise.all([getRegistry(db), requestOrigin()]);
  const category = registry.categories.find((c) => c.id === cap.categoryId);
  const filters = readFilters(cap.id, sp);
  const now = new Date();

  let ranked: DiscoverResponse["ranked_endpoints"] = [];
  let fallbacks: DiscoverResponse["fallback_endpoints"] = [];
  let problem: string | null = null;
  let presetUsed = "default";
  if (filters.active && filters.body) {
    try {
      const principal = await portalPrincipal(db);
      const limit = await checkRateLimit(db, "discover", principal);
      if (!limit.allowed) throw limit.error;
      const answer = await discover(db, filters.body, principal);
      ranked = answer.ranked_endpoints;
      fallbacks = answer.fallback_endpoints;
      presetUsed = answer.ranking_info.preset;
    } catch (err) {
      if (!isApiError(err)) throw err;
      problem = err.code === "rate_limited" ? "Too many searches from your address; wait a minute and try again." : err.message;
    }
  } else if (!filters.active) {
    ranked = await listRankedEndpoints(db, cap.id);
  }
  const facts = await getEndpointFacts(db, [...ranked, ...fallbacks].map((e) => e.endpoint_id));
  const exampleBody = filters.body ? agentBody(filters.body) : { capability_id: cap.id };

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-700">
        <Link className="underline hover:text-slate-950" href="/capabilities">
          Capabilities
        </Link>
        <span aria-hidden="true"> / </span>
        <Link className="underline hover:text-slate-950" href={`/capabilities?category=${cap.categoryId}`}>
          {category?.title ?? cap.categoryId}
        </Link>
      </nav>
      <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">{cap.title}</h1>
      <p className="mt-1 font-mono text-sm text-slate-700" data-testid="capability-id">
        {cap.id}
      </p>
      <p className="mt-3 max-w-3xl text-slate-800">{cap.description}</p>
      {(cap.tags.length > 0 || cap.aliases.length > 0) && (
        <dl className="mt-4 grid max-w-3xl gap-2 text-sm sm:grid-cols-[8rem_1fr]">
          {cap.tags.length > 0 && (
            <>
              <dt className="font-medium text-slate-800">Tags</dt>
              <dd className="flex flex-wrap gap-1">
                {cap.tags.map((t) => (
                  <span key={t} className="rounded bg-slate-100 px-2 py-0.5 text-slate-800">
                    {t}
                  </span>
                ))}
              </dd>
            </>
          )}
          {cap.aliases.length > 0 && (
            <>
              <dt className="font-medium text-slate-800">Also asked as</dt>
              <dd className="text-slate-700">{cap.aliases.slice(0, 8).join(" · ")}</dd>
            </>
          )}
        </dl>
      )}

      <section aria-labelledby="endpoints-heading" className="mt-10">
        <h2 id="endpoints-heading" className="text-xl font-semibold text-slate-950">
          Endpoints
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Ranked by score (0 to 1, higher first) from the 7-day success rate, p95 latency, price and stability. Narrow them down
          with the same constraints and presets as <code className="font-mono">POST /api/discover</code>.
        </p>
        <EndpointFilters capabilityId={cap.id} values={filters.values} errors={filters.errors} active={filters.active} />
        <div className="mt-4 space-y-6" aria-live="polite">
          {problem ? (
            <Notice tone="error" role="alert" title="The endpoints could not be ranked">
              {problem}
            </Notice>
          ) : filters.active && !filters.body ? (
            <Notice tone="error" role="alert" title="Fix the filters above">
              {filters.errors.form ?? "Some values are not valid."}
            </Notice>
          ) : ranked.length === 0 && fallbacks.length === 0 ? (
            <Notice tone="empty" title={filters.active ? "No endpoint meets these filters" : "No endpoints listed yet"}>
              {filters.active ? (
                <>
                  Loosen the filters, or{" "}
                  <Link className="underline" href={`/capabilities/${cap.id}`}>
                    show every endpoint
                  </Link>
                  .
                </>
              ) : (
                <>
                  Be the first:{" "}
                  <Link className="underline" href={`/providers/submit?capability=${cap.id}`}>
                    submit an endpoint for {cap.id}
                  </Link>
                  .
                </>
              )}
            </Notice>
          ) : (
            <>
              {ranked.length > 0 ? (
                <EndpointTable
                  rows={ranked}
                  facts={facts}
                  now={now}
                  testId="ranked-endpoints"
                  caption={filters.active ? `Endpoints meeting the filters, ranked with the ${presetUsed} preset` : "Listed endpoints in default rank order"}
                />
              ) : (
                <Notice tone="empty" title="No endpoint meets every filter">
                  The nearest misses are listed below with the reason each was left out.
                </Notice>
              )}
              {fallbacks.length > 0 && (
                <div>
                  <h3 className="mb-2 font-semibold text-slate-950">Not ranked</h3>
                  <EndpointTable rows={fallbacks} facts={facts} now={now} showReasons testId="fallback-endpoints" caption="Endpoints left out of the ranking, with the reason" />
                </div>
              )}
            </>
          )}
        </div>
      </section>

      <HowToCall endpoints={ranked} />

      <section aria-labelledby="agents-heading" className="mt-10">
        <h2 id="agents-heading" className="text-xl font-semibold text-slate-950">
          For agents
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          The same ranking over the API{filters.active ? ", with the filters above" : ""}. No key needed; an API key raises the rate limits (
          <Link className="underline" href="/docs#authentication">
            docs
          </Link>
          ).
        </p>
        <div className="mt-3 grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
          <CodeBlock label="curl: POST /api/discover" copyLabel="Copy curl" code={curlPostJson(`${origin}/api/discover`, exampleBody)} />
          <CodeBlock label="JSON request body" copyLabel="Copy JSON" code={JSON.stringify(exampleBody, null, 2)} />
          <div className="lg:col-span-2">
            <CodeBlock label="curl: this capability with its endpoints" copyLabel="Copy curl" code={curlGet(`${origin}/api/capabilities/${cap.id}?with_endpoints=true`)} />
          </div>
        </div>
      </section>
    </>
  );
});

function UnknownCapability({ id, suggestions }: { id: string; suggestions: Capability[] }) {
  return (
    <div className="mx-auto max-w-2xl py-8" data-testid="unknown-capability">
      <p className="text-sm font-semibold text-indigo-700">Unknown capability</p>
      <h1 className="mt-2 text-2xl font-bold text-slate-950">
        There is no capability <span className="break-all font-mono">{id}</span>
      </h1>
      {suggestions.length > 0 ? (
        <>
          <p className="mt-3 text-slate-700">Did you mean one of these? (The API suggests the same ones in its 404 answer.)</p>
          <ul className="mt-3 space-y-2">
            {suggestions.map((c) => (
              <li key={c.id}>
                <Link href={`/capabilities/${c.id}`} className="font-medium text-indigo-700 underline">
                  {c.title}
                </Link>{" "}
                <span className="font-mono text-sm text-slate-600">{c.id}</span>
                <p className="text-sm text-slate-700">{c.description}</p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-3 text-slate-700">Nothing close to it either.</p>
      )}
      <p className="mt-6 flex gap-4 text-sm">
        <Link href={`/capabilities?search=${encodeURIComponent(id.replace(/[._]/g, " ").slice(0, 100))}`} className="font-medium text-indigo-700 underline">
          Search the capabilities
        </Link>
        <Link href={`/?q=${encodeURIComponent(id.replace(/[._]/g, " ").slice(0, 100))}`} className="font-medium text-indigo-700 underline">
          Describe what you need
        </Link>
      </p>
    </div>
  );
}
