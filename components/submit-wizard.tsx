"use client";
// The three steps of a submission. Each step posts to one server action that checks it with the
// API's schema; errors appear beside their field, and focus moves to the first one (or the next step).
import { useActionState, useEffect, useRef } from "react";
import { wizardAction, type WizardState } from "@/app/(portal)/providers/submit/actions";
import { PROPOSE_CHOICE, WIZARD_FIELDS, WIZARD_STEPS, isProposing, type WizardField } from "@/lib/portal/wizard-steps";
import { NETWORK_NAMES } from "@/lib/schemas/networks";
import { CapabilityPicker, type CapabilityOption } from "./capability-picker";
import { FieldError, TextField } from "./field";
import { Notice } from "./notice";

const select = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-950";

function TextArea({ name, label, value, error, hint, rows = 3, maxLength }: { name: string; label: React.ReactNode; value: string; error?: string; hint?: string; rows?: number; maxLength?: number }) {
  const describedBy = [hint ? `field-${name}-hint` : null, error ? `field-${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={`field-${name}`} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={`field-${name}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      <textarea
        id={`field-${name}`}
        name={name}
        rows={rows}
        maxLength={maxLength}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${select} ${error ? "border-red-700" : ""}`}
      />
      <FieldError id={`field-${name}-error`} message={error} />
    </div>
  );
}

/**
 * Pick a capability, or (none fits) propose one: two radios, and CSS alone (:has, so it works
 * without JavaScript too) shows the list or the proposal's fields for the one checked.
 */
function CapabilityChoice({
  proposing,
  values,
  errors,
  children,
}: {
  proposing: boolean;
  values: Partial<Record<WizardField, string>>;
  errors: Partial<Record<WizardField | "form", string>>;
  children: React.ReactNode;
}) {
  const v = (f: WizardField) => values[f] ?? "";
  const radio = "h-4 w-4 accent-indigo-700";
  return (
    <fieldset className="group/cap space-y-3">
      <legend className="text-sm font-medium text-slate-800">Which capability does it serve?</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-900">
        <label className="flex items-center gap-2">
          <input type="radio" id="cap-choice-pick" name="capability_choice" value="pick" defaultChecked={!proposing} className={radio} />
          Pick it from the list
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" id="cap-choice-propose" name="capability_choice" value={PROPOSE_CHOICE} defaultChecked={proposing} className={radio} />
          None fits — propose a capability
        </label>
      </div>
      <div className="group-has-[#cap-choice-propose:checked]/cap:hidden">{children}</div>
      <div className="hidden space-y-4 rounded-lg border border-slate-200 p-4 group-has-[#cap-choice-propose:checked]/cap:block" data-testid="propose-capability">
        <Notice tone="info" title="The listing waits for an operator">
          You still prove your domain with a DNS record. Then the endpoint waits, as “Waiting for its capability”, until an operator accepts the
          capability you propose (it is listed at once) or rejects it (the submission is closed, with the operator&apos;s note). If someone already
          proposed the same id, your endpoint joins that proposal.
        </Notice>
        <TextField
          name="proposed_id"
          label="Suggested capability id"
          defaultValue={v("proposed_id")}
          error={errors.proposed_id}
          hint="<category>.<name> in lower snake_case, e.g. astro.moon_phase; the part before the dot is its category (an existing one, or a new one)."
          placeholder="astro.moon_phase"
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField name="proposed_title" label="Capability title" defaultValue={v("proposed_title")} error={errors.proposed_title} hint="3 to 100 characters, e.g. Moon phase." />
        <TextArea name="proposed_description" label="What the job is" value={v("proposed_description")} error={errors.proposed_description} hint="10 to 500 characters: what an agent gets from any endpoint of this capability." rows={2} maxLength={500} />
        <TextArea
          name="proposed_examples"
          label={
            <>
              Example needs, one a line <span className="font-normal text-slate-600">(optional, at most 10)</span>
            </>
          }
          value={v("proposed_examples")}
          error={errors.proposed_examples}
          hint="What an agent would ask for in plain words, e.g. is it a full moon tonight."
          rows={3}
        />
      </div>
    </fieldset>
  );
}

function JsonField({ name, label, value, error, placeholder }: { name: string; label: string; value: string; error?: string; placeholder: string }) {
  return (
    <div>
      <label htmlFor={`field-${name}`} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={`field-${name}`}
        name={name}
        rows={3}
        defaultValue={value}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `field-${name}-error` : undefined}
        className={`${select} font-mono text-sm ${error ? "border-red-700" : ""}`}
      />
      <FieldError id={`field-${name}-error`} message={error} />
    </div>
  );
}

export function SubmitWizard({
  capabilities,
  categories,
  initialCapability,
  methods,
}: {
  /** HTTP_METHODS of the submit schema, handed in so the schema (and zod) stay off the browser. */
  methods: readonly string[];
  capabilities: CapabilityOption[];
  categories: Record<string, string>;
  initialCapability: string;
}) {
  const initial: WizardState = {
    step: 0,
    values: { method: "GET", network: "base", accepted_assets: "USDC", capability_id: initialCapability },
    errors: {},
    seq: 0,
  };
  const [state, action, pending] = useActionState(wizardAction, initial);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { step, values, errors } = state;
  const current = WIZARD_STEPS[step];
  const fieldErrors = Object.keys(errors).filter((k) => k !== "form");

  useEffect(() => {
    if (state.seq === 0) return;
    const first = WIZARD_FIELDS.find((f) => errors[f]);
    const el = first ? document.getElementById(`field-${first}`) : null;
    (el ?? headingRef.current)?.focus();
  }, [state.seq, errors]);

  const v = (f: WizardField) => values[f] ?? "";
  const proposing = isProposing(values);
  const stepFields = current.fields as readonly string[];

  return (
    <form action={action} noValidate className="min-w-0" aria-describedby="wizard-progress">
      <ol id="wizard-progress" className="mb-6 grid grid-cols-4 gap-2 text-xs sm:text-sm">
        {[...WIZARD_STEPS.map((s) => s.title), "DNS record"].map((title, i) => (
          <li
            key={title}
            aria-current={i === step ? "step" : undefined}
            className={`border-t-4 pt-2 ${i < step ? "border-indigo-700 text-slate-800" : i === step ? "border-indigo-700 font-semibold text-slate-950" : "border-slate-200 text-slate-600"}`}
          >
            <span className="sr-only">Step </span>
            {i + 1}. {title}
            {i < step && <span className="sr-only"> (done)</span>}
          </li>
        ))}
      </ol>
      <input type="hidden" name="step" value={step} />
      {WIZARD_FIELDS.filter((f) => !stepFields.includes(f)).map((f) => (
        <input key={f} type="hidden" name={f} value={v(f)} />
      ))}

      <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold text-slate-950">
        Step {step + 1} of {WIZARD_STEPS.length + 1}: {current.title}
      </h2>
      {fieldErrors.length > 0 && (
        <div className="mt-3">
          <Notice tone="error" role="alert" title={`Check ${fieldErrors.length === 1 ? "the field" : `${fieldErrors.length} fields`} marked below`} />
        </div>
      )}
      {errors.form && (
        <div className="mt-3">
          <Notice tone="error" role="alert" title="The submission was not accepted">
            {errors.form}
          </Notice>
        </div>
      )}

      <div key={`${step}-${state.seq}`} className="mt-4 space-y-5">
        {step === 0 && (
          <>
            <TextField name="endpoint_url" label="Endpoint URL" type="url" inputMode="url" autoComplete="url" defaultValue={v("endpoint_url")} error={errors.endpoint_url} hint="The https:// address agents call, e.g. https://api.example.com/v1/weather." placeholder="https://api.example.com/v1/…" />
            <div>
              <label htmlFor="field-method" className="block text-sm font-medium text-slate-800">
                HTTP method
              </label>
              <select id="field-method" name="method" defaultValue={v("method") || "GET"} className={select} aria-invalid={errors.method ? true : undefined} aria-describedby={errors.method ? "field-method-error" : undefined}>
                {methods.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
              <FieldError id="field-method-error" message={errors.method} />
            </div>
            <CapabilityChoice proposing={proposing} values={values} errors={errors}>
              <CapabilityPicker options={capabilities} categories={categories} defaultValue={v("capability_id")} error={errors.capability_id} />
            </CapabilityChoice>
            <TextArea
              name="description"
              label={
                <>
                  Description <span className="font-normal text-slate-600">(optional)</span>
                </>
              }
              value={v("description")}
              error={errors.description}
              maxLength={500}
            />
            <details className="rounded-lg border border-slate-200 p-4" open={Boolean(v("call_input_example") || v("call_input_schema") || v("call_output_example") || errors.call_input_example || errors.call_input_schema || errors.call_output_example)}>
              <summary className="cursor-pointer font-medium text-slate-900">How to call it (optional)</summary>
              <p className="mt-2 text-sm text-slate-700">
                Agents see this with your endpoint. Skip it if your 402 answer declares the x402 <code className="font-mono">bazaar</code> extension: a declaration wins.
                GET and DELETE take query parameters; POST, PUT and PATCH a JSON body.
              </p>
              <div className="mt-3 space-y-4">
                <JsonField name="call_input_example" label="Example input (JSON object)" value={v("call_input_example")} error={errors.call_input_example} placeholder='{"city": "Oslo"}' />
                <JsonField name="call_input_schema" label="Input JSON Schema (optional)" value={v("call_input_schema")} error={errors.call_input_schema} placeholder='{"properties": {"city": {"type": "string"}}, "required": ["city"]}' />
                <JsonField name="call_output_example" label="Example output (JSON object)" value={v("call_output_example")} error={errors.call_output_example} placeholder='{"temperature_c": 4.5}' />
              </div>
            </details>
          </>
        )}
        {step === 1 && (
          <>
            <TextField name="price_per_call" label="Price per call (USD)" inputMode="decimal" defaultValue={v("price_per_call")} error={errors.price_per_call} hint="0 for a free endpoint; paid endpoints answer 402 with an x402 challenge at this price." placeholder="0.002" />
            <div>
              <label htmlFor="field-network" className="block text-sm font-medium text-slate-800">
                Payment network
              </label>
              <select id="field-network" name="network" defaultValue={v("network") || "base"} className={select} aria-invalid={errors.network ? true : undefined} aria-describedby={errors.network ? "field-network-error" : undefined}>
                {NETWORK_NAMES.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
              <FieldError id="field-network-error" message={errors.network} />
            </div>
            <TextField name="accepted_assets" label="Accepted assets" defaultValue={v("accepted_assets")} error={errors.accepted_assets} hint="Asset symbols, separated by commas, e.g. USDC, USDT." autoCapitalize="characters" />
          </>
        )}
        {step === 2 && (
          <>
            <TextField name="provider_name" label="Provider name" autoComplete="organization" defaultValue={v("provider_name")} error={errors.provider_name} hint="Shown beside the endpoint in rankings." />
            <TextField name="contact_email" label="Contact e-mail" type="email" autoComplete="email" defaultValue={v("contact_email")} error={errors.contact_email} hint="Never shown publicly; used if the listing has a problem." />
            <dl className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
              <dt className="font-semibold text-slate-800">You are listing</dt>
              <dd className="mt-1 break-all font-mono text-slate-800">
                {v("method")} {v("endpoint_url")}
              </dd>
              <dd className="text-slate-700">
                as {proposing ? `${v("proposed_id")} (proposed: listed once an operator accepts it)` : v("capability_id")}, {v("price_per_call")} USD per call on {v("network")} ({v("accepted_assets")})
              </dd>
            </dl>
          </>
        )}
      </div>

      {/* Next comes first in the DOM so that Enter in a field goes forward, not back. */}
      <div className="mt-8 flex flex-row-reverse items-center justify-between gap-3">
        <button type="submit" name="nav" value="next" disabled={pending} className="rounded-md bg-indigo-700 px-5 py-2 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60">
          {pending ? "Checking…" : step < WIZARD_STEPS.length - 1 ? "Next →" : "Submit and get the DNS record"}
        </button>
        {step > 0 && (
          <button type="submit" name="nav" value="back" formNoValidate disabled={pending} className="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60">
            ← Back
          </button>
        )}
      </div>
    </form>
  );
}
