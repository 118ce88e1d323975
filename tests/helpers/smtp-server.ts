// A real SMTP server on loopback that keeps every message it receives, for tests of e-mail sign-in.
// EMAIL_SERVER=smtp://127.0.0.1:<port> points Capdex at it (plain SMTP, no auth, no TLS).
import { SMTPServer } from "smtp-server";

export type CapturedMail = { from: string; to: string[]; raw: string; text: string };
export type TestSmtpServer = {
  port: number;
  url: string;
  messages: CapturedMail[];
  /** The next message to `address` (waits for it; rejects after timeoutMs). */
  waitForMail: (address: string, timeoutMs?: number) => Promise<CapturedMail>;
  stop: () => Promise<void>;
};

/** Undoes quoted-printable soft line breaks and =XX escapes (enough to read links in a test). */
export function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The first http(s) link in a message's text. */
export function firstLink(mail: CapturedMail): string | undefined {
  return /https?:\/\/[^\s"<>]+/.exec(mail.text)?.[0];
}

export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: CapturedMail[] = [];
  const waiters: Array<{ address: string; resolve: (m: CapturedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail: CapturedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: decodeQuotedPrintable(raw),
        };
        messages.push(mail);
        for (let i = waiters.length - 1; i >= 0; i--) {
          if (mail.to.includes(waiters[i].address)) waiters.splice(i, 1)[0].resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.server.address() as { port: number }).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    waitForMail(address, timeoutMs = 30_000) {
      const wanted = address.toLowerCase();
      const seen = messages.find((m) => m.to.includes(wanted));
      if (seen) {
        messages.splice(messages.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${address} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          address: wanted,
          resolve: (m) => {
            clearTimeout(timer);
            messages.splice(messages.indexOf(m), 1);
            resolve(m);
          },
        });
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
