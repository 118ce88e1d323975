// Where a sign-in may send people afterwards: only paths on this site (no "//evil.example", no URLs).

export function safeCallbackUrl(raw: unknown, fallback = "/account"): string {
  if (typeof raw !== "string" || raw.length > 512) return fallback;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\") || /[\u0000-\u001f]/.test(raw)) return fallback;
  return raw;
}

/** What the sign-in page says for each error Auth.js (or our own checks) can send it back with. */
export const SIGNIN_ERRORS: Record<string, string> = {
  InvalidEmail: "That does not look like an e-mail address.",
  TooManyEmails: "Too many sign-in e-mails for this address or network in the last hour. Try again later, or use the last link you received.",
  CrossOrigin: "The form was sent from another site. Open this page directly and try again.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  OAuthAccountNotLinked: "This e-mail address already signs in another way (e.g. by e-mail link). Use that, then GitHub stays unlinked.",
  EmailSignin: "The sign-in e-mail could not be sent. Try again in a moment.",
  AccessDenied: "Sign-in was refused.",
  Configuration: "Sign-in is not configured correctly on this server (see docs/auth.md).",
};

export function signInErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return SIGNIN_ERRORS[code] ?? "Sign-in did not work. Try again.";
}
