// Renders errors as RFC 9457 problem details: stable code, pointer list, no internals.
import { ApiError, ERROR_CODES, RESERVED_PROBLEM_MEMBERS, isApiError, isDatabaseUnavailable, isDiskFull } from "./errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function siteOrigin(fallback?: string): string {
  const configured = process.env.CAPDEX_ORIGIN ?? process.env.AUTH_URL;
  if (configured) return configured.replace(/\/+$/, "").replace(/\/api\/auth$/, "");
  return fallback ?? "http://localhost:3000";
}

export function toApiError(err: unknown): ApiError {
  if (isApiError(err)) return err;
  // A full disk refuses writes only: reads go on, and writes work again once space is freed.
  if (isDiskFull(err)) {
    return new ApiError("unavailable", "The database has no disk space left, so nothing can be stored now (reads still work); try again later.", {
      headers: { "Retry-After": "30" },
    });
  }
  if (isDatabaseUnavailable(err)) {
    return new ApiError("unavailable", "The database cannot be reached; try again shortly.", {
      headers: { "Retry-After": "5" },
    });
  }
  return new ApiError("internal_error", "Something went wrong on our side; the request id helps us find it.");
}

const RESERVED = new Set<string>(RESERVED_PROBLEM_MEMBERS);

/**
 * The problem body: the standard members, then the extension members, none of which may replace a
 * standard one (RFC 9457 section 3.2): `status` is always the HTTP status, `type` always the code's page.
 */
export function problemBody(err: ApiError, requestId: string, origin: string) {
  const extras: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err.extras ?? {})) if (!RESERVED.has(k)) extras[k] = v;
  return {
    ...extras,
    type: `${origin}/docs/errors#${err.code}`,
    title: ERROR_CODES[err.code].title,
    status: err.status,
    detail: err.message,
    code: err.code,
    request_id: requestId,
    ...(err.errors?.length ? { errors: err.errors } : {}),
  };
}

export function problemResponse(err: ApiError, requestId: string, origin: string, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Content-Type", PROBLEM_CONTENT_TYPE);
  h.set("X-Request-Id", requestId);
  h.set("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(err.headers ?? {})) h.set(k, v);
  return new Response(JSON.stringify(problemBody(err, requestId, origin)), { status: err.status, headers: h });
}
