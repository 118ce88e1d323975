"use client";
// The forms of a domain claim: start one (domain and contact), and "Check now" for its DNS record.
import { useActionState } from "react";
import { checkClaimAction, startClaimAction, type ClaimCheckState, type ClaimFormState } from "@/app/(portal)/providers/claim/actions";
import { TextField } from "./field";
import { Notice } from "./notice";

export function StartClaimForm({ initialDomain }: { initialDomain: string }) {
  const [state, action, pending] = useActionState<ClaimFormState, FormData>(startClaimAction, { seq: 0, values: { domain: initialDomain }, errors: {} });
  return (
    <form action={action} noValidate className="max-w-xl space-y-5">
      {state.errors.form && (
        <Notice tone="error" role="alert" title="The claim was not started">
          {state.errors.form}
        </Notice>
      )}
      <div key={state.seq} className="space-y-5">
        <TextField name="domain" label="Domain" defaultValue={state.values.domain ?? ""} error={state.errors.domain} hint="Your registrable domain, e.g. example.com: every imported listing under it is claimed at once." placeholder="example.com" />
        <TextField name="contact_email" label="Contact e-mail" type="email" autoComplete="email" defaultValue={state.values.contact_email ?? ""} error={state.errors.contact_email} hint="Never shown publicly." />
        <TextField name="provider_name" label="Provider name (optional)" autoComplete="organization" defaultValue={state.values.provider_name ?? ""} error={state.errors.provider_name} hint="Shown beside your endpoints instead of the name the catalogue gave." />
      </div>
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-700 px-5 py-2 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60">
        {pending ? "Starting…" : "Get the DNS record"}
      </button>
    </form>
  );
}

export function CheckClaimForm({ claimId }: { claimId: string }) {
  const [state, action, pending] = useActionState<ClaimCheckState, FormData>(checkClaimAction, { seq: 0, outcome: "idle" });
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="id" value={claimId} />
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-700 px-5 py-2 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60">
        {pending ? "Checking…" : "Check now"}
      </button>
      <p role="status" className="text-sm text-slate-800" data-testid="claim-check-result">
        {pending ? "Looking the record up…" : state.outcome === "idle" ? "" : `${state.outcome === "verified" ? "Verified. " : state.outcome === "error" ? "Could not check: " : "Not yet: "}${state.message ?? ""}`}
      </p>
    </form>
  );
}
