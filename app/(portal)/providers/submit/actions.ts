"use server";
// The wizard's one server action: reads the posted step and fields, and hands them to
// lib/portal/wizard-submit.ts, which checks the step with the submit schema, moves between steps, and
// on the last step creates the submission (same rate limit as POST /api/submit).
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { portalSubmitter } from "@/lib/portal/request";
import { WIZARD_FIELDS, WIZARD_STEPS, type WizardErrors, type WizardValues } from "@/lib/portal/wizard";
import { advanceWizard } from "@/lib/portal/wizard-submit";

export type WizardState = { step: number; values: WizardValues; errors: WizardErrors; seq: number };

// Long enough for the optional call fields (JSON examples and schemas); longer texts are cut, then refused as JSON.
const MAX_FIELD = 16_384;

export async function wizardAction(prev: WizardState, formData: FormData): Promise<WizardState> {
  const values: WizardValues = {};
  for (const f of WIZARD_FIELDS) {
    const v = formData.get(f);
    if (typeof v === "string") values[f] = v.slice(0, MAX_FIELD);
  }
  const last = WIZARD_STEPS.length - 1;
  const raw = Number(formData.get("step"));
  const step = Number.isInteger(raw) && raw >= 0 && raw <= last ? raw : 0;
  const seq = (prev?.seq ?? 0) + 1;
  const nav = formData.get("nav") === "back" ? "back" : "next";
  const db = await getDb();
  const outcome = await advanceWizard(db, { step, values, nav }, () => portalSubmitter(db));
  if ("submissionId" in outcome) redirect(`/providers/submissions/${outcome.submissionId}`);
  return { ...outcome, seq };
}
