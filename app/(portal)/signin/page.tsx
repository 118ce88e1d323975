// Sign in: a link by e-mail (always), GitHub (when configured). Already signed in: straight on.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { githubConfigured } from "@/auth.config";
import { getSessionUser } from "@/lib/auth/session";
import { safeCallbackUrl, signInErrorMessage } from "@/lib/auth/redirects";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { signInWithEmailAction, signInWithGitHubAction } from "./actions";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

const button = "rounded-md px-4 py-2 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

export default portalPage("/signin", async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const callbackUrl = safeCallbackUrl(firstParam(sp.callbackUrl));
  if (await getSessionUser()) redirect(callbackUrl);
  const error = signInErrorMessage(firstParam(sp.error));
  return (
    <div className="max-w-md">
      <PageTitle title="Sign in" lead="Sign in to create API keys (ten times the anonymous rate limits) and to follow your submissions." />
      {error && (
        <div className="mb-4">
          <Notice tone="error" role="alert">
            {error}
          </Notice>
        </div>
      )}
      <form action={signInWithEmailAction} className="space-y-3 rounded-lg border border-slate-200 p-4">
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <label htmlFor="email" className="block text-sm font-medium text-slate-800">
          E-mail address
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
          placeholder="you@example.com"
        />
        <button type="submit" className={`${button} bg-indigo-700 text-white hover:bg-indigo-800`}>
          E-mail me a sign-in link
        </button>
        <p className="text-xs text-slate-600">No password: we send a link that signs you in once, within an hour.</p>
      </form>
      {githubConfigured() && (
        <form action={signInWithGitHubAction} className="mt-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <button type="submit" className={`${button} border border-slate-300 bg-white text-slate-900 hover:bg-slate-100`}>
            Sign in with GitHub
          </button>
        </form>
      )}
    </div>
  );
});
