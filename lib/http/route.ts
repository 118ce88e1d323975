// The one route wrapper: request id, principal, rate limit, body cap, strict zod parsing, every error
// rendered as problem+json, and each answer counted, timed and logged (./observe.ts). Handlers stay
// a few lines long.
import type { z } from "zod";
import { getDb, getReadDb } from "@/lib/server/db";
import type { Db } from "@/lib/db/client";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { checkRateLimit, type PolicyName } from "@/lib/ratelimit";
import { readJsonBody, checkJsonValue } from "./body";
import { withDeadline } from "./deadline";
import { ApiError, isConnectionLost } from "./errors";
import { answerObserver, logServerError } from "./observe";
import { problemResponse, siteOrigin, toApiError } from "./problem";
import { parseOrThrow, queryObject } from "./validate";

export type RouteContext<B, Q> = {
  req: Request;
  url: URL;
  /** The primary: every write, and every read that must see this request's own writes. */
  db: Db;
  /**
   * The read handle (DATABASE_READ_URL: a healthy replica, else the primary; without it, `db`):
   * for reads that may be up to CAPDEX_READ_MAX_LAG_MS old. On the retry of a read-only handler it
   * is the primary.
   */
  read: Db;
  principal: Principal;
  body: B;
  query: Q;
  params: Record<string, string>;
  requestId: string;
  origin: string;
};

type RouteOptions<BS extends z.ZodType | undefined, QS extends z.ZodType | undefined> = {
  /** Name of the operation in metrics and logs, e.g. "POST /discover" (default "other"). */
  operation?: string;
  /** Rate-limit policy of the operation (lib/ratelimit/policies.ts). */
  policy?: PolicyName;
  body?: BS;
  query?: QS;
  /** Status of a successful plain-object answer (default 200). */
  status?: number;
  /** Longest the operation may take before it answers 503 `unavailable` (default REQUEST_DEADLINE_MS). */
  deadlineMs?: number;
  /**
   * The handler only reads (GET handlers always count as such): when its database connection is cut
   * under it (a restart, a terminated backend), it runs once more, on a fresh connection, with
   * `read` the primary (a replica that failed a query is already out of rotation).
   */
  readOnly?: boolean;
  handler: (
    ctx: RouteContext<BS extends z.ZodType ? z.output<BS> : undefined, QS extends z.ZodType ? z.output<QS> : undefined>,
  ) => Promise<unknown> | unknown;
};

export type RouteHandler = (req: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * No API request waits longer than this for its answer: a query stuck behind a lock, a paused or
 * saturated database, a pool whose connections all hang, answer 503 `unavailable` with Retry-After
 * instead of holding the caller (and its connection) until the database comes back. Statements
 * themselves are bounded on the server too (lib/db/client.ts), and freed when they end there.
 */
export const REQUEST_DEADLINE_MS = Number(process.env.CAPDEX_REQUEST_DEADLINE_MS) > 0 ? Number(process.env.CAPDEX_REQUEST_DEADLINE_MS) : 8_000;

function deadlineError(ms: number): ApiError {
  return new ApiError("unavailable", `The request did not finish within ${ms / 1000} s (the database or a dependency is slow or unreachable); try again shortly.`, {
    headers: { "Retry-After": "5" },
  });
}

/**
 * Resolves in the event loop's next check phase. Every API answer starts with this: answered within
 * the I/O callback its request arrived in, a request cost 30-50% more server CPU than one answered a
 * turn later (Node 24, Next 16; `npm run bench`, docs/benchmarks.md "The event-loop hop"): discover
 * 0.72 -> 0.55 ms a request, health 0.49 -> 0.33 ms. Where an answer already waits on I/O first
 * (the rate limiter's counter), the hop changed nothing measurable.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export function route<BS extends z.ZodType | undefined = undefined, QS extends z.ZodType | undefined = undefined>(
  options: RouteOptions<BS, QS>,
): RouteHandler {
  const operation = options.operation ?? "other";
  const answered = answerObserver(operation);
  const deadlineMs = options.deadlineMs ?? REQUEST_DEADLINE_MS;
  return async (req, context) => {
    const started = performance.now();
    await nextTurn();
    const requestId = requestIdOf(req);
    const url = new URL(req.url);
    const origin = siteOrigin(url.origin);
    let limitHeaders: Record<string, string> = {};
    let principal: Principal | undefined;
    try {
      // The late answer of an operation past its deadline is dropped, its error included.
      const response = await withDeadline(answer(), deadlineMs, () => deadlineError(deadlineMs));
      answered(requestId, response.status, started, principal);
      return response;
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) logServerError(requestId, operation, apiError.status, err);
      answered(requestId, apiError.status, started, principal);
      return problemResponse(apiError, requestId, origin, limitHeaders);
    }

    async function answer(): Promise<Response> {
      const db = await getDb();
      const read = await getReadDb();
      const caller = await resolvePrincipal(req, db, url);
      principal = caller;
      if (options.policy) {
        const limit = await checkRateLimit(db, options.policy, caller);
        limitHeaders = limit.headers;
        if (!limit.allowed) throw limit.error;
      }
      const rawQuery = queryObject(url);
      checkJsonValue(rawQuery);
      const query = options.query ? parseOrThrow(options.query, rawQuery) : undefined;
      const body = options.body ? parseOrThrow(options.body, await readJsonBody(req)) : undefined;
      const rawParams = context?.params ? await context.params : {};
      const params = Object.fromEntries(
        Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const run = (readDb: Db) =>
        options.handler({
          req,
          url,
          db,
          read: readDb,
          principal: caller,
          body: body as never,
          query: query as never,
          params,
          requestId,
          origin,
        });
      let result: unknown;
      try {
        result = await run(read);
      } catch (err) {
        if (!((options.readOnly || req.method === "GET") && isConnectionLost(err))) throw err;
        result = await run(db);
      }
      if (!(result instanceof Response)) {
        // A plain answer gets all its headers in one go: cheaper than setting them one by one on
        // the Response afterwards, and this is the path of every hot operation.
        return json(result, options.status ?? 200, { "X-Request-Id": requestId, ...limitHeaders });
      }
      result.headers.set("X-Request-Id", requestId);
      for (const [k, v] of Object.entries(limitHeaders)) result.headers.set(k, v);
      return result;
    }
  };
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

/** A JSON answer; `headers` may replace Content-Type or Cache-Control (default no-store), in any case, and add others. */
export function json(data: unknown, status = 200, headers?: Record<string, string>): Response {
  const all: Record<string, string> = { ...JSON_HEADERS };
  // Header names are case-insensitive: a caller's "cache-control" replaces the default rather than
  // being sent beside it.
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === "content-type") delete all["Content-Type"];
    else if (lower === "cache-control") delete all["Cache-Control"];
    all[name] = headers[name];
  }
  return new Response(JSON.stringify(data), { status, headers: all });
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Every method a route file exports: the given handlers, and problem+json 405 with Allow for the rest
 * (Next's own 405 has neither a body nor an Allow header).
 */
export function methods(handlers: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allowed = METHODS.filter((m) => handlers[m]);
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const answered = answerObserver("other");
  const notAllowed: RouteHandler = async (req) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    answered(requestId, 405, started, undefined);
    const err = new ApiError("method_not_allowed", `${req.method} is not allowed here; use ${allowed.join(" or ")}.`, {
      headers: { Allow: allow },
    });
    return problemResponse(err, requestId, siteOrigin(new URL(req.url).origin));
  };
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, RouteHandler>;
}
