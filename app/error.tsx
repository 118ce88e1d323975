"use client";
// Shown when a page fails to render (database down, a bug): no internals, a way to retry.
import Link from "next/link";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-xl py-12 text-center">
      <p className="text-sm font-semibold text-red-700">Something went wrong</p>
      <h1 className="mt-2 text-2xl font-bold text-slate-950">This page could not be shown</h1>
      <p className="mt-3 text-slate-700">
        It may be a passing problem (the database briefly out of reach). Try again in a moment.
        {error.digest && <span className="mt-2 block text-xs text-slate-600">Reference: {error.digest}</span>}
      </p>
      <p className="mt-6 flex justify-center gap-4">
        <button type="button" onClick={reset} className="rounded-md bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800">
          Try again
        </button>
        <Link className="self-center font-medium text-indigo-700 underline" href="/">
          Home
        </Link>
      </p>
    </div>
  );
}
