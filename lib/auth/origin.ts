// Cookie-authenticated writes (server actions, form posts) must come from our own pages: the
// browser's Origin has to name this site. API calls with a Bearer key carry no cookies and skip this.

/** The origins this site answers on: CAPDEX_ORIGIN/AUTH_URL when set, else the request's own host. */
export function allowedOrigins(headers: Headers, env: Record<string, string | undefined> = process.env): string[] {
  const configured = env.CAPDEX_ORIGIN ?? env.AUTH_URL;
  if (configured) {
    try {
      return [new URL(configured).origin];
    } catch {
      return [];
    }
  }
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (!host) return [];
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http";
  return [`${proto}://${host}`];
}

export function isSameOrigin(headers: Headers, env: Record<string, string | undefined> = process.env): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  return allowedOrigins(headers, env).includes(origin);
}

export class CrossOriginError extends Error {
  constructor() {
    super("This form must be sent from Capdex's own pages.");
    this.name = "CrossOriginError";
  }
}

export function assertSameOrigin(headers: Headers, env: Record<string, string | undefined> = process.env): void {
  if (!isSameOrigin(headers, env)) throw new CrossOriginError();
}
