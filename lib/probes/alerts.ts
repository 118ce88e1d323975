// E-mail to a provider when one of its endpoints starts failing its checks: sent by the probe that
// moves it to `failing` (the third failure in a row, lib/probes/state.ts), so once per run of
// failures, never on every probe after. It goes to the account that owns the listing and to the
// listing's contact address, by the sign-in path (EMAIL_SERVER, lib/auth/email.ts).
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { sendEmail, type MailMessage } from "@/lib/auth/email";
import { LISTING_REASONS, reasonOfProbe } from "@/lib/listings/reasons";
import { errorFields, logger } from "@/lib/log";
import type { ProbeVerdict } from "./evaluate";

type Target = { id: string; url: string; capability_id: string; provider: string; contact: string | null; account: string | null };

function siteOrigin(env: Record<string, string | undefined>): string {
  return (env.CAPDEX_ORIGIN ?? env.AUTH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
}

export function renderFailingAlert(t: Pick<Target, "id" | "url" | "capability_id" | "provider">, verdict: Pick<ProbeVerdict, "reason" | "status">, failures: number, origin: string): MailMessage {
  const code = reasonOfProbe(verdict.reason);
  const why = code ? `${LISTING_REASONS[code].title}. ${LISTING_REASONS[code].help}` : "";
  const status = verdict.status ? ` (HTTP ${verdict.status})` : "";
  const dashboard = `${origin}/providers/dashboard`;
  const page = `${origin}/endpoints/${t.id}`;
  const text = [
    `${t.url} (${t.capability_id}) of ${t.provider} failed its last ${failures} checks in a row: ${verdict.reason}${status}.`,
    why ? `\n${why}\n` : "",
    `While it fails, discover ranks it only as a fallback. Capdex keeps checking it (less often the longer it fails) and it ranks again after the first check that passes.`,
    ``,
    `Endpoint: ${page}`,
    `Your endpoints: ${dashboard}`,
    ``,
    `You get this e-mail once each time the endpoint starts failing, not for every check.`,
    ``,
  ].join("\n");
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p style="font-size:16px"><strong>${esc(t.url)}</strong> is failing its checks</p>
<p>${esc(t.capability_id)} of ${esc(t.provider)}: the last ${failures} checks failed in a row, with <code>${esc(verdict.reason)}</code>${esc(status)}.</p>
${why ? `<p>${esc(why)}</p>` : ""}
<p>While it fails, discover ranks it only as a fallback; it ranks again after the first check that passes.</p>
<p><a href="${esc(page)}">The endpoint</a> · <a href="${esc(dashboard)}">Your endpoints</a></p>
<p style="color:#475569;font-size:13px">You get this e-mail once each time the endpoint starts failing, not for every check.</p>
</body></html>`;
  return { subject: `Capdex: ${t.url} is failing its checks`, text, html };
}

/** Sends the alert for an endpoint that just became failing; never throws (a lost alert must not fail the probe). */
export async function alertFailing(db: Db, endpointId: string, verdict: ProbeVerdict, failures: number, env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const [t] = await queryRows<Target>(
      db,
      sql`select e.id::text as id, e.url, e.capability_id, p.name as provider, p.contact_email as contact, u.email as account
          from endpoints e join providers p on p.id = e.provider_id left join users u on u.id = p.user_id
          where e.id = ${endpointId} and not e.is_demo and not p.is_demo`,
    );
    if (!t) return 0;
    const to = [...new Map([t.account, t.contact].filter((a): a is string => !!a).map((a) => [a.toLowerCase(), a])).values()];
    if (!to.length) return 0;
    const message = renderFailingAlert(t, verdict, failures, siteOrigin(env));
    let sent = 0;
    for (const address of to) {
      if (await sendEmail(address, message, env)) sent++;
    }
    if (sent) logger().info({ endpoint_id: endpointId, reason: verdict.reason, recipients: sent }, "failing alert sent");
    else logger().warn({ endpoint_id: endpointId, reason: verdict.reason }, "failing alert not sent: EMAIL_SERVER is not set");
    return sent;
  } catch (err) {
    logger().error({ endpoint_id: endpointId, ...errorFields(err) }, "failing alert could not be sent");
    return 0;
  }
}
