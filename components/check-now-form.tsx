"use client";
// The "Check now" button of a submission: asks the server to look the DNS record up at once.
import { useActionState } from "react";
import { checkNowAction, type CheckState } from "@/app/(portal)/providers/submissions/[id]/actions";

const RESULT: Record<Exclude<CheckState["outcome"], "error">, string> = {
  idle: "",
  verified: "Found it: verified.",
  pending_capability: "Found it: the domain is proven; the endpoint waits for its capability.",
  not_verified: "Checked just now: not verified yet (what was found is below).",
};

export function CheckNowForm({ submissionId }: { submissionId: string }) {
  const [state, action, pending] = useActionState<CheckState, FormData>(checkNowAction, { seq: 0, outcome: "idle" });
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="id" value={submissionId} />
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-700 px-5 py-2 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60">
        {pending ? "Checking…" : "Check now"}
      </button>
      <p role="status" className="text-sm text-slate-800" data-testid="check-result">
        {pending ? "Looking the record up…" : state.outcome === "error" ? `Could not check: ${state.message ?? ""}` : RESULT[state.outcome]}
      </p>
    </form>
  );
}
