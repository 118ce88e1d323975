"use client";
// Creating a key: the new key is shown once, here, with a copy button; it is never shown again.
import { useActionState } from "react";
import { CopyButton } from "@/components/copy-button";
import { createKeyAction, type CreateKeyState } from "./actions";

export function CreateKeyForm({ origin }: { origin: string }) {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, { seq: 0 });
  return (
    <div className="space-y-3">
      <form action={action} className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="key-name" className="block text-sm font-medium text-slate-800">
            Name
          </label>
          <input
            id="key-name"
            name="name"
            required
            maxLength={60}
            placeholder="e.g. my agent"
            className="mt-1 block w-64 rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
          />
        </div>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
      {state.error && (
        <p role="alert" className="text-sm text-red-800">
          {state.error}
        </p>
      )}
      {state.key && (
        <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950" data-testid="new-key">
          <p className="font-semibold">Your new key “{state.name}”. Copy it now: it is shown only this once.</p>
          <div className="mt-2 flex items-center gap-2">
            <code className="block overflow-x-auto rounded bg-white px-2 py-1 font-mono text-xs text-slate-900" data-testid="new-key-value">
              {state.key}
            </code>
            <CopyButton value={state.key} />
          </div>
          <pre className="mt-3 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
            {`curl -s ${origin}/api/discover \\\n  -H "Authorization: Bearer ${state.key}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"capability_id":"weather.current"}'`}
          </pre>
        </div>
      )}
    </div>
  );
}
