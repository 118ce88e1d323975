// The header of every page: the name (home link) and the sections.
import Link from "next/link";
import { NavLinks } from "./nav-links";

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-2 px-4 py-1 sm:px-6 sm:py-2">
        <Link href="/" className="flex items-center gap-2 rounded-md py-2 pr-2 text-lg font-bold tracking-tight text-slate-950">
          <span aria-hidden="true" className="inline-block h-6 w-6 rounded-md bg-indigo-700 text-center text-sm leading-6 text-white">
            C
          </span>
          Capdex
        </Link>
        <NavLinks />
      </nav>
    </header>
  );
}
