// The capabilities browser: keyword search, category filter and cursor pagination, all in the URL
// (a GET form), so every view is shareable and works without JavaScript.
import type { Metadata } from "next";
import Link from "next/link";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { getRegistry, listCapabilities } from "@/lib/registry";
import { listCapabilitiesQuerySchema } from "@/lib/schemas/capabilities";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Capabilities" };

const PAGE_SIZE = "24";

export default portalPage("/capabilities", async function CapabilitiesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const search = firstParam(sp.search)?.trim() ?? "";
  const category = firstParam(sp.category) ?? "";
  const cursor = firstParam(sp.cursor);
  const db = await getDb();
  const registry = await getRegistry(db);

  const parsed = listCapabilitiesQuerySchema.safeParse({
    search: search || undefined,
    category: category || undefined,
    cursor: cursor || undefined,
    with_endpoints: "true",
    limit: PAGE_SIZE,
  });
  let result: Awaited<ReturnType<typeof listCapabilities>> | null = null;
  let problem: string | null = null;
  if (!parsed.success) problem = parsed.error.issues[0]?.message ?? "The search is not valid.";
  else {
    try {
      result = await listCapabilities(db, parsed.data);
    } catch (err) {
      if (!isApiError(err)) throw err;
      problem = err.errors?.[0]?.detail ?? err.message;
    }
  }
  const categoryTitle = registry.categories.find((c) => c.id === category)?.title;
  const pageHref = (next: string | null) => {
    const p = new URLSearchParams();
    if (search) p.set("search", search);
    if (category) p.set("category", category);
    if (next) p.set("cursor", next);
    const qs = p.toString();
    return qs ? `/capabilities?${qs}` : "/capabilities";
  };

  return (
    <>
      <PageTitle
        title="Capabilities"
        lead="Each capability is one job an API can do, named <category>.<name>. Open one to see its endpoints ranked by price and observed reliability."
      />
      <form method="get" action="/capabilities" role="search" className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
        <div>
          <label htmlFor="cap-search" className="block text-sm font-medium text-slate-800">
            Keyword
          </label>
          <input
            id="cap-search"
            type="search"
            name="search"
            defaultValue={search}
            maxLength={200}
            placeholder="e.g. weather, translate, pdf"
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-950 placeholder:text-slate-500"
          />
        </div>
        <div>
          <label htmlFor="cap-category" className="block text-sm font-medium text-slate-800">
            Category
          </label>
          <select
            id="cap-category"
            name="category"
            defaultValue={category}
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-950"
          >
            <option value="">All categories</option>
            {registry.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="rounded-md bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800">
          Search
        </button>
      </form>

      <div className="mt-6" aria-live="polite">
        {problem ? (
          <Notice tone="error" role="alert" title="This search could not be run">
            {problem}{" "}
            <Link className="underline" href="/capabilities">
              Start again
            </Link>
          </Notice>
        ) : result && result.capabilities.length === 0 ? (
          <Notice tone="empty" title="No capability matches">
            Try fewer or other words{category ? `, or search all categories instead of ${categoryTitle ?? category}` : ""}.{" "}
            <Link className="underline" href="/capabilities">
              Show all capabilities
            </Link>
          </Notice>
        ) : result ? (
          <>
            <p className="text-sm text-slate-700" data-testid="result-count">
              {result.total} {result.total === 1 ? "capability" : "capabilities"}
              {search ? ` matching “${search}”` : ""}
              {category ? ` in ${categoryTitle ?? category}` : ""}
              {cursor ? " (later page)" : ""}
            </p>
            <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {result.capabilities.map((c) => (
                <li key={c.id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 hover:border-indigo-300">
                  <h2 className="font-semibold text-slate-950">
                    <Link href={`/capabilities/${c.id}`} className="hover:underline">
                      {c.title}
                    </Link>
                  </h2>
                  <p className="font-mono text-xs text-slate-600">{c.id}</p>
                  <p className="mt-2 line-clamp-3 flex-1 text-sm text-slate-700">{c.description}</p>
                  <p className="mt-3 flex items-center justify-between text-xs text-slate-700">
                    <Link href={`/capabilities?category=${c.category}`} className="rounded bg-slate-100 px-2 py-1 hover:bg-slate-200">
                      {registry.categories.find((k) => k.id === c.category)?.title ?? c.category}
                    </Link>
                    <span>
                      {c.endpoint_count ?? 0} {c.endpoint_count === 1 ? "endpoint" : "endpoints"}
                    </span>
                  </p>
                </li>
              ))}
            </ul>
            <nav aria-label="Pages" className="mt-6 flex justify-between gap-3">
              {cursor ? (
                <Link className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50" href={pageHref(null)}>
                  ← First page
                </Link>
              ) : (
                <span />
              )}
              {result.next_cursor && (
                <Link className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50" href={pageHref(result.next_cursor)}>
                  Next page →
                </Link>
              )}
            </nav>
          </>
        ) : null}
      </div>
    </>
  );
});
