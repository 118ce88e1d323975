// One of the signed-in provider's endpoints: its figures, the edit form (price, networks, method,
// description, and the call declaration built from field rows or written as raw JSON), and delist or
// relist. The forms post to server actions and work without JavaScript.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getSessionUser } from "@/lib/auth/session";
import { isApiError } from "@/lib/http/errors";
import { describeOwnedEndpoint } from "@/lib/provider";
import { formatAgo, formatInt, formatPrice } from "@/lib/portal/format";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { submittedPart } from "@/lib/portal/provider-form";
import { FIELD_TYPES, rowsOfSchema, type FieldRow } from "@/lib/portal/schema-builder";
import { HTTP_METHODS } from "@/lib/schemas/submit";
import { NETWORK_NAMES } from "@/lib/schemas/networks";
import { getDb } from "@/lib/server/db";
import { delistEndpointAction, relistEndpointAction, updateEndpointAction } from "../actions";
import { CheckBadge } from "../check-badge";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manage endpoint" };

const DONE: Record<string, string> = {
  saved: "Saved. The endpoint was checked again with the new details; it ranks as verified once a check passes.",
  unchanged: "Nothing changed, so nothing was saved.",
  delisted: "Delisted: discover no longer returns it. Relist it whenever you like.",
  relisted: "Relisted: it was checked at once and is back in discover.",
};
const input = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-950";
const label = "block text-sm font-medium text-slate-800";
const BLANK_ROWS = 3;

export default portalPage("/providers/dashboard/[id]", async function ManageEndpointPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> }) {
  const { id } = await params;
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(`/providers/dashboard/${id}`)}`);
  const sp = await searchParams;
  const e = await describeOwnedEndpoint(await getDb(), { id: user.id, email: user.email }, id).catch((err) => {
    if (isApiError(err) && err.status < 500) notFound();
    throw err;
  });
  const error = firstParam(sp.error);
  const field = firstParam(sp.field);
  const done = DONE[firstParam(sp.done) ?? ""];
  const call = e.call as { source?: string; input?: { kind?: string; schema?: unknown; example?: unknown }; output?: { type?: string; example?: unknown } } | null;
  const declared = call?.source === "declared";
  const rows = rowsOfSchema(call?.input?.schema, call?.input?.example);
  const mode = rows || !call ? "fields" : "raw";
  const shown: FieldRow[] = [...(rows ?? []), ...Array.from({ length: BLANK_ROWS }, () => ({ name: "", type: "string" as const, required: false, description: "", example: "" }))];
  const others = e.networks.slice(1);
  const errorFor = (pointer: string) => (field && field.startsWith(pointer) ? error : undefined);

  return (
    <div>
      <p className="text-sm">
        <Link href="/providers/dashboard" className="text-indigo-700 underline">
          ← Your endpoints
        </Link>
      </p>
      <PageTitle title="Manage endpoint" lead={<span className="break-all font-mono text-base">{e.url}</span>}>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span className="font-mono">{e.capability_id}</span>
          {e.status === "listed" ? <CheckBadge state={e.check_state} /> : <span className="font-semibold">delisted</span>}
          <Link href={`/endpoints/${e.endpoint_id}`} className="text-indigo-700 underline">
            Public page
          </Link>
        </div>
      </PageTitle>

      {done && (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      )}
      {error && (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      )}

      <section aria-labelledby="figures" className="mt-6">
        <h2 id="figures" className="text-lg font-semibold text-slate-950">
          How it is doing
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-600">Rank (default preset)</dt>
            <dd className="text-lg font-semibold" data-testid="rank">{e.rank.position ? `${e.rank.position} of ${e.rank.of}` : "not ranked"}</dd>
          </div>
          <div>
            <dt className="text-slate-600">In discover answers (24 h)</dt>
            <dd className="text-lg font-semibold">
              {formatInt(e.impressions_24h)}
              {e.average_position_24h !== null && <span className="text-sm font-normal text-slate-600"> · avg. place {e.average_position_24h}</span>}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Callers&apos; reports (7 d)</dt>
            <dd className="text-lg font-semibold">
              {formatInt(e.reports_7d.reports)} <span className="text-sm font-normal text-slate-600">({formatInt(e.reports_7d.failures)} failed, {formatInt(e.reports_7d.distinct_reporters)} callers)</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Failed checks (7 d)</dt>
            <dd className="text-lg font-semibold">{formatInt(e.failing_checks_7d)}</dd>
          </div>
        </dl>
        <p className="mt-3 text-sm text-slate-700">
          {e.last_check ? (
            <>
              Last check {formatAgo(e.last_check.at)}: {e.last_check.ok ? "passed" : <strong className="text-red-800">failed ({e.last_check.reason}{e.last_check.status ? `, HTTP ${e.last_check.status}` : ""})</strong>}
              {e.consecutive_failures > 0 && `, ${e.consecutive_failures} in a row`}.{" "}
              {!e.last_check.ok && (
                <Link href="/docs/submissions#probes" className="text-indigo-700 underline">
                  What the reasons mean
                </Link>
              )}
            </>
          ) : (
            "Not checked yet."
          )}{" "}
          We e-mail you when it starts failing (three failed checks in a row), once.
        </p>
      </section>

      <section aria-labelledby="edit" className="mt-10">
        <h2 id="edit" className="text-lg font-semibold text-slate-950">
          Edit
        </h2>
        <form action={updateEndpointAction} className="mt-3 min-w-0 max-w-3xl space-y-5" data-testid="edit-form">
          <input type="hidden" name="endpointId" value={e.endpoint_id} />
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="price" className={label}>
                Price per call (USD)
              </label>
              <input id="price" name="price_per_call" inputMode="decimal" defaultValue={String(e.price_per_call)} className={input} aria-invalid={errorFor("#/price_per_call") ? true : undefined} aria-describedby="price-hint" />
              <p id="price-hint" className="mt-1 text-xs text-slate-600">
                0 for a free endpoint (shown as {formatPrice(0)}). Now {formatPrice(e.price_per_call)}.
              </p>
            </div>
            <div>
              <label htmlFor="method" className={label}>
                Method
              </label>
              <select id="method" name="method" defaultValue={e.method} className={input}>
                {HTTP_METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </div>
          </div>
          <fieldset className="min-w-0">
            <legend className={label}>Payment networks</legend>
            <div className="mt-1 grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="network" className="block text-xs text-slate-700">
                  Listed first
                </label>
                <select id="network" name="network" defaultValue={e.network} className={input}>
                  {NETWORK_NAMES.map((n) => (
                    <option key={n}>{n}</option>
                  ))}
                </select>
              </div>
              <div>
                <p className="text-xs text-slate-700">Also accepts</p>
                <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                  {NETWORK_NAMES.map((n) => (
                    <label key={n} className="flex items-center gap-1 text-sm">
                      <input type="checkbox" name="networks" value={n} defaultChecked={others.includes(n)} /> {n}
                    </label>
                  ))}
                </div>
              </div>
            </div>
          </fieldset>
          <div>
            <label htmlFor="assets" className={label}>
              Accepted assets
            </label>
            <input id="assets" name="accepted_assets" defaultValue={e.accepted_assets.join(", ")} className={input} />
          </div>
          <div>
            <label htmlFor="description" className={label}>
              Description
            </label>
            <textarea id="description" name="description" rows={2} maxLength={500} defaultValue={e.description} className={input} />
          </div>

          <fieldset className="min-w-0 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">How to call it</legend>
            {declared && (
              <p className="text-sm text-slate-700">
                Your endpoint&apos;s 402 declares its call (the x402 bazaar extension), and that declaration wins over anything written here: change it
                in your server. You may still write one; the next check puts the declared one back.
              </p>
            )}
            <div className="mt-2 flex flex-wrap gap-4 text-sm" role="radiogroup" aria-label="How the call is given">
              {[
                ["keep", "Keep as it is"],
                ["fields", "Build from fields"],
                ["raw", "Raw JSON (advanced)"],
                ["none", "No call description"],
              ].map(([value, text]) => (
                <label key={value} className="flex items-center gap-1">
                  <input type="radio" name="call_mode" value={value} defaultChecked={value === "keep"} /> {text}
                </label>
              ))}
            </div>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="input_kind" className={label}>
                  Input goes in
                </label>
                <select id="input_kind" name="input_kind" defaultValue={call?.input?.kind === "body" ? "body" : "query"} className={input}>
                  <option value="query">the query string (GET, DELETE)</option>
                  <option value="body">a JSON body (POST, PUT, PATCH)</option>
                </select>
              </div>
            </div>
            <div className="mt-4 overflow-x-auto" role="region" aria-label="Input fields" tabIndex={0}>
            <table className="min-w-[40rem] text-sm" data-testid="field-rows">
              <caption className="sr-only">Input fields</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="pr-2 font-medium">Field</th>
                  <th scope="col" className="pr-2 font-medium">Type</th>
                  <th scope="col" className="pr-2 font-medium">Required</th>
                  <th scope="col" className="pr-2 font-medium">Description</th>
                  <th scope="col" className="font-medium">Example</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r, i) => (
                  <tr key={i}>
                    <td className="pr-2">
                      <input name={`field_${i}_name`} defaultValue={r.name} aria-label={`Field ${i + 1} name`} className={input} />
                    </td>
                    <td className="pr-2">
                      <select name={`field_${i}_type`} defaultValue={r.type} aria-label={`Field ${i + 1} type`} className={input}>
                        {FIELD_TYPES.map((t) => (
                          <option key={t}>{t}</option>
                        ))}
                      </select>
                    </td>
                    <td className="pr-2 text-center">
                      <input type="checkbox" name={`field_${i}_required`} defaultChecked={r.required} aria-label={`Field ${i + 1} required`} />
                    </td>
                    <td className="pr-2">
                      <input name={`field_${i}_description`} defaultValue={r.description} aria-label={`Field ${i + 1} description`} className={input} />
                    </td>
                    <td>
                      <input name={`field_${i}_example`} defaultValue={r.example} aria-label={`Field ${i + 1} example`} className={input} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
            <p className="mt-1 text-xs text-slate-600">Leave a name empty to drop the row; save to get more empty rows. Capdex writes the JSON Schema from these rows.</p>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="output_type" className={label}>
                  Answer type
                </label>
                <input id="output_type" name="output_type" defaultValue={call?.output?.type ?? ""} placeholder="json" className={input} />
              </div>
              <div>
                <label htmlFor="output_example" className={label}>
                  Example answer (JSON)
                </label>
                <input id="output_example" name="output_example" defaultValue={call?.output?.example !== undefined ? JSON.stringify(call.output.example) : ""} className={`${input} font-mono`} />
              </div>
            </div>
            <div className="mt-4">
              <label htmlFor="call_raw" className={label}>
                Raw JSON (used with “Raw JSON”): <code>{"{ input: { kind, schema, example }, output }"}</code>, as POST /api/submit takes it
              </label>
              <textarea
                id="call_raw"
                name="call_raw"
                rows={6}
                defaultValue={call ? JSON.stringify(submittedPart(call), null, 2) : ""}
                className={`${input} font-mono text-xs`}
                aria-invalid={errorFor("#/call") ? true : undefined}
              />
              {mode === "raw" && <p className="mt-1 text-xs text-slate-700">This call is richer than field rows can say: edit it as raw JSON.</p>}
            </div>
          </fieldset>
          <button type="submit" className="rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800">
            Save and check again
          </button>
        </form>
      </section>

      <section aria-labelledby="listing" className="mt-10">
        <h2 id="listing" className="text-lg font-semibold text-slate-950">
          Listing
        </h2>
        {e.status === "listed" ? (
          <form action={delistEndpointAction} className="mt-2">
            <input type="hidden" name="endpointId" value={e.endpoint_id} />
            <p className="text-sm text-slate-700">Delisting takes it out of discover at once; its history is kept and you can relist it.</p>
            <button type="submit" className="mt-2 rounded-md border border-red-700 px-4 py-2 text-sm font-semibold text-red-800 hover:bg-red-50">
              Delist
            </button>
          </form>
        ) : e.delisted_by === "provider" ? (
          <form action={relistEndpointAction} className="mt-2">
            <input type="hidden" name="endpointId" value={e.endpoint_id} />
            <p className="text-sm text-slate-700">You delisted it. Relisting checks it at once; it is back in discover straight away, as verified once the check passes.</p>
            <button type="submit" className="mt-2 rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800">
              Relist
            </button>
          </form>
        ) : (
          <p className="mt-2 text-sm text-slate-700">An operator delisted it (or its submission was rejected), so it cannot be relisted here.</p>
        )}
      </section>
    </div>
  );
});
