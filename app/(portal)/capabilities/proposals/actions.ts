"use server";
// Proposing a capability from the portal: the same checks as POST /api/capabilities/proposals (its
// zod schema, createProposal), for a signed-in person posting from our own page, under the same
// rate limit (submit) as the API.
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { isSameOrigin } from "@/lib/auth/origin";
import { portalSubmitter } from "@/lib/portal/request";
import { createProposal } from "@/lib/proposals";
import { checkRateLimit } from "@/lib/ratelimit";
import { createProposalBodySchema } from "@/lib/schemas/proposals";

const PAGE = "/capabilities/proposals";

function back(params: Record<string, string>): never {
  redirect(`${PAGE}?${new URLSearchParams(params)}#propose`);
}

export async function proposeCapabilityAction(formData: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) back({ error: "This form must be sent from Capdex's own page." });
  const db = await getDb();
  const principal = await portalSubmitter(db);
  if (principal.kind !== "authenticated") redirect(`/signin?callbackUrl=${encodeURIComponent(PAGE)}`);
  const field = (n: string) => String(formData.get(n) ?? "").trim();
  const examples = field("example_intents").split("\n").map((l) => l.trim()).filter(Boolean);
  const parsed = createProposalBodySchema.safeParse({
    id: field("id"),
    title: field("title"),
    description: field("description"),
    category: field("id").split(".")[0] ?? "",
    ...(examples.length ? { example_intents: examples } : {}),
    ...(field("endpoint_url") ? { endpoint_url: field("endpoint_url") } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    back({ error: `${issue?.path.join(".") || "form"}: ${issue?.message ?? "not valid"}` });
  }
  let created: string;
  try {
    const limit = await checkRateLimit(db, "submit", principal);
    if (!limit.allowed) throw limit.error;
    created = (await createProposal(db, parsed.data, principal.userId)).id;
  } catch (err) {
    if (isApiError(err) && err.status < 500) back({ error: `${err.code}: ${err.message}` });
    throw err;
  }
  revalidatePath(PAGE);
  back({ proposed: created });
}
