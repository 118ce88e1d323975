// The footer of every page: where agents and operators find the machine-readable parts.
import Link from "next/link";

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>Capdex: find the best callable HTTP API for a job, ranked by price and observed reliability.</p>
        <ul className="flex flex-wrap gap-x-4 gap-y-2">
          <li>
            <Link className="underline hover:text-slate-950" href="/docs">
              Docs
            </Link>
          </li>
          <li>
            {/* JSON documents, not pages: plain links (Link would try a client-side page transition). */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="underline hover:text-slate-950" href="/api">
              API descriptor
            </a>
          </li>
          <li>
            <a className="underline hover:text-slate-950" href="/api/openapi.json">
              OpenAPI
            </a>
          </li>
          <li>
            <Link className="underline hover:text-slate-950" href="/docs/errors">
              Errors
            </Link>
          </li>
        </ul>
      </div>
    </footer>
  );
}
