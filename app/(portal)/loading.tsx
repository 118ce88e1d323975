// Shown while a page's data loads after a client-side navigation.
export default function Loading() {
  return (
    <div role="status" className="py-12 text-center text-slate-700">
      <span aria-hidden="true" className="mx-auto mb-3 block h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-700" />
      Loading…
    </div>
  );
}
