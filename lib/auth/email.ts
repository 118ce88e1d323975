// Sign-in links by e-mail: sent through EMAIL_SERVER (an SMTP URL) from EMAIL_FROM, or, with no
// EMAIL_SERVER (local use), printed to the server log so a developer can click it from there.
import { createTransport } from "nodemailer";

export type VerificationRequest = { identifier: string; url: string; expires: Date };

export const DEFAULT_FROM = "Capdex <no-reply@capdex.localhost>";

export function emailFrom(env: Record<string, string | undefined> = process.env): string {
  return env.EMAIL_FROM || DEFAULT_FROM;
}

export function renderSignInEmail(url: string, expires: Date) {
  const host = new URL(url).host;
  const minutes = Math.max(1, Math.round((expires.getTime() - Date.now()) / 60_000));
  const text = `Sign in to Capdex (${host})\n\n${url}\n\nThe link works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`;
  // The link is our own URL-encoded callback; escaping keeps the markup sound all the same.
  const href = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p style="font-size:18px">Sign in to <strong>Capdex</strong></p>
<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#4338ca;color:#fff;border-radius:6px;text-decoration:none">Sign in</a></p>
<p style="color:#475569;font-size:13px">The link works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>
</body></html>`;
  return { subject: "Sign in to Capdex", text, html };
}

export async function sendVerificationRequest(params: VerificationRequest, env: Record<string, string | undefined> = process.env): Promise<void> {
  const { identifier, url, expires } = params;
  const server = env.EMAIL_SERVER;
  if (!server) {
    // Not a log event but the e-mail itself, for local use without a mail server: it holds the
    // address and a sign-in token, so it bypasses the JSON log (set EMAIL_SERVER in production).
    console.log(`[capdex] sign-in link for ${identifier} (EMAIL_SERVER is not set, so it is not e-mailed): ${url}`);
    return;
  }
  const transport = createTransport(server);
  const message = renderSignInEmail(url, expires);
  const result = await transport.sendMail({ to: identifier, from: emailFrom(env), ...message });
  const failed = [...(result.rejected ?? []), ...(result.pending ?? [])].filter(Boolean);
  if (failed.length) throw new Error(`the sign-in e-mail could not be delivered to ${failed.join(", ")}`);
}

export type MailMessage = { subject: string; text: string; html?: string };

/**
 * Any other e-mail of Capdex (alerts to providers), by the same path as sign-in links: EMAIL_SERVER
 * and EMAIL_FROM. Without EMAIL_SERVER nothing is sent and false is returned (the caller logs it).
 */
export async function sendEmail(to: string, message: MailMessage, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  const server = env.EMAIL_SERVER;
  if (!server) return false;
  const transport = createTransport(server);
  const result = await transport.sendMail({ to, from: emailFrom(env), ...message });
  const failed = [...(result.rejected ?? []), ...(result.pending ?? [])].filter(Boolean);
  if (failed.length) throw new Error(`the e-mail could not be delivered to ${failed.join(", ")}`);
  return true;
}
