// A submission's own page (reopenable by its link): the DNS TXT record to publish, how to do it at
// common DNS hosts, "Check now", the state refreshing by itself, and the listed endpoint at the end.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/auto-refresh";
import { CheckNowForm } from "@/components/check-now-form";
import { CopyButton } from "@/components/copy-button";
import { DnsHostInstructions } from "@/components/dns-host-instructions";
import { EndpointTable } from "@/components/endpoint-table";
import { Notice } from "@/components/notice";
import { SubmissionBadge } from "@/components/submission-badge";
import { getDb } from "@/lib/server/db";
import { listRankedEndpoints } from "@/lib/discovery";
import { isApiError } from "@/lib/http/errors";
import { getEndpointFacts } from "@/lib/portal/endpoints";
import { formatAgo, formatPrice, formatUtcDateTime } from "@/lib/portal/format";
import { requestOrigin } from "@/lib/portal/request";
import { uuidSchema } from "@/lib/schemas/common";
import { getProposal } from "@/lib/proposals";
import { getRegistry } from "@/lib/registry";
import { getSubmission, type SubmissionOut } from "@/lib/submissions";
import type { Db } from "@/lib/db/client";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submission" };

async function findSubmission(db: Db, id: string): Promise<SubmissionOut | null> {
  if (!uuidSchema.safeParse(id).success) return null;
  try {
    return await getSubmission(db, id);
  } catch (err) {
    if (isApiError(err) && err.code === "submission_not_found") return null;
    throw err;
  }
}

/** The proposal a submission waits for while its capability is not in the registry (with its title), or null. */
async function waitingFor(db: Db, sub: SubmissionOut): Promise<{ title: string | null } | null> {
  if (!sub.proposal_id || (await getRegistry(db)).byId.has(sub.capability_id)) return null;
  try {
    return { title: (await getProposal(db, sub.proposal_id)).title };
  } catch (err) {
    if (isApiError(err) && err.code === "proposal_not_found") return { title: null };
    throw err;
  }
}

/** The record name relative to the zone, as most DNS hosts' "Name"/"Host" field wants it. */
function relativeName(recordName: string, zone: string): string {
  return recordName.endsWith(`.${zone}`) ? recordName.slice(0, -zone.length - 1) : recordName;
}

export default portalPage("/providers/submissions/[id]", async function SubmissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const db = await getDb();
  const sub = await findSubmission(db, id);
  if (!sub) notFound();
  const origin = await requestOrigin();
  const link = `${origin}/providers/submissions/${sub.submission_id}`;
  const v = sub.verification;
  const now = new Date();
  // The listed endpoint with its rank among the capability's others.
  const ranked = sub.status === "verified" && sub.endpoint_id ? await listRankedEndpoints(db, sub.capability_id) : [];
  const rankIndex = ranked.findIndex((e) => e.endpoint_id === sub.endpoint_id);
  const listed = rankIndex >= 0 ? [ranked[rankIndex]] : [];
  const facts = await getEndpointFacts(db, listed.map((e) => e.endpoint_id));
  // proposed with the submission (the wizard's "None fits"): not a capability until an operator accepts it
  const proposal = await waitingFor(db, sub);

  return (
    <>
      <p className="mb-2 text-sm text-slate-700">
        <Link className="underline" href="/providers/submit">
          Submit an endpoint
        </Link>{" "}
        / Submission
      </p>
      <h1 className="flex flex-wrap items-center gap-3 text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">
        {sub.status === "verified" ? "Your endpoint is listed" : sub.status === "pending_verification" ? "Prove you control the domain" : sub.status === "pending_capability" ? "Domain proven: waiting for its capability" : "This submission is closed"}
        <SubmissionBadge status={sub.status} />
      </h1>
      <dl className="mt-3 grid max-w-3xl gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]">
        <dt className="font-medium text-slate-800">Endpoint</dt>
        <dd className="break-all font-mono text-slate-800">
          {sub.method} {sub.endpoint_url}{" "}
          <Link className="font-sans text-indigo-700 underline" href={`/providers/status?url=${encodeURIComponent(sub.endpoint_url)}`} data-testid="status-link">
            listing status
          </Link>
        </dd>
        <dt className="font-medium text-slate-800">Capability</dt>
        <dd data-testid="submission-capability">
          {proposal ? (
            <>
              <code className="font-mono">{sub.capability_id}</code>
              {proposal.title ? ` (${proposal.title})` : ""}, proposed:{" "}
              <Link className="underline" href="/capabilities/proposals">
                waiting for an operator&apos;s decision
              </Link>
            </>
          ) : (
            <Link className="underline" href={`/capabilities/${sub.capability_id}`}>
              {sub.capability_id}
            </Link>
          )}
        </dd>
        <dt className="font-medium text-slate-800">Provider</dt>
        <dd className="text-slate-800">
          {sub.provider_name} · {formatPrice(sub.price_per_call)} per call on {sub.network}
        </dd>
        <dt className="font-medium text-slate-800">Link to this page</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <span className="truncate font-mono text-xs text-slate-700">{link}</span>
          <CopyButton value={link} label="Copy link" />
        </dd>
      </dl>

      {sub.status === "pending_verification" && (
        <>
          <section aria-labelledby="record-h" className="mt-8 max-w-3xl">
            <h2 id="record-h" className="text-xl font-semibold text-slate-950">
              Step 4 of 4: add this DNS record
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              Add one TXT record at your DNS host. Capdex checks it by itself every few minutes until {formatUtcDateTime(v.expires_at)}; press “Check now” once it is in place.
            </p>
            {proposal && (
              <p className="mt-2 text-sm text-slate-700" data-testid="proposal-next">
                Once the record is found, the endpoint waits for the capability <code className="font-mono">{sub.capability_id}</code> to be accepted by an operator, and is listed then.
              </p>
            )}
            <div className="mt-4 overflow-hidden rounded-lg border border-slate-200">
              <table className="w-full text-sm" data-testid="dns-record">
                <caption className="sr-only">The DNS record to add</caption>
                <tbody className="divide-y divide-slate-200">
                  {[
                    ["Type", v.record_type, "Copy type"],
                    ["Name", v.record_name, "Copy name"],
                    ["Value", v.record_value, "Copy value"],
                  ].map(([label, value, copy]) => (
                    <tr key={label}>
                      <th scope="row" className="w-px whitespace-nowrap bg-slate-50 px-3 py-2 text-left font-semibold text-slate-800">
                        {label}
                      </th>
                      <td className="px-3 py-2">
                        <div className="flex items-center justify-between gap-2">
                          <code className="min-w-0 break-all font-mono text-slate-950" data-testid={`record-${label.toLowerCase()}`}>
                            {value}
                          </code>
                          <CopyButton value={value} label={copy} />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {v.alternative_record_name && v.alternative_record_name !== v.record_name && (
              <p className="mt-2 text-sm text-slate-700">
                Or put the same value at <code className="break-all font-mono">{v.alternative_record_name}</code>: that proves the whole domain, and covers every host under it.
              </p>
            )}
          </section>

          <section aria-labelledby="check-h" className="mt-8 max-w-3xl">
            <h2 id="check-h" className="text-xl font-semibold text-slate-950">
              Check the record
            </h2>
            <div className="mt-3 space-y-3">
              <CheckNowForm submissionId={sub.submission_id} />
              <AutoRefresh everyMs={5000} />
              {sub.last_check ? (
                <Notice tone="warning" title={`Not found yet (last looked ${formatAgo(sub.checked_at, now)})`}>
                  <p data-testid="last-check-reason">{sub.last_check.detail ?? sub.last_check.reason.replace(/_/g, " ")}</p>
                  {sub.last_check.found_records.length > 0 ? (
                    <>
                      <p className="mt-2">TXT records found there:</p>
                      <ul className="mt-1 list-disc pl-5 font-mono text-xs">
                        {sub.last_check.found_records.map((r) => (
                          <li key={r} className="break-all">
                            {r}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                  <p className="mt-2">New records can take a few minutes to show up, depending on your host.</p>
                </Notice>
              ) : (
                <Notice tone="empty">Not checked yet. DNS changes usually show up within a few minutes.</Notice>
              )}
            </div>
          </section>

          <section aria-labelledby="hosts-h" className="mt-8 max-w-3xl">
            <h2 id="hosts-h" className="text-xl font-semibold text-slate-950">
              How to add it at your DNS host
            </h2>
            <DnsHostInstructions
              fullName={v.record_name}
              relativeName={relativeName(v.record_name, sub.registrable_domain)}
              zone={sub.registrable_domain}
              value={v.record_value}
            />
          </section>
        </>
      )}

      {sub.status === "pending_capability" && (
        <section aria-labelledby="waiting-h" className="mt-8 max-w-3xl space-y-3">
          <h2 id="waiting-h" className="sr-only">
            Waiting for the capability
          </h2>
          <Notice tone="info" role="status" title={`Waiting for capability ${sub.capability_id} to be accepted`}>
            <p data-testid="waiting-detail">
              {sub.last_check?.detail ?? `The domain is proven; the endpoint is listed once an operator accepts the proposed capability ${sub.capability_id}.`}
            </p>
            <p className="mt-2">
              An operator accepts it (the endpoint is listed at once, under that id or the one they choose) or rejects it (this submission is closed, with
              their note). Keep the TXT record in place meanwhile. The open proposals are on{" "}
              <Link className="underline" href="/capabilities/proposals">
                Capability proposals
              </Link>
              .
            </p>
          </Notice>
          <AutoRefresh everyMs={30_000} />
        </section>
      )}

      {sub.status === "verified" && (
        <section aria-labelledby="listed-h" className="mt-8 space-y-4">
          <Notice tone="success" role="status" title="Domain verified: the endpoint is listed">
            Agents can now discover it under{" "}
            <Link className="underline" href={`/capabilities/${sub.capability_id}`}>
              {sub.capability_id}
            </Link>
            . Capdex probes it regularly: it shows as “verified” once it answers as listed{sub.price_per_call > 0 ? " (402 with an x402 challenge at your price)" : " (2xx)"}. Keep the TXT record: the domain is re-checked daily.
          </Notice>
          <h2 id="listed-h" className="text-xl font-semibold text-slate-950">
            The listed endpoint
          </h2>
          {listed.length ? (
            <>
              <EndpointTable rows={listed} facts={facts} now={now} startRank={rankIndex + 1} caption="Your listed endpoint" testId="listed-endpoint" />
              <p className="text-sm">
                <Link className="font-medium text-indigo-700 underline" href={`/capabilities/${sub.capability_id}`}>
                  See it among the {ranked.length} endpoints of {sub.capability_id} →
                </Link>
              </p>
            </>
          ) : (
            <Notice tone="empty">
              Endpoint {sub.endpoint_id} is no longer listed{sub.listing?.domain_reason ? ` (${sub.listing.domain_reason.replace(/_/g, " ")})` : ""}.
            </Notice>
          )}
        </section>
      )}

      {(sub.status === "expired" || sub.status === "rejected") && (
        <div className="mt-8 max-w-3xl">
          <Notice tone="error" title={sub.status === "expired" ? "Expired: the record was not found within 7 days" : "Rejected"}>
            {sub.last_check?.detail ?? "Submit the endpoint again to get a new record."}{" "}
            <Link className="underline" href={`/providers/submit?capability=${sub.capability_id}`}>
              Submit again
            </Link>
          </Notice>
        </div>
      )}
    </>
  );
});
