// The account page: who is signed in, their API keys (create, list, revoke) and their submissions
// with the listed endpoints' observed figures. Every read here is scoped to the signed-in user.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { listApiKeys } from "@/lib/auth/keys";
import { getSessionUser } from "@/lib/auth/session";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { requestOrigin } from "@/lib/portal/request";
import { POLICIES, type PolicyName } from "@/lib/ratelimit/policies";
import { signOutAction } from "./actions";
import { CreateKeyForm } from "./create-key-form";
import { KeyTable } from "./key-table";
import { MySubmissions, loadMySubmissions } from "./my-submissions";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

const section = "mt-10";
const h2 = "text-lg font-semibold text-slate-950";

export default portalPage("/account", async function AccountPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?callbackUrl=%2Faccount");
  const sp = await searchParams;
  const db = await getDb();
  const [keys, origin, submissions] = await Promise.all([listApiKeys(db, user.id), requestOrigin(), loadMySubmissions(db, user.id)]);
  const error = firstParam(sp.error);
  return (
    <div>
      <PageTitle title="Account">
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span>
            Signed in as <strong data-testid="account-email">{user.email ?? user.name ?? "you"}</strong>
          </span>
          {user.isAdmin && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">operator</span>}
          <form action={signOutAction}>
            <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100">
              Sign out
            </button>
          </form>
        </div>
      </PageTitle>

      {firstParam(sp.revoked) && (
        <Notice tone="success" role="status">
          The key is revoked. Requests with it now get 401 on every instance within 5 seconds.
        </Notice>
      )}
      {error && (
        <Notice tone="error" role="alert">
          {error.slice(0, 200)}
        </Notice>
      )}

      <section aria-labelledby="keys" className={section}>
        <h2 id="keys" className={h2}>
          API keys
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          Send a key as <code>Authorization: Bearer cdx_…</code>. We keep only its SHA-256 digest, so a lost key cannot be shown
          again: revoke it and create another. Never put a key in a URL; the API refuses it.
        </p>
        <div className="mt-4">
          <CreateKeyForm origin={origin} />
        </div>
        <div className="mt-6">
          <KeyTable keys={keys} />
        </div>
      </section>

      <section aria-labelledby="limits" className={section}>
        <h2 id="limits" className={h2}>
          Rate limits
        </h2>
        <table className="mt-3 text-sm">
          <thead>
            <tr className="text-left text-slate-600">
              <th className="py-1 pr-6 font-medium">Policy</th>
              <th className="py-1 pr-6 font-medium">Anonymous</th>
              <th className="py-1 font-medium">With a key</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(POLICIES) as PolicyName[]).map((name) => {
              const p = POLICIES[name];
              const per = p.windowSeconds === 3600 ? "hour" : "min";
              return (
                <tr key={name} className="border-t border-slate-100">
                  <td className="py-1 pr-6 font-mono text-xs">{name}</td>
                  <td className="py-1 pr-6">
                    {p.anonymous} / {per}
                  </td>
                  <td className="py-1">
                    {p.authenticated} / {per}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="submissions" className={section}>
        <h2 id="submissions" className={h2}>
          My submissions
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Edit, delist or relist your listed endpoints, and see how discover ranks them, on{" "}
          <Link href="/providers/dashboard" className="text-indigo-700 underline">
            your endpoints
          </Link>
          .
        </p>
        <MySubmissions {...submissions} />
      </section>
    </div>
  );
});
