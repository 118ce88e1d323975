"use server";
// Claiming imported listings: start a claim for a domain (the submit limit), and "Check now" on its
// page (the submission-check limit); both through lib/imports/claims.
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { createDomainClaim, verifyDomainClaim } from "@/lib/imports/claims";
import { portalPrincipal, portalSubmitter } from "@/lib/portal/request";
import { checkRateLimit } from "@/lib/ratelimit";
import { uuidSchema } from "@/lib/schemas/common";

export type ClaimFormState = { seq: number; values: Record<string, string>; errors: Record<string, string> };

const claimSchema = z.object({
  domain: z.string().trim().min(1, "Required, e.g. example.com.").max(253),
  contact_email: z.email({ message: "Must be an e-mail address." }).max(254),
  provider_name: z.string().trim().max(100, "At most 100 characters.").optional(),
});

export async function startClaimAction(prev: ClaimFormState, formData: FormData): Promise<ClaimFormState> {
  const seq = (prev?.seq ?? 0) + 1;
  const values = Object.fromEntries(["domain", "contact_email", "provider_name"].map((k) => [k, String(formData.get(k) ?? "").slice(0, 300)]));
  const parsed = claimSchema.safeParse({ ...values, provider_name: values.provider_name || undefined });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const i of parsed.error.issues) errors[String(i.path[0])] ??= i.message;
    return { seq, values, errors };
  }
  const db = await getDb();
  let id: string;
  try {
    const principal = await portalSubmitter(db);
    const limit = await checkRateLimit(db, "submit", principal);
    if (!limit.allowed) throw limit.error;
    id = (await createDomainClaim(db, parsed.data, principal)).claim_id;
  } catch (err) {
    if (!isApiError(err)) throw err;
    if (err.code === "rate_limited") return { seq, values, errors: { form: "Too many requests from your address this hour; try again later." } };
    return { seq, values, errors: { domain: err.errors?.[0]?.detail ?? err.message } };
  }
  redirect(`/providers/claim/${id}`);
}

export type ClaimCheckState = { seq: number; outcome: "idle" | "verified" | "not_verified" | "error"; message?: string };

export async function checkClaimAction(prev: ClaimCheckState, formData: FormData): Promise<ClaimCheckState> {
  const seq = (prev?.seq ?? 0) + 1;
  const id = uuidSchema.safeParse(formData.get("id"));
  if (!id.success) return { seq, outcome: "error", message: "This is not a claim id." };
  const db = await getDb();
  try {
    const limit = await checkRateLimit(db, "submission", await portalPrincipal(db));
    if (!limit.allowed) throw limit.error;
    const claim = await verifyDomainClaim(db, id.data);
    revalidatePath(`/providers/claim/${id.data}`);
    return claim.status === "verified"
      ? { seq, outcome: "verified", message: `${claim.claimed_endpoints} listing(s) claimed.` }
      : { seq, outcome: "not_verified", message: claim.last_check?.detail ?? `The claim is ${claim.status.replace(/_/g, " ")}.` };
  } catch (err) {
    if (!isApiError(err)) throw err;
    return { seq, outcome: "error", message: err.code === "rate_limited" ? "Too many checks from your address; wait a minute." : err.message };
  }
}
