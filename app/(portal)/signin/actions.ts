"use server";
// Sign-in forms: e-mail link (nodemailer) and GitHub. Same-origin posts only; Auth.js does the rest.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/auth";
import { isSameOrigin } from "@/lib/auth/origin";
import { safeCallbackUrl } from "@/lib/auth/redirects";

const emailSchema = z.email().max(254);

function back(error: string, callbackUrl: string): never {
  redirect(`/signin?${new URLSearchParams({ error, callbackUrl })}`);
}

export async function signInWithEmailAction(formData: FormData): Promise<void> {
  const callbackUrl = safeCallbackUrl(formData.get("callbackUrl"));
  if (!isSameOrigin(await headers())) back("CrossOrigin", callbackUrl);
  const email = emailSchema.safeParse(String(formData.get("email") ?? "").trim());
  if (!email.success) back("InvalidEmail", callbackUrl);
  let target: string;
  try {
    target = await signIn("nodemailer", { email: email.data, redirectTo: callbackUrl, redirect: false });
  } catch (err) {
    if (err instanceof AuthError) back(err.type === "AccessDenied" ? "AccessDenied" : "EmailSignin", callbackUrl);
    throw err;
  }
  // Straight to our own page, rather than through Auth.js's /api/auth/verify-request redirect.
  const next = new URL(target, "http://capdex.invalid");
  redirect(next.pathname.endsWith("/verify-request") ? "/signin/check-email" : safeCallbackUrl(next.pathname + next.search, "/signin"));
}

export async function signInWithGitHubAction(formData: FormData): Promise<void> {
  const callbackUrl = safeCallbackUrl(formData.get("callbackUrl"));
  if (!isSameOrigin(await headers())) back("CrossOrigin", callbackUrl);
  await signIn("github", { redirectTo: callbackUrl });
}
