// The submission wizard's steps: which fields each asks for, and checking them with `.pick()`s of
// the API's own submit schema (plus the URL rules of lib/submissions), so the wizard refuses exactly
// what POST /api/submit refuses, field by field.
import type { z } from "zod";
import { isApiError } from "@/lib/http/errors";
import { checkEndpointUrl } from "@/lib/submissions";
import { submitBodySchema, type SubmitBody } from "@/lib/schemas/submit";
import { WIZARD_FIELDS, WIZARD_STEPS, type WizardErrors, type WizardField, type WizardValues } from "./wizard-steps";

export * from "./wizard-steps";

const STEP_SCHEMAS = [
  submitBodySchema.pick({ endpoint_url: true, method: true, capability_id: true, description: true }),
  submitBodySchema.pick({ price_per_call: true, network: true, accepted_assets: true }),
  submitBodySchema.pick({ provider_name: true, contact_email: true }),
];

/** Form strings -> the JSON shape the schema expects (numbers, lists; empty optional fields left out). */
export function toBodyShape(values: WizardValues, fields: readonly WizardField[] = WIZARD_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = (values[f] ?? "").trim();
    if (f === "price_per_call") out[f] = v === "" ? undefined : /^-?(\d+\.?\d*|\.\d+)$/.test(v) ? Number(v) : v;
    else if (f === "accepted_assets") {
      const list = v.split(/[\s,]+/).filter(Boolean);
      if (list.length) out[f] = list.map((a) => a.toUpperCase());
    } else if (v !== "" || f === "endpoint_url" || f === "provider_name" || f === "contact_email" || f === "capability_id") out[f] = v;
  }
  return out;
}

function issuesToErrors(error: z.ZodError): WizardErrors {
  const errors: WizardErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as WizardField | undefined;
    if (!field) continue;
    let message = issue.message;
    // zod's wording for a missing or mistyped field is about types; say what the person must do.
    if (issue.code === "invalid_type") message = field === "price_per_call" ? "Enter the price in USD per call, e.g. 0.002." : "Required.";
    if (!errors[field]) errors[field] = message;
  }
  return errors;
}

/** Checks one step's fields; the URL also against the submission rules (https, public host). */
export function validateStep(step: number, values: WizardValues, known?: (id: string) => boolean): WizardErrors {
  const fields = WIZARD_STEPS[step].fields;
  const result = STEP_SCHEMAS[step].safeParse(toBodyShape(values, fields));
  const errors = result.success ? {} : issuesToErrors(result.error);
  if (step === 0 && !(values.capability_id ?? "").trim()) errors.capability_id = "Pick a capability from the list.";
  if (step === 0 && !errors.endpoint_url) {
    try {
      checkEndpointUrl((values.endpoint_url ?? "").trim());
    } catch (err) {
      if (!isApiError(err)) throw err;
      errors.endpoint_url = err.errors?.[0]?.detail ?? err.message;
    }
  }
  if (step === 0 && !errors.capability_id && known && !known((values.capability_id ?? "").trim())) {
    errors.capability_id = "Unknown capability; pick one from the list.";
  }
  return errors;
}

/** The whole body, or the errors and the first step that has one. */
export function validateAll(values: WizardValues, known?: (id: string) => boolean): { body: SubmitBody } | { errors: WizardErrors; step: number } {
  for (let step = 0; step < WIZARD_STEPS.length; step++) {
    const errors = validateStep(step, values, known);
    if (Object.keys(errors).length) return { errors, step };
  }
  const parsed = submitBodySchema.safeParse(toBodyShape(values));
  if (!parsed.success) return { errors: issuesToErrors(parsed.error), step: 0 };
  return { body: parsed.data };
}

/** The step holding a field named by a problem pointer (#/endpoint_url -> 0). */
export function stepOfPointer(pointer: string): { step: number; field: WizardField | null } {
  const field = pointer.replace(/^#\//, "").split("/")[0] as WizardField;
  const step = WIZARD_STEPS.findIndex((s) => (s.fields as readonly string[]).includes(field));
  return step < 0 ? { step: 0, field: null } : { step, field };
}
