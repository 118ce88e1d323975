// The one error type of the API. Domain code throws ApiError; lib/http turns it into problem+json.

export const ERROR_CODES = {
  invalid_json: { status: 400, title: "The body is not valid JSON" },
  bad_request: { status: 400, title: "Bad request" },
  invalid_api_key: { status: 401, title: "The API key is not valid" },
  unauthorized: { status: 401, title: "Credentials required" },
  forbidden: { status: 403, title: "Forbidden" },
  not_found: { status: 404, title: "Not found" },
  capability_not_found: { status: 404, title: "Unknown capability" },
  endpoint_not_found: { status: 404, title: "Unknown endpoint" },
  submission_not_found: { status: 404, title: "Unknown submission" },
  proposal_not_found: { status: 404, title: "Unknown capability proposal" },
  intent_unresolved: { status: 404, title: "No capability matches the intent" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  already_listed: { status: 409, title: "Already listed" },
  verification_failed: { status: 409, title: "Domain verification failed" },
  conflict: { status: 409, title: "Conflict" },
  capability_exists: { status: 409, title: "The capability already exists" },
  proposal_exists: { status: 409, title: "The capability is already proposed" },
  proposal_not_open: { status: 409, title: "The proposal was already decided" },
  relist_refused: { status: 409, title: "Delisted by an operator, not by its provider" },
  payload_too_large: { status: 413, title: "The body is too large" },
  unsupported_media_type: { status: 415, title: "Send application/json" },
  validation_failed: { status: 422, title: "The request is not valid" },
  unknown_field: { status: 422, title: "The request has a field this operation does not take" },
  intent_refused: { status: 422, title: "Capdex does not serve this need" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
  unavailable: { status: 503, title: "Service unavailable" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type FieldError = { pointer: string; detail: string };

/**
 * Members of every problem body that an extension member may never replace (RFC 9457's standard
 * members, and the two every Capdex problem carries). `status` is always the HTTP status.
 */
export const RESERVED_PROBLEM_MEMBERS = ["type", "title", "status", "detail", "instance", "code", "request_id", "errors"] as const;
type ReservedMember = (typeof RESERVED_PROBLEM_MEMBERS)[number];
/** Extension members of a problem body; a reserved name does not compile (and is dropped if it gets through). */
export type ProblemExtras = Record<string, unknown> & { [K in ReservedMember]?: never };

export type ApiErrorOptions = {
  errors?: FieldError[];
  /** Extra members of the problem body (e.g. suggestions, candidates, retry_after). */
  extras?: ProblemExtras;
  headers?: Record<string, string>;
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly extras?: ProblemExtras;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail?: string, options: ApiErrorOptions = {}) {
    super(detail ?? ERROR_CODES[code].title);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.extras = options.extras;
    this.headers = options.headers;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** Pointer of a path inside a JSON document (RFC 6901), e.g. ["constraints","max_price"] -> "#/constraints/max_price". */
export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return "#" + path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

const DB_UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE", // a write on a connection the server closed (it is going down)
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "55P03", // lock_not_available: lock_timeout (lib/db/client.ts)
  "57014", // query_canceled: statement_timeout
]);

/** An error and the causes it wraps (drivers and Drizzle nest them), outermost first, at most five deep. */
export function* errorChain(err: unknown): Generator<unknown> {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** True when the error or one of its causes carries one of these codes. */
function hasCode(err: unknown, codes: ReadonlySet<string>): boolean {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && codes.has(code)) return true;
  }
  return false;
}

/** True when an error means the database cannot be reached (as opposed to a bug). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (hasCode(err, DB_UNAVAILABLE_CODES)) return true;
  for (const e of errorChain(err)) if (e instanceof DatabaseUnavailableError) return true;
  return false;
}

// The connection a query ran on was lost (the server restarted or ended that backend); a new
// connection may well work, unlike when the server refuses connections altogether.
const CONNECTION_LOST_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "ECONNRESET", "EPIPE", "57P01"]);

/** True when a query failed because its connection was lost under it (worth one retry if it only read). */
export function isConnectionLost(err: unknown): boolean {
  return hasCode(err, CONNECTION_LOST_CODES);
}

const DISK_FULL = new Set(["53100"]);

/** True when the database refused a write for want of disk space (SQLSTATE 53100, disk_full). */
export function isDiskFull(err: unknown): boolean {
  return hasCode(err, DISK_FULL);
}

export class DatabaseUnavailableError extends Error {
  constructor(message = "database unavailable", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}
