"use server";
// The account page's server actions. Each one checks, itself, that the post comes from our own pages
// and that someone is signed in, and acts only on that person's own keys.
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signOut } from "@/auth";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { createApiKey, revokeApiKey } from "@/lib/auth/keys";
import { isSameOrigin } from "@/lib/auth/origin";
import { getSessionUser, type SessionUser } from "@/lib/auth/session";

export type CreateKeyState = { seq: number; key?: string; name?: string; error?: string };

async function authorise(): Promise<SessionUser | { error: string }> {
  if (!isSameOrigin(await headers())) return { error: "This form must be sent from Capdex's own account page." };
  const user = await getSessionUser();
  if (!user) return { error: "Your session has ended; sign in again." };
  return user;
}

export async function createKeyAction(prev: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const seq = (prev?.seq ?? 0) + 1;
  const user = await authorise();
  if ("error" in user) return { seq, error: user.error };
  const name = String(formData.get("name") ?? "").slice(0, 200) || "default";
  try {
    const { key, apiKey } = await createApiKey(await getDb(), user.id, name);
    revalidatePath("/account");
    return { seq, key, name: apiKey.name };
  } catch (err) {
    if (isApiError(err) && err.status < 500) return { seq, error: err.message };
    throw err;
  }
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const user = await authorise();
  if ("error" in user) redirect(`/account?${new URLSearchParams({ error: user.error })}`);
  const ok = await revokeApiKey(await getDb(), user.id, String(formData.get("keyId") ?? ""));
  revalidatePath("/account");
  // Someone else's key id is answered like an unknown one.
  redirect(ok ? "/account?revoked=1" : `/account?${new URLSearchParams({ error: "No such active key." })}`);
}

export async function signOutAction(): Promise<void> {
  if (!isSameOrigin(await headers())) redirect("/account");
  await signOut({ redirectTo: "/" });
}
