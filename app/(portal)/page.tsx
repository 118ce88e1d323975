// Home: what Capdex is, an intent search (a GET form resolved on the server with discover), the
// headline figures and the categories.
import Link from "next/link";
import { FigureCard } from "@/components/figure-card";
import { IntentResult } from "@/components/intent-result";
import { Notice } from "@/components/notice";
import { getDb } from "@/lib/server/db";
import { discover } from "@/lib/discovery";
import { isApiError } from "@/lib/http/errors";
import { getEndpointFacts } from "@/lib/portal/endpoints";
import { formatInt, formatPercent } from "@/lib/portal/format";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { portalPrincipal } from "@/lib/portal/request";
import { checkRateLimit } from "@/lib/ratelimit";
import { getRegistry } from "@/lib/registry";
import { discoverBodySchema, type DiscoverResponse } from "@/lib/schemas/discover";
import { getStats } from "@/lib/stats";
import type { Db } from "@/lib/db/client";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";

const EXAMPLES = ["weather in Lisbon right now", "translate text to German", "extract text from a PDF", "price of bitcoin"];

type Search =
  | { kind: "none" }
  | { kind: "found"; answer: DiscoverResponse; facts: Awaited<ReturnType<typeof getEndpointFacts>> }
  | { kind: "unresolved"; candidates: Array<{ capability_id: string; confidence: number }> }
  | { kind: "refused" }
  | { kind: "error"; message: string };

async function runSearch(db: Db, q: string): Promise<Search> {
  if (!q) return { kind: "none" };
  const parsed = discoverBodySchema.safeParse({ intent: q, preferences: { limit: 3, include_fallbacks: false } });
  if (!parsed.success) return { kind: "error", message: parsed.error.issues[0]?.message ?? "The search is not valid." };
  try {
    const principal = await portalPrincipal(db);
    const limit = await checkRateLimit(db, "discover", principal);
    if (!limit.allowed) throw limit.error;
    const answer = await discover(db, parsed.data, principal);
    return { kind: "found", answer, facts: await getEndpointFacts(db, answer.ranked_endpoints.map((e) => e.endpoint_id)) };
  } catch (err) {
    if (!isApiError(err)) throw err;
    if (err.code === "intent_unresolved") {
      const candidates = (err.extras?.candidates as Array<{ capability_id: string; confidence: number }> | undefined) ?? [];
      return { kind: "unresolved", candidates };
    }
    if (err.code === "intent_refused") return { kind: "refused" };
    if (err.code === "rate_limited") return { kind: "error", message: "Too many searches from your address; wait a minute and try again." };
    return { kind: "error", message: err.message };
  }
}

export default portalPage("/", async function HomePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const q = (firstParam((await searchParams).q) ?? "").trim();
  const db = await getDb();
  const [registry, stats, search] = await Promise.all([getRegistry(db), getStats(db), runSearch(db, q)]);
  const statsByCategory = new Map(stats.categories.map((c) => [c.id, c]));
  const titleOf = (id: string) => registry.byId.get(id)?.title ?? id;

  return (
    <>
      <section aria-labelledby="pitch" className="mx-auto max-w-3xl py-4 text-center sm:py-8">
        <h1 id="pitch" className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
          Find the API that does the job
        </h1>
        <p className="mt-3 text-lg text-slate-700">
          Capdex ranks callable HTTP APIs for each capability by price and observed reliability, so agents and people pick the one that works.
        </p>
        <form method="get" action="/" role="search" className="mt-6 flex flex-col gap-2 sm:flex-row">
          <label htmlFor="intent" className="sr-only">
            What do you need an API for?
          </label>
          <input
            id="intent"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={500}
            placeholder="Describe the job, e.g. current weather in Lisbon"
            className="block w-full flex-1 rounded-md border border-slate-400 bg-white px-4 py-3 text-slate-950 placeholder:text-slate-500"
          />
          <button type="submit" className="rounded-md bg-indigo-700 px-5 py-3 font-semibold text-white hover:bg-indigo-800">
            Find endpoints
          </button>
        </form>
        {!q && (
          <p className="mt-3 text-sm text-slate-700">
            Try:{" "}
            {EXAMPLES.map((e, i) => (
              <span key={e}>
                {i > 0 && " · "}
                <Link className="underline hover:text-slate-950" href={`/?q=${encodeURIComponent(e)}`}>
                  {e}
                </Link>
              </span>
            ))}
          </p>
        )}
      </section>

      {search.kind !== "none" && (
        <section aria-labelledby="result-h" aria-live="polite" className="mx-auto mt-2 max-w-3xl">
          <h2 id="result-h" className="sr-only">
            Search result
          </h2>
          {search.kind === "found" ? (
            <IntentResult answer={search.answer} facts={search.facts} titleOf={titleOf} />
          ) : search.kind === "unresolved" ? (
            <Notice tone="empty" title="No capability matches that confidently">
              {search.candidates.length > 0 ? (
                <>
                  Did you mean{" "}
                  {search.candidates.map((c, i) => (
                    <span key={c.capability_id}>
                      {i > 0 && ", "}
                      <Link className="underline" href={`/capabilities/${c.capability_id}`}>
                        {titleOf(c.capability_id)}
                      </Link>
                    </span>
                  ))}
                  ? Or{" "}
                </>
              ) : (
                "Try other words, or "
              )}
              <Link className="underline" href={`/capabilities?search=${encodeURIComponent(q.split(/\s+/)[0] ?? "")}`}>
                browse the capabilities
              </Link>
              .
            </Notice>
          ) : search.kind === "refused" ? (
            <Notice tone="error" role="alert" title="Capdex does not help with this">
              This request asks for something that would harm someone (such as getting into another person&apos;s account, tracking a private person, or
              buying illegal goods), so Capdex shows no endpoints for it. If you meant something legitimate, such as checking your own account or domain,
              say so in other words.{" "}
              <Link className="underline" href="/docs/errors#intent_refused">
                Why?
              </Link>
            </Notice>
          ) : (
            <Notice tone="error" role="alert" title="The search could not be run">
              {search.message}
            </Notice>
          )}
        </section>
      )}

      <section aria-labelledby="figures-h" className="mt-12">
        <div className="flex items-baseline justify-between">
          <h2 id="figures-h" className="text-xl font-semibold text-slate-950">
            The network now
          </h2>
          <Link className="text-sm font-medium text-indigo-700 underline" href="/stats">
            Live stats
          </Link>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-5">
          <FigureCard label="Capabilities" value={formatInt(stats.capabilities.total)} note={`${formatInt(stats.capabilities.with_endpoints)} with endpoints`} />
          <FigureCard label="Endpoints" value={formatInt(stats.endpoints.total)} note={`${formatInt(stats.endpoints.verified)} verified`} />
          <FigureCard label="Providers" value={formatInt(stats.providers.total)} />
          <FigureCard label="Reports, 24 h" value={formatInt(stats.outcomes.reports_24h)} />
          <FigureCard label="Success rate, 7 d" value={formatPercent(stats.outcomes.success_rate_7d)} />
        </dl>
      </section>

      <section aria-labelledby="categories-h" className="mt-12">
        <h2 id="categories-h" className="text-xl font-semibold text-slate-950">
          Categories
        </h2>
        {registry.categories.length === 0 ? (
          <div className="mt-3">
            <Notice tone="empty" title="No categories yet">
              The registry is empty.
            </Notice>
          </div>
        ) : (
          <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {registry.categories.map((c) => {
              const s = statsByCategory.get(c.id);
              return (
                <li key={c.id}>
                  <Link href={`/capabilities?category=${c.id}`} className="block h-full rounded-lg border border-slate-200 p-4 hover:border-indigo-300 hover:bg-slate-50">
                    <span className="font-semibold text-slate-950">{c.title}</span>
                    <span className="mt-1 block text-sm text-slate-700">{c.description}</span>
                    {s && (
                      <span className="mt-2 block text-xs text-slate-600">
                        {s.capabilities} capabilities · {s.endpoints} endpoints
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
});
