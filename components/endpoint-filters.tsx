// The constraint and preset controls of discover, as a GET form (shareable, works without JavaScript).
import Link from "next/link";
import type { FilterValues } from "@/lib/portal/filters";
import { PRESET_NAMES, RANKING_PRESETS } from "@/lib/schemas/discover";
import { NETWORK_NAMES } from "@/lib/schemas/networks";
import { FieldError } from "./field";

const input = "mt-1 block w-full rounded-md border bg-white px-3 py-2 text-slate-950";

function pct(n: number) {
  return Math.round(n * 100);
}

export function EndpointFilters({
  capabilityId,
  values,
  errors,
  active,
}: {
  capabilityId: string;
  values: FilterValues;
  errors: Record<string, string>;
  active: boolean;
}) {
  const border = (f: string) => (errors[f] ? "border-red-700" : "border-slate-400");
  return (
    <form method="get" action={`/capabilities/${capabilityId}`} aria-label="Filter endpoints" className="mt-4 grid gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4 [&>*]:min-w-0 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.6fr_auto_auto] lg:items-end">
      <div>
        <label htmlFor="f-max-price" className="block text-sm font-medium text-slate-800">
          Max price (USD / call)
        </label>
        <input
          id="f-max-price"
          name="max_price"
          inputMode="decimal"
          defaultValue={values.max_price}
          placeholder="any"
          aria-invalid={errors.max_price ? true : undefined}
          aria-describedby={errors.max_price ? "f-max-price-error" : undefined}
          className={`${input} ${border("max_price")}`}
        />
        <FieldError id="f-max-price-error" message={errors.max_price} />
      </div>
      <div>
        <label htmlFor="f-network" className="block text-sm font-medium text-slate-800">
          Network
        </label>
        <select
          id="f-network"
          name="network"
          defaultValue={values.network}
          aria-invalid={errors.network ? true : undefined}
          aria-describedby={errors.network ? "f-network-error" : undefined}
          className={`${input} ${border("network")}`}
        >
          <option value="">Any network</option>
          {NETWORK_NAMES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          {values.network && !NETWORK_NAMES.includes(values.network as never) && <option value={values.network}>{values.network}</option>}
        </select>
        <FieldError id="f-network-error" message={errors.network} />
      </div>
      <div>
        <label htmlFor="f-preset" className="block text-sm font-medium text-slate-800">
          Ranking preset <span className="font-normal text-slate-600">(% success/latency/price/stability)</span>
        </label>
        <select
          id="f-preset"
          name="preset"
          defaultValue={values.preset || "default"}
          aria-invalid={errors.preset ? true : undefined}
          aria-describedby={errors.preset ? "f-preset-error" : undefined}
          className={`${input} ${border("preset")}`}
        >
          {PRESET_NAMES.map((p) => {
            const w = RANKING_PRESETS[p];
            return (
              <option key={p} value={p}>
                {p} ({pct(w.success)}/{pct(w.latency)}/{pct(w.price)}/{pct(w.stability)})
              </option>
            );
          })}
        </select>
        <FieldError id="f-preset-error" message={errors.preset} />
      </div>
      <div className="flex items-center gap-2 lg:pb-2">
        <input id="f-verified" type="checkbox" name="verified_only" value="1" defaultChecked={values.verified_only} className="h-5 w-5 rounded border-slate-500" />
        <label htmlFor="f-verified" className="text-sm font-medium text-slate-800">
          Verified only
        </label>
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-md bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800">
          Apply
        </button>
        {active && (
          <Link href={`/capabilities/${capabilityId}`} className="text-sm font-medium text-indigo-700 underline">
            Reset
          </Link>
        )}
      </div>
    </form>
  );
}
