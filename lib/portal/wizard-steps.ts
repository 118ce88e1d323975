// The steps of the submission wizard and the fields each asks for (safe to import in the browser).

export const WIZARD_STEPS = [
  {
    id: "endpoint",
    title: "Endpoint",
    // The call_* fields are optional: how to call it, for endpoints whose 402 declares nothing.
    fields: ["endpoint_url", "method", "capability_id", "description", "call_input_example", "call_input_schema", "call_output_example"],
  },
  { id: "pricing", title: "Pricing", fields: ["price_per_call", "network", "accepted_assets"] },
  { id: "contact", title: "Contact", fields: ["provider_name", "contact_email"] },
] as const;

export type WizardField = (typeof WIZARD_STEPS)[number]["fields"][number];
export const WIZARD_FIELDS: WizardField[] = WIZARD_STEPS.flatMap((s) => [...s.fields]);
export type WizardValues = Partial<Record<WizardField, string>>;
export type WizardErrors = Partial<Record<WizardField | "form", string>>;
