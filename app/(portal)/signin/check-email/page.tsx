// After asking for a sign-in link: where to look for it.
import type { Metadata } from "next";
import Link from "next/link";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Check your e-mail" };

export default function CheckEmailPage() {
  const logged = !process.env.EMAIL_SERVER;
  return (
    <div className="max-w-md">
      <PageTitle title="Check your e-mail" lead="We sent you a link that signs you in. It works once, within an hour." />
      {logged && (
        <Notice tone="warning" title="E-mail is not configured on this server">
          The link was written to the server log instead (EMAIL_SERVER is not set): look for a line starting with{" "}
          <code>[capdex] sign-in link</code>.
        </Notice>
      )}
      <p className="mt-4 text-sm text-slate-700">
        No e-mail after a few minutes? Look in your spam folder, or{" "}
        <Link href="/signin" className="text-indigo-700 underline">
          ask for another link
        </Link>
        .
      </p>
    </div>
  );
}
