// One API operation on the docs page: method and path, rate limit, fields, responses, curl.
import Link from "next/link";
import type { DocOperation } from "@/lib/portal/docs";
import { CodeBlock } from "./code-block";

const METHOD_COLOURS: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-900",
  POST: "bg-indigo-100 text-indigo-900",
};

export function DocsOperation({ op }: { op: DocOperation }) {
  const th = "px-3 py-1.5 text-left font-semibold";
  const td = "px-3 py-1.5 align-top";
  return (
    <article id={op.anchor} aria-labelledby={`${op.anchor}-h`} className="rounded-lg border border-slate-200 p-4" data-operation={op.key}>
      <h3 id={`${op.anchor}-h`} className="flex flex-wrap items-center gap-2 font-mono text-base">
        <span className={`rounded px-2 py-0.5 text-xs font-bold ${METHOD_COLOURS[op.method] ?? "bg-slate-100 text-slate-900"}`}>{op.method}</span>
        <span className="break-all text-slate-950">/api{op.path === "/" ? "" : op.path}</span>
      </h3>
      <p className="mt-2 text-slate-800">{op.summary}</p>
      {op.rateLimit && <p className="mt-1 text-sm text-slate-700">Rate limit: {op.rateLimit}</p>}
      {op.fields.length > 0 && (
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={`Fields of ${op.key}`}>
          <table className="min-w-full text-sm">
            <thead className="border-b border-slate-200 text-slate-800">
              <tr>
                <th scope="col" className={th}>Field</th>
                <th scope="col" className={th}>In</th>
                <th scope="col" className={th}>Type</th>
                <th scope="col" className={th}>Required</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {op.fields.map((f) => (
                <tr key={`${f.where}-${f.name}`}>
                  <td className={`${td} font-mono`}>{f.name}</td>
                  <td className={td}>{f.where}</td>
                  <td className={`${td} font-mono text-xs`}>{f.type}</td>
                  <td className={td}>{f.required ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="mt-3 text-sm text-slate-700">
        Responses:{" "}
        {op.responses.map((r, i) => (
          <span key={r.status}>
            {i > 0 && ", "}
            {Number(r.status) >= 400 ? (
              <Link className="underline" href="/docs/errors" title={r.description}>
                {r.status}
              </Link>
            ) : (
              <span title={r.description}>{r.status}</span>
            )}
          </span>
        ))}
      </p>
      <div className="mt-3">
        <CodeBlock label={`curl: ${op.method} /api${op.path === "/" ? "" : op.path}`} code={op.curl} />
      </div>
    </article>
  );
}
