"use server";
// "Check now" on a submission's page: looks the DNS record up at once (same limit as
// POST /api/submit/{id}/verify) and re-renders the page with the new state.
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { portalPrincipal } from "@/lib/portal/request";
import { checkRateLimit } from "@/lib/ratelimit";
import { uuidSchema } from "@/lib/schemas/common";
import { verifySubmissionNow } from "@/lib/submissions";

export type CheckState = {
  seq: number;
  // pending_capability: the record was found; the listing waits for its proposed capability
  outcome: "idle" | "verified" | "pending_capability" | "not_verified" | "error";
  message?: string;
  found?: string[];
};

export async function checkNowAction(prev: CheckState, formData: FormData): Promise<CheckState> {
  const seq = (prev?.seq ?? 0) + 1;
  const id = uuidSchema.safeParse(formData.get("id"));
  if (!id.success) return { seq, outcome: "error", message: "This is not a submission id." };
  const db = await getDb();
  try {
    const limit = await checkRateLimit(db, "submission", await portalPrincipal(db));
    if (!limit.allowed) throw limit.error;
    const sub = await verifySubmissionNow(db, id.data);
    revalidatePath(`/providers/submissions/${id.data}`);
    const outcome = sub.status === "verified" || sub.status === "pending_capability" ? sub.status : "not_verified";
    return { seq, outcome, message: `The submission is ${sub.status.replace(/_/g, " ")}.` };
  } catch (err) {
    if (!isApiError(err)) throw err;
    revalidatePath(`/providers/submissions/${id.data}`);
    if (err.code === "rate_limited") return { seq, outcome: "error", message: "Too many checks from your address; wait a minute." };
    if (err.code === "verification_failed" || err.code === "already_listed") {
      const found = (err.extras?.found_records as string[] | undefined) ?? [];
      return { seq, outcome: "not_verified", message: err.message, found };
    }
    return { seq, outcome: "error", message: err.message };
  }
}
