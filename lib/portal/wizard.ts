// The submission wizard's steps: which fields each asks for, and checking them with `.pick()`s of
// the API's own submit schema (plus the URL rules of lib/submissions), so the wizard refuses exactly
// what POST /api/submit refuses, field by field.
import type { z } from "zod";
import { isApiError } from "@/lib/http/errors";
import { checkEndpointUrl } from "@/lib/submissions";
import { declarationOfSubmitted } from "@/lib/probes/declaration";
import { submittedCallSchema, type SubmittedCall } from "@/lib/schemas/call";
import { submitBodySchema, type SubmitBody } from "@/lib/schemas/submit";
import { WIZARD_FIELDS, WIZARD_STEPS, isProposing, type WizardErrors, type WizardField, type WizardValues } from "./wizard-steps";

export * from "./wizard-steps";

const STEP_SCHEMAS = [
  submitBodySchema.pick({ endpoint_url: true, method: true, capability_id: true, proposed_capability: true, description: true, call: true }),
  submitBodySchema.pick({ price_per_call: true, network: true, accepted_assets: true }),
  submitBodySchema.pick({ provider_name: true, contact_email: true }),
];

const CALL_FIELDS = ["call_input_example", "call_input_schema", "call_output_example"] as const;
type CallField = (typeof CALL_FIELDS)[number];
const isCallField = (f: string): f is CallField => (CALL_FIELDS as readonly string[]).includes(f);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

// The "none fits" fields and the field of POST /api/submit's proposed_capability each stands for
// (category is the id's part before the dot, so the id's field answers for it).
const PROPOSAL_FIELDS = ["capability_choice", "proposed_id", "proposed_title", "proposed_description", "proposed_examples"] as const;
const isProposalField = (f: string) => (PROPOSAL_FIELDS as readonly string[]).includes(f);
const FIELD_OF_PROPOSED: Record<string, WizardField> = {
  id: "proposed_id",
  category: "proposed_id",
  title: "proposed_title",
  description: "proposed_description",
  example_intents: "proposed_examples",
};

/** The proposed_capability POST /api/submit takes, from the "none fits" fields (example needs one a line). */
export function proposedCapabilityOfForm(values: WizardValues): Record<string, unknown> {
  const id = (values.proposed_id ?? "").trim();
  const examples = (values.proposed_examples ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    id,
    title: (values.proposed_title ?? "").trim(),
    description: (values.proposed_description ?? "").trim(),
    category: id.split(".")[0],
    ...(examples.length ? { example_intents: examples } : {}),
  };
}

/**
 * The optional call fields (JSON texts) as the `call` POST /api/submit takes, or the errors of the
 * fields that are not JSON objects; null when all are empty. A body for POST, PUT and PATCH, else
 * query parameters.
 */
export function callOfForm(values: WizardValues): { call: SubmittedCall | null; errors: WizardErrors } {
  const errors: WizardErrors = {};
  const parsed: Partial<Record<CallField, Record<string, unknown>>> = {};
  for (const f of CALL_FIELDS) {
    const text = (values[f] ?? "").trim();
    if (!text) continue;
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v !== "object" || v === null || Array.isArray(v)) errors[f] = "Write a JSON object, e.g. {\"city\": \"Oslo\"}.";
      else parsed[f] = v as Record<string, unknown>;
    } catch {
      errors[f] = "This is not valid JSON.";
    }
  }
  if (Object.keys(errors).length || !Object.keys(parsed).length) return { call: null, errors };
  const method = (values.method ?? "GET").trim().toUpperCase();
  const body = BODY_METHODS.has(method);
  const call = {
    input: {
      kind: body ? ("body" as const) : ("query" as const),
      ...(body ? { body_type: "json" as const } : {}),
      ...(parsed.call_input_example ? { example: parsed.call_input_example } : {}),
      ...(parsed.call_input_schema ? { schema: parsed.call_input_schema } : {}),
    },
    ...(parsed.call_output_example ? { output: { type: "json", example: parsed.call_output_example } } : {}),
  };
  const shape = submittedCallSchema.safeParse(call);
  if (!shape.success) return { call: null, errors: { call_input_example: shape.error.issues[0]?.message ?? "Not a valid description." } };
  const checked = declarationOfSubmitted(shape.data, method);
  if (!checked.ok) return { call: null, errors: { [parsed.call_input_schema ? "call_input_schema" : "call_input_example"]: checked.problem } };
  return { call: shape.data, errors: {} };
}

/** Form strings -> the JSON shape the schema expects (numbers, lists; empty optional fields left out). */
export function toBodyShape(values: WizardValues, fields: readonly WizardField[] = WIZARD_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (fields.some(isCallField)) {
    const { call } = callOfForm(values);
    if (call) out.call = call;
  }
  const proposing = isProposing(values);
  if (proposing && fields.includes("proposed_id")) out.proposed_capability = proposedCapabilityOfForm(values);
  for (const f of fields) {
    if (isCallField(f) || isProposalField(f) || (proposing && f === "capability_id")) continue;
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
    const proposed = issue.path[0] === "proposed_capability";
    const field = (proposed ? FIELD_OF_PROPOSED[String(issue.path[1])] : issue.path[0]) as WizardField | undefined;
    if (!field) continue;
    let message = issue.message;
    // one example need of several: say which line
    if (proposed && issue.path[1] === "example_intents" && typeof issue.path[2] === "number") message = `Line ${issue.path[2] + 1}: ${message}`;
    if (proposed && issue.path[1] === "category" && issue.code !== "invalid_type") {
      message = "The part before the dot is the category: at least 2 characters, lower snake_case, starting with a letter.";
    }
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
  const proposing = isProposing(values);
  if (step === 0 && !proposing && !(values.capability_id ?? "").trim()) errors.capability_id = "Pick a capability from the list.";
  if (step === 0) Object.assign(errors, callOfForm(values).errors);
  if (step === 0 && !errors.endpoint_url) {
    try {
      checkEndpointUrl((values.endpoint_url ?? "").trim());
    } catch (err) {
      if (!isApiError(err)) throw err;
      errors.endpoint_url = err.errors?.[0]?.detail ?? err.message;
    }
  }
  if (step === 0 && !proposing && !errors.capability_id && known && !known((values.capability_id ?? "").trim())) {
    errors.capability_id = "Unknown capability; pick one from the list.";
  }
  const proposedId = (values.proposed_id ?? "").trim();
  if (step === 0 && proposing && !errors.proposed_id && known?.(proposedId)) errors.proposed_id = existsMessage(proposedId);
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

/** What the wizard says when the proposed id is already a capability (POST /api/submit: 409 capability_exists). */
export function existsMessage(id: string): string {
  return `${id} is already a capability: pick it from the list instead of proposing it.`;
}

/** The step holding a field named by a problem pointer (#/endpoint_url -> 0, #/proposed_capability/id -> proposed_id). */
export function stepOfPointer(pointer: string): { step: number; field: WizardField | null } {
  const [first, second] = pointer.replace(/^#\//, "").split("/");
  const field = (first === "call" ? "call_input_example" : first === "proposed_capability" ? (FIELD_OF_PROPOSED[second] ?? "proposed_id") : first) as WizardField;
  const step = WIZARD_STEPS.findIndex((s) => (s.fields as readonly string[]).includes(field));
  return step < 0 ? { step: 0, field: null } : { step, field };
}
