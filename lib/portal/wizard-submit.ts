// One post of the submission wizard, apart from the request it came in (app/(portal)/providers/submit/actions.ts
// reads the form and redirects): moves between steps, checks the current one, and on the last step
// creates the submission exactly as POST /api/submit does (same rate limit, same errors, each shown
// beside its field or above the form).
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";
import { isApiError } from "@/lib/http/errors";
import { checkRateLimit } from "@/lib/ratelimit";
import { getRegistry } from "@/lib/registry";
import { createSubmission } from "@/lib/submissions";
import { WIZARD_STEPS, existsMessage, isProposing, stepOfPointer, validateAll, validateStep, type WizardErrors, type WizardValues } from "./wizard";

export type WizardPost = { step: number; values: WizardValues; nav: "next" | "back" };
export type WizardOutcome = { step: number; values: WizardValues; errors: WizardErrors } | { submissionId: string };

export async function advanceWizard(db: Db, post: WizardPost, submitter: () => Promise<Principal>): Promise<WizardOutcome> {
  const { step } = post;
  const last = WIZARD_STEPS.length - 1;
  if (post.nav === "back") return { step: Math.max(0, step - 1), values: post.values, errors: {} };

  const registry = await getRegistry(db);
  const known = (id: string) => registry.byId.has(id);
  // A proposed id that is already a capability is refused beside its field (./wizard.ts) and
  // selected in the list, for the provider to switch to it.
  const proposedId = (post.values.proposed_id ?? "").trim();
  const values = isProposing(post.values) && known(proposedId) ? { ...post.values, capability_id: proposedId } : post.values;
  const errors = validateStep(step, values, known);
  if (Object.keys(errors).length) return { step, values, errors };
  if (step < last) return { step: step + 1, values, errors: {} };

  const all = validateAll(values, known);
  if ("errors" in all) return { step: all.step, values, errors: all.errors };
  try {
    const principal = await submitter();
    const limit = await checkRateLimit(db, "submit", principal);
    if (!limit.allowed) throw limit.error;
    return { submissionId: (await createSubmission(db, all.body, principal)).submission_id };
  } catch (err) {
    if (!isApiError(err)) throw err;
    if (err.code === "rate_limited") {
      return { step, values, errors: { form: "Too many submissions from your address this hour; try again later." } };
    }
    // Added to the registry since the last step was checked: back to the capability, which the
    // list now holds (selected there, should the provider switch to it).
    if (err.code === "capability_exists" && all.body.proposed_capability) {
      const id = all.body.proposed_capability.id;
      return { step: 0, values: { ...values, capability_id: id }, errors: { proposed_id: existsMessage(id) } };
    }
    const first = err.errors?.[0];
    if (first) {
      const { step: at, field } = stepOfPointer(first.pointer);
      if (field) return { step: at, values, errors: { [field]: first.detail } };
    }
    if (err.code === "already_listed") return { step: 0, values, errors: { endpoint_url: err.message } };
    return { step, values, errors: { form: err.message } };
  }
}
