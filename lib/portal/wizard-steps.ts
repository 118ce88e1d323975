// The steps of the submission wizard and the fields each asks for (safe to import in the browser).

export const WIZARD_STEPS = [
  {
    id: "endpoint",
    title: "Endpoint",
    // capability_choice "propose": none fits, and the proposed_* fields make POST /api/submit's
    // proposed_capability instead of capability_id. The call_* fields are optional: how to call it,
    // for endpoints whose 402 declares nothing.
    fields: [
      "endpoint_url",
      "method",
      "capability_choice",
      "capability_id",
      "proposed_id",
      "proposed_title",
      "proposed_description",
      "proposed_examples",
      "description",
      "call_input_example",
      "call_input_schema",
      "call_output_example",
    ],
  },
  { id: "pricing", title: "Pricing", fields: ["price_per_call", "network", "accepted_assets"] },
  { id: "contact", title: "Contact", fields: ["provider_name", "contact_email"] },
] as const;

export type WizardField = (typeof WIZARD_STEPS)[number]["fields"][number];
export const WIZARD_FIELDS: WizardField[] = WIZARD_STEPS.flatMap((s) => [...s.fields]);
export type WizardValues = Partial<Record<WizardField, string>>;
export type WizardErrors = Partial<Record<WizardField | "form", string>>;

/** capability_choice's value when no capability fits and the provider proposes one. */
export const PROPOSE_CHOICE = "propose";
export const isProposing = (values: WizardValues): boolean => values.capability_choice === PROPOSE_CHOICE;
