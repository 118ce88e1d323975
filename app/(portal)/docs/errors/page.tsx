// Every error code of the API, each with its anchor: problem+json `type` URLs point here (#<code>).
import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/code-block";
import { PageTitle } from "@/components/page-title";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/errors";
import { ERROR_HELP } from "@/lib/portal/docs";
import { LISTING_REASONS, type ListingReason } from "@/lib/listings/reasons";
import { requestOrigin } from "@/lib/portal/request";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Errors" };

export default async function ErrorsPage() {
  const origin = await requestOrigin();
  const example = {
    type: `${origin}/docs/errors#validation_failed`,
    title: ERROR_CODES.validation_failed.title,
    status: 422,
    detail: "constraints/max_price: Must be 0 or more.",
    code: "validation_failed",
    request_id: "8f6c2f3e-0d7c-4c55-9a51-3f1f2b7c9e10",
    errors: [{ pointer: "#/constraints/max_price", detail: "Must be 0 or more." }],
  };
  return (
    <>
      <PageTitle
        title="Errors"
        lead={
          <>
            Every error is an RFC 9457 problem (<code className="font-mono">application/problem+json</code>) with a stable <code className="font-mono">code</code>,
            the HTTP <code className="font-mono">status</code>, a <code className="font-mono">detail</code> for people and the{" "}
            <code className="font-mono">request_id</code> (also in the <code className="font-mono">X-Request-Id</code> header). Never internals.{" "}
            <Link className="underline" href="/docs">
              Back to the docs
            </Link>
          </>
        }
      />
      <CodeBlock label="A problem body" code={JSON.stringify(example, null, 2)} />
      <dl className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200" data-testid="error-codes">
        {(Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => (
          <div key={code} id={code} className="grid gap-1 p-4 target:bg-amber-50 sm:grid-cols-[16rem_1fr]">
            <dt>
              <a href={`#${code}`} className="font-mono font-semibold text-slate-950 hover:underline">
                {code}
              </a>
              <span className="block text-sm text-slate-700">
                {ERROR_CODES[code].status} · {ERROR_CODES[code].title}
              </span>
            </dt>
            <dd className="text-slate-800">{withCode(ERROR_HELP[code])}</dd>
          </div>
        ))}
      </dl>

      <h2 id="listing-reasons" className="mt-12 text-xl font-semibold text-slate-950">
        Listing reasons
      </h2>
      <p className="mt-1 max-w-3xl text-slate-800">
        <code className="font-mono">GET /api/listing_status?url=</code> (and the{" "}
        <Link className="underline" href="/providers/status">
          listing status
        </Link>{" "}
        page) say why an endpoint is or isn&apos;t listed with these stable codes.
      </p>
      <dl className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200" data-testid="listing-reasons">
        {(Object.keys(LISTING_REASONS) as ListingReason[]).map((code) => (
          <div key={code} id={code} className="grid gap-1 p-4 target:bg-amber-50 sm:grid-cols-[16rem_1fr]">
            <dt>
              <a href={`#${code}`} className="font-mono font-semibold text-slate-950 hover:underline">
                {code}
              </a>
              <span className="block text-sm text-slate-700">{LISTING_REASONS[code].title}</span>
            </dt>
            <dd className="text-slate-800">{LISTING_REASONS[code].help}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** `name` in the help texts -> inline code. */
function withCode(text: string) {
  return text.split(/`([^`]+)`/).map((part, i) =>
    i % 2 ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-sm">
        {part}
      </code>
    ) : (
      part
    ),
  );
}
