"use server";
// The provider dashboard's server actions: each checks, itself, that the post comes from our own
// pages and that someone is signed in, then calls the same lib/provider functions as the API (which
// act only on the signed-in account's own endpoints). Errors come back in the URL, so the forms work
// without JavaScript.
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { isSameOrigin } from "@/lib/auth/origin";
import { getSessionUser } from "@/lib/auth/session";
import { delistOwnedEndpoint, getOwnedEndpoint, relistOwnedEndpoint, updateOwnedEndpoint, type Owner } from "@/lib/provider";
import { patchOfForm } from "@/lib/portal/provider-form";
import { uuidSchema } from "@/lib/schemas/common";

async function authorise(path: string): Promise<Owner> {
  if (!isSameOrigin(await headers())) redirect(`${path}?${new URLSearchParams({ error: "This form must be sent from Capdex's own pages." })}`);
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  return { id: user.id, email: user.email };
}

function idOf(form: FormData): string {
  const id = String(form.get("endpointId") ?? "");
  if (!uuidSchema.safeParse(id).success) redirect(`/providers/dashboard?${new URLSearchParams({ error: "No such endpoint." })}`);
  return id;
}

async function act(path: string, run: () => Promise<unknown>, done: string): Promise<never> {
  try {
    await run();
  } catch (err) {
    if (isApiError(err) && err.status < 500) {
      const pointer = err.errors?.[0]?.pointer;
      redirect(`${path}?${new URLSearchParams({ error: err.message.slice(0, 300), ...(pointer ? { field: pointer } : {}) })}`);
    }
    throw err;
  }
  revalidatePath("/providers/dashboard");
  redirect(`${path}?${new URLSearchParams({ done })}`);
}

export async function updateEndpointAction(form: FormData): Promise<void> {
  const id = idOf(form);
  const path = `/providers/dashboard/${id}`;
  const owner = await authorise(path);
  const db = await getDb();
  const current = await getOwnedEndpoint(db, owner, id).catch(() => redirect(`/providers/dashboard?${new URLSearchParams({ error: "None of your endpoints has this id." })}`));
  const parsed = patchOfForm(form, current);
  if (!parsed.ok) redirect(`${path}?${new URLSearchParams({ error: parsed.error, field: parsed.pointer })}`);
  if (!parsed.patch) redirect(`${path}?${new URLSearchParams({ done: "unchanged" })}`);
  await act(path, () => updateOwnedEndpoint(db, owner, id, parsed.patch!), "saved");
}

/** Delist or relist the form's endpoint (the same checks and answers for both). */
async function changeListing(form: FormData, change: typeof delistOwnedEndpoint, done: string): Promise<void> {
  const id = idOf(form);
  const path = `/providers/dashboard/${id}`;
  const owner = await authorise(path);
  const db = await getDb();
  await act(path, () => change(db, owner, id), done);
}

export async function delistEndpointAction(form: FormData): Promise<void> {
  await changeListing(form, delistOwnedEndpoint, "delisted");
}

export async function relistEndpointAction(form: FormData): Promise<void> {
  await changeListing(form, relistOwnedEndpoint, "relisted");
}
