"use server";
// The operator page's decisions. Each checks, itself, that the post comes from our own pages and
// that an operator (ADMIN_EMAILS) is signed in; anyone else is sent to sign in or gets nothing.
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { isSameOrigin } from "@/lib/auth/origin";
import { getSessionUser } from "@/lib/auth/session";
import { acceptProposal, mergeProposal, rejectProposal } from "@/lib/proposals/decide";

const PAGE = "/operator/proposals";

function back(params: Record<string, string>): never {
  redirect(`${PAGE}?${new URLSearchParams(params)}`);
}

function text(formData: FormData, name: string, max = 300): string | undefined {
  const v = String(formData.get(name) ?? "").trim().slice(0, max);
  return v || undefined;
}

export async function decideProposalAction(formData: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) back({ error: "This form must be sent from Capdex's own operator page." });
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(PAGE)}`);
  if (!user.isAdmin) redirect("/");
  const db = await getDb();
  const id = text(formData, "proposal_id", 100) ?? "";
  const decision = text(formData, "decision", 20);
  const by = user.email ?? user.id;
  const note = text(formData, "note") ?? null;
  let done: string;
  try {
    if (decision === "accept") {
      const d = await acceptProposal(db, id, { by, note, as: text(formData, "as", 100), title: text(formData, "title", 100) });
      done = `Accepted as ${d.capabilityId}: ${d.items.listed} import item(s) and ${d.submissions.listed} submission(s) listed.`;
    } else if (decision === "merge") {
      const into = text(formData, "into", 100);
      if (!into) back({ error: "Name the capability to merge into." });
      const d = await mergeProposal(db, id, { by, note, into });
      done = `Merged into ${d.capabilityId}: ${d.items.listed} import item(s) and ${d.submissions.listed} submission(s) listed.`;
    } else if (decision === "reject") {
      const r = await rejectProposal(db, id, { by, note });
      done = `Rejected ${r.proposal.capabilityId}; ${r.submissionsRejected} waiting submission(s) closed.`;
    } else {
      back({ error: "Unknown decision." });
    }
  } catch (err) {
    if (isApiError(err) && err.status < 500) back({ error: `${err.code}: ${err.message}` });
    throw err;
  }
  revalidatePath(PAGE);
  back({ done });
}
