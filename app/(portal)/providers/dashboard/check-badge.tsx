// An endpoint's check state as a small coloured label (text carries the meaning, not the colour).
const STYLES: Record<string, string> = {
  verified: "bg-emerald-100 text-emerald-900",
  unverified: "bg-amber-100 text-amber-900",
  failing: "bg-red-100 text-red-900",
};

export function CheckBadge({ state }: { state: string }) {
  return <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STYLES[state] ?? "bg-slate-100 text-slate-800"}`}>{state}</span>;
}
