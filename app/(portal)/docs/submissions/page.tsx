// The provider guide: how to list an endpoint, the DNS record, what a probe checks (every reason
// code with its fix, from lib/listings/reasons.ts), how to declare a call, claims, how ranking works.
import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/code-block";
import { PageTitle } from "@/components/page-title";
import { LISTING_REASONS } from "@/lib/listings/reasons";
import { RANKING_PRESETS } from "@/lib/schemas/discover";

export const metadata: Metadata = { title: "Listing your endpoints", description: "How to list an endpoint on Capdex, prove the domain, pass the checks and rank well." };

const SUBMIT = `curl -s localhost:3000/api/submit -H 'content-type: application/json' -d '{
  "endpoint_url": "https://api.example.com/v1/weather", "capability_id": "weather.current",
  "contact_email": "ops@example.com", "provider_name": "Example", "price_per_call": 0.002,
  "networks": ["base", "polygon"],
  "call": { "input": { "kind": "query", "example": { "city": "Oslo" },
            "schema": { "properties": { "city": { "type": "string" } }, "required": ["city"] } },
            "output": { "type": "json", "example": { "temperature_c": 4.5 } } }
}'`;

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} id={id} className="mt-8 max-w-3xl space-y-2 text-slate-800">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function SubmissionsGuide() {
  return (
    <>
      <PageTitle title="Listing your endpoints" lead="How to list an endpoint on Capdex, prove you own its domain, pass the checks and rank well." />
      <Section id="list" title="1. Submit it">
        <p>
          Use the <Link className="text-sky-800 underline" href="/providers/submit">wizard</Link> or <code>POST /api/submit</code>. Sending the same URL and
          capability again from the same contact e-mail while it is pending returns the same submission and record (200), with your new details.
        </p>
        <CodeBlock label="Submit an endpoint" code={SUBMIT} />
      </Section>
      <Section id="dns" title="2. Publish the DNS record">
        <p>
          Add the TXT record the answer names: <code>_capdex-challenge.&lt;host&gt;</code> (or <code>_capdex-challenge.&lt;registrable domain&gt;</code>, which
          covers every host under it) with the value <code>capdex-verification=&lt;token&gt;</code>. Then press “Check now” on the submission page, or{" "}
          <code>POST /api/submit/&lt;id&gt;/verify</code>; Capdex also looks again in the background. The endpoint is listed as soon as the record is found, and
          the record is re-checked daily.
        </p>
      </Section>
      <Section id="probes" title="3. What a probe checks, and how to fix a failure">
        <p>
          Every listed endpoint gets one unpaid request every 10 minutes with its method. A paid endpoint must answer 402 with an x402 challenge offering the
          listed network at no more than the listed price; a free one must answer 2xx. Three failures in a row mark it failing (it is then only a fallback).
          Ask <Link className="text-sky-800 underline" href="/providers/status">why is my endpoint (not) listed</Link> for the last probe.
        </p>
        <dl className="space-y-2 text-sm" data-testid="reason-codes">
          {Object.entries(LISTING_REASONS).map(([code, r]) => (
            <div key={code}>
              <dt>
                <a className="font-mono font-semibold text-sky-800 underline" href={`/docs/errors#${code}`}>
                  {code}
                </a>
                : {r.title}
              </dt>
              <dd className="text-slate-700">{r.help}</dd>
            </div>
          ))}
        </dl>
      </Section>
      <Section id="call" title="4. Declare how to call it">
        <p>
          Agents prefer endpoints they can call without reading docs (<code>constraints.callable</code>). Declare the input and output with the x402{" "}
          <code>bazaar</code> extension in your 402 answer (<code>declareDiscoveryExtension</code> of <code>@x402/extensions</code>); Capdex reads it on every
          probe. Without it, send <code>call</code> when submitting, as above. A declaration wins over a submitted description.
        </p>
      </Section>
      <Section id="claims" title="5. Claim imported listings">
        <p>
          Capdex imports public x402 catalogues: your endpoints may already be listed, marked “not claimed”. Prove the domain once with one DNS record at{" "}
          <Link className="text-sky-800 underline" href="/providers/claim">claim</Link>, and every imported listing under it becomes yours (domain verified).
        </p>
      </Section>
      <Section id="ranking" title="6. How ranking works">
        <p>
          Each endpoint gets four factors, each from 0 (worst) to 1 (best) among the endpoints of the same capability: <strong>success</strong> (the 7-day
          success rate of weighted reports, pulled towards a prior while there are few), <strong>latency</strong> (p95), <strong>price</strong> and{" "}
          <strong>stability</strong> (how even the daily success rates are). The score is their weighted sum, so it is also 0 to 1: 0.9 means near the best on
          what the preset weighs, not “90% reliable”. Scores compare endpoints of one capability; they are not comparable across capabilities.
        </p>
        <ul className="list-disc pl-5 text-sm">
          {Object.entries(RANKING_PRESETS).map(([name, w]) => (
            <li key={name}>
              <code>{name}</code>: success {w.success * 100}%, latency {w.latency * 100}%, price {w.price * 100}%, stability {w.stability * 100}%
            </li>
          ))}
        </ul>
        <p>
          Reports sent with an API key count (more when tied to a discover answer); reports without one, and a provider&apos;s reports about its own endpoints,
          weigh nothing. New endpoints get a fair prior and an occasional exploration slot to earn a record.
        </p>
      </Section>
    </>
  );
}
