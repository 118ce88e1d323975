"use server";
// The wizard's one server action: checks the current step with the submit schema, moves between
// steps, and on the last step creates the submission (same rate limit as POST /api/submit).
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { portalSubmitter } from "@/lib/portal/request";
import { WIZARD_FIELDS, WIZARD_STEPS, stepOfPointer, validateAll, validateStep, type WizardErrors, type WizardValues } from "@/lib/portal/wizard";
import { checkRateLimit } from "@/lib/ratelimit";
import { getRegistry } from "@/lib/registry";
import { createSubmission } from "@/lib/submissions";

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
  if (formData.get("nav") === "back") return { step: Math.max(0, step - 1), values, errors: {}, seq };

  const db = await getDb();
  const registry = await getRegistry(db);
  const known = (id: string) => registry.byId.has(id);
  const errors = validateStep(step, values, known);
  if (Object.keys(errors).length) return { step, values, errors, seq };
  if (step < last) return { step: step + 1, values, errors: {}, seq };

  const all = validateAll(values, known);
  if ("errors" in all) return { step: all.step, values, errors: all.errors, seq };
  let id: string;
  try {
    const principal = await portalSubmitter(db);
    const limit = await checkRateLimit(db, "submit", principal);
    if (!limit.allowed) throw limit.error;
    id = (await createSubmission(db, all.body, principal)).submission_id;
  } catch (err) {
    if (!isApiError(err)) throw err;
    if (err.code === "rate_limited") {
      return { step, values, errors: { form: "Too many submissions from your address this hour; try again later." }, seq };
    }
    const first = err.errors?.[0];
    if (first) {
      const { step: at, field } = stepOfPointer(first.pointer);
      if (field) return { step: at, values, errors: { [field]: first.detail }, seq };
    }
    if (err.code === "already_listed") return { step: 0, values, errors: { endpoint_url: err.message }, seq };
    return { step, values, errors: { form: err.message }, seq };
  }
  redirect(`/providers/submissions/${id}`);
}
