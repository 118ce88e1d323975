// A block of code (curl, JSON) with a copy button.
import { CopyButton } from "./copy-button";

export function CodeBlock({ code, label, copyLabel = "Copy" }: { code: string; label: string; copyLabel?: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-950">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 px-3 py-2 text-xs font-medium text-slate-300">
        <span>{label}</span>
        <CopyButton value={code} label={copyLabel} />
      </figcaption>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto p-3 text-xs leading-relaxed text-slate-100 sm:text-sm">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
