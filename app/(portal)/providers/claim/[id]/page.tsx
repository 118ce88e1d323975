// One domain claim: the TXT record to publish, how many listings it will claim, and "Check now".
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckClaimForm } from "@/components/claim-forms";
import { CodeBlock } from "@/components/code-block";
import { Notice } from "@/components/notice";
import { PageTitle } from "@/components/page-title";
import { getDb } from "@/lib/server/db";
import { isApiError } from "@/lib/http/errors";
import { getDomainClaim, type ClaimOut } from "@/lib/imports/claims";
import { uuidSchema } from "@/lib/schemas/common";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Domain claim" };

export default portalPage("/providers/claim/[id]", async function ClaimStatusPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!uuidSchema.safeParse(id).success) notFound();
  let claim: ClaimOut;
  try {
    claim = await getDomainClaim(await getDb(), id);
  } catch (err) {
    if (isApiError(err) && err.code === "not_found") notFound();
    throw err;
  }
  const v = claim.verification;
  return (
    <>
      <PageTitle title={`Claim of ${claim.domain}`} lead={`Status: ${claim.status.replace(/_/g, " ")}.`} />
      {claim.status === "verified" ? (
        <Notice tone="success" title="The domain is yours">
          {claim.claimed_endpoints} imported listing(s) under {claim.domain} are now claimed: domain verified, and never overwritten by an import.
        </Notice>
      ) : claim.status === "expired" ? (
        <Notice tone="error" title="This claim expired">Start a new claim: records are looked for during 7 days.</Notice>
      ) : (
        <div className="space-y-5">
          <p className="text-slate-800" data-testid="claimable">
            {claim.claimable} imported listing(s) under {claim.domain} will be claimed. Add this TXT record at your DNS host, then check:
          </p>
          <div className="grid max-w-3xl gap-3">
            <CodeBlock label="Name" code={v.record_name} copyLabel="Copy name" />
            <CodeBlock label="Value" code={v.record_value} copyLabel="Copy value" />
          </div>
          <CheckClaimForm claimId={claim.claim_id} />
          {claim.last_check && (
            <p className="text-sm text-slate-700" data-testid="claim-last-check">
              Last check: {claim.last_check.detail}
              {claim.last_check.found_records.length > 0 && <> Found: {claim.last_check.found_records.join(", ")}</>}
            </p>
          )}
        </div>
      )}
    </>
  );
});
