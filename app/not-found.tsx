// 404 for pages (the API answers its own problem+json 404s).
import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="mt-2 text-2xl font-bold text-slate-950">This page does not exist</h1>
      <p className="mt-3 text-slate-700">The link may be old, or the address mistyped.</p>
      <p className="mt-6 flex justify-center gap-4">
        <Link className="font-medium text-indigo-700 underline" href="/">
          Home
        </Link>
        <Link className="font-medium text-indigo-700 underline" href="/capabilities">
          Browse capabilities
        </Link>
      </p>
    </div>
  );
}
