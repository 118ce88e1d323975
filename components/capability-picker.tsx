"use client";
// Picking a capability from the whole registry: a filter box narrows a plain list box (which, without
// JavaScript, still lists them all).
import { useMemo, useState } from "react";
import { FieldError } from "./field";

export type CapabilityOption = { id: string; title: string; category: string };

export function CapabilityPicker({
  options,
  categories,
  defaultValue,
  error,
}: {
  options: CapabilityOption[];
  categories: Record<string, string>;
  defaultValue: string;
  error?: string;
}) {
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState(defaultValue);
  const groups = useMemo(() => {
    const terms = filter.toLowerCase().split(/\s+/).filter(Boolean);
    const out = new Map<string, CapabilityOption[]>();
    for (const o of options) {
      const hay = `${o.id} ${o.title} ${categories[o.category] ?? ""}`.toLowerCase();
      if (o.id !== selected && terms.length && !terms.every((t) => hay.includes(t))) continue;
      out.set(o.category, [...(out.get(o.category) ?? []), o]);
    }
    return out;
  }, [options, categories, filter, selected]);
  const shown = [...groups.values()].reduce((n, g) => n + g.length, 0);
  const describedBy = ["cap-filter-count", error ? "field-capability_id-error" : null].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor="cap-filter" className="block text-sm font-medium text-slate-800">
        Find the capability
      </label>
      <input
        id="cap-filter"
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        // Enter filters; it must not submit the wizard's step.
        onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
        placeholder="Filter by words, e.g. weather"
        aria-controls="field-capability_id"
        autoComplete="off"
        className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-950 placeholder:text-slate-500"
      />
      <label htmlFor="field-capability_id" className="mt-3 block text-sm font-medium text-slate-800">
        Capability
      </label>
      <p id="cap-filter-count" className="text-xs text-slate-600" aria-live="polite">
        {shown} of {options.length} shown{selected ? ` · selected: ${selected}` : ""}
      </p>
      <select
        id="field-capability_id"
        name="capability_id"
        size={8}
        // Uncontrolled: React resets a form after its action, and a controlled list box would come
        // back with nothing selected; defaultValue survives the reset.
        defaultValue={defaultValue}
        onChange={(e) => setSelected(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-1 block w-full rounded-md border bg-white px-2 py-1 text-sm text-slate-950 ${error ? "border-red-700" : "border-slate-400"}`}
      >
        {[...groups.entries()].map(([cat, list]) => (
          <optgroup key={cat} label={categories[cat] ?? cat}>
            {list.map((o) => (
              <option key={o.id} value={o.id}>
                {o.title} ({o.id})
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <FieldError id="field-capability_id-error" message={error} />
    </div>
  );
}
