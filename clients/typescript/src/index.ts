// A small typed client for agents using Capdex: discover endpoints for a need, call them (paying
// with x402 through the caller's own paying fetch), report every outcome, and fall back down the
// ranked list when a call fails. It depends on nothing but fetch; payment is the caller's
// `payingFetch` (see ./x402.ts for @x402/fetch), so the caller's signer never reaches this code.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export type DiscoverRequest = {
  capability_id?: string;
  intent?: string;
  constraints?: { max_price?: number; network?: string; verified_only?: boolean; asset?: string; scheme?: string; max_latency_ms?: number; min_success_rate?: number };
  preferences?: { ranking_preset?: "default" | "reliability" | "speed" | "budget"; limit?: number; weights?: Record<string, number> };
};

export type EndpointCall = {
  source: "declared" | "submitted";
  method: string;
  input: { kind: "query" | "body" | "mcp"; schema?: Record<string, unknown>; example?: unknown; body_type?: string; tool?: string };
  output?: { type: string; example?: unknown; schema?: Record<string, unknown> };
};

export type RankedEndpoint = {
  endpoint_id: string;
  provider_name: string;
  url: string;
  method: string;
  score: number;
  verified: boolean;
  payment: { type: string; price_per_call: number; network: string; networks?: string[]; accepted_assets: string[] };
  observed: { success_rate_7d: number | null; p95_latency_ms: number | null; sample_size_7d: number };
  call?: EndpointCall;
  page: string;
  exclusion_reasons?: string[];
};

export type DiscoverResponse = {
  resolved: { capability_id: string; confidence: number; candidates: Array<{ capability_id: string; confidence: number }> };
  ranked_endpoints: RankedEndpoint[];
  fallback_endpoints: RankedEndpoint[];
  ranking_info: Record<string, unknown>;
  ttl_seconds: number;
  discovery_id: string;
};

export const OUTCOME_FAILURES = ["timeout", "payment_failed", "http_error", "wrong_output", "other"] as const;
export type OutcomeFailure = (typeof OUTCOME_FAILURES)[number];

/** The settlement of a paid call, as the resource server returned it in PAYMENT-RESPONSE. */
export type PaymentEvidence = { network: string; transaction: string; payer?: string };

export type OutcomeReport = {
  endpoint_id: string;
  success: boolean;
  latency_ms?: number;
  status_code?: number;
  discovery_id?: string;
  failure?: OutcomeFailure;
  paid_amount?: number;
  payment?: PaymentEvidence;
};

export type Attempt = {
  endpoint: RankedEndpoint;
  ok: boolean;
  status?: number;
  latency_ms: number;
  failure?: OutcomeFailure;
  error?: string;
  payment?: PaymentEvidence;
  /** What report_outcome answered (null when reporting failed: a lost report never fails the call). */
  report: Record<string, unknown> | null;
};

export type CallResult = {
  ok: boolean;
  /** The successful attempt's answer: parsed JSON when it was JSON, else text. */
  data?: unknown;
  response?: Response;
  endpoint?: RankedEndpoint;
  attempts: Attempt[];
  discovery: DiscoverResponse;
};

export type CapdexClientOptions = {
  /** Where Capdex runs, e.g. https://capdex.example (the API is under /api). */
  baseUrl: string;
  /** An API key (cdx_...): reports with a key weigh in the ranking; anonymous ones are recorded but weigh nothing. */
  apiKey?: string;
  /** The fetch used for Capdex itself (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** The fetch used to call endpoints: wrap it with @x402/fetch to pay (default: `fetch`, which pays nothing). */
  payingFetch?: typeof fetch;
  /** A call slower than this is abandoned and reported as a timeout (default 15 s). */
  timeoutMs?: number;
};

export type CallOptions = {
  /** The input of the call: query parameters, or the JSON body for POST/PUT/PATCH. Default: the endpoint's declared example. */
  input?: Record<string, unknown>;
  /** At most this many endpoints are tried (default 3). */
  maxAttempts?: number;
  /** Judges an answer: false reports `wrong_output` and moves on to the next endpoint. */
  accept?: (data: unknown, response: Response) => boolean | Promise<boolean>;
  /** Try the fallback endpoints (failing or cut off by the limit) after the ranked ones (default true). */
  useFallbacks?: boolean;
};

/** A problem+json answer of Capdex, with its stable code. */
export class CapdexError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly problem: Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${String(problem.detail ?? problem.title ?? "")}`);
    this.name = "CapdexError";
  }
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Reads PAYMENT-RESPONSE (x402 v2; X-PAYMENT-RESPONSE in v1): base64 JSON of the settlement. */
export function paymentEvidenceOf(res: Response): PaymentEvidence | undefined {
  const header = res.headers.get("payment-response") ?? res.headers.get("x-payment-response");
  if (!header) return undefined;
  try {
    const s = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { success?: boolean; transaction?: string; network?: string; payer?: string };
    if (!s.transaction || !s.network) return undefined;
    return { network: s.network, transaction: s.transaction, ...(s.payer ? { payer: s.payer } : {}) };
  } catch {
    return undefined;
  }
}

export class CapdexClient {
  private readonly api: string;
  private readonly fetch: typeof fetch;
  private readonly payingFetch: typeof fetch;
  private readonly timeoutMs: number;
  private acceptedFields: Promise<Set<string> | null> | null = null;

  constructor(private readonly options: CapdexClientOptions) {
    this.api = `${options.baseUrl.replace(/\/+$/, "")}/api`;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.payingFetch = options.payingFetch ?? this.fetch;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private headers(json: boolean): Record<string, string> {
    return { ...(json ? { "content-type": "application/json" } : {}), ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) };
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(`${this.api}${path}`, { method, headers: this.headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) throw new CapdexError(res.status, String(data.code ?? "error"), data);
    return data as T;
  }

  /** POST /api/discover: ranked endpoints for a capability id or an intent in plain words. */
  discover(req: DiscoverRequest): Promise<DiscoverResponse> {
    return this.request("POST", "/discover", req);
  }

  /**
   * The fields report_outcome accepts, from the server's own OpenAPI document (read once), so a
   * report never carries a field this Capdex does not take (older servers have no `payment`).
   */
  private reportFields(): Promise<Set<string> | null> {
    this.acceptedFields ??= this.request<{ components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> } }>("GET", "/openapi.json")
      .then((doc) => {
        const props = doc.components?.schemas?.OutcomeReport?.properties;
        return props ? new Set(Object.keys(props)) : null;
      })
      .catch(() => null);
    return this.acceptedFields;
  }

  /**
   * POST /api/report_outcome, with only the fields the server accepts. Should it still answer 422
   * unknown_field, the report is sent again with the fields its `accepted_fields` lists.
   */
  async reportOutcome(report: OutcomeReport): Promise<Record<string, unknown>> {
    const accepted = await this.reportFields();
    const body = pick(report, accepted);
    try {
      return await this.request("POST", "/report_outcome", body);
    } catch (err) {
      const fields = err instanceof CapdexError && err.code === "unknown_field" ? err.problem.accepted_fields : undefined;
      if (!Array.isArray(fields)) throw err;
      const known = new Set(fields.map(String));
      this.acceptedFields = Promise.resolve(known);
      return this.request("POST", "/report_outcome", pick(report, known));
    }
  }

  /** One call of one endpoint (no report): its input from `input` or the declared example. */
  async callEndpoint(endpoint: RankedEndpoint, input?: Record<string, unknown>): Promise<{ response: Response; latency_ms: number; payment?: PaymentEvidence }> {
    const method = (endpoint.call?.method ?? endpoint.method ?? "GET").toUpperCase();
    const args = input ?? exampleOf(endpoint);
    const url = new URL(endpoint.url);
    const init: RequestInit = { method, signal: AbortSignal.timeout(this.timeoutMs) };
    if (BODY_METHODS.has(method)) {
      init.headers = { "content-type": "application/json" };
      init.body = JSON.stringify(args ?? {});
    } else if (args) {
      for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) url.searchParams.set(k, typeof v === "object" ? JSON.stringify(v) : String(v));
    }
    const started = performance.now();
    const response = await this.payingFetch(url, init);
    return { response, latency_ms: Math.round(performance.now() - started), payment: paymentEvidenceOf(response) };
  }

  /**
   * Discover, then call the best endpoint; on a failure (no answer, timeout, an error status, a 402
   * the paying fetch could not settle, an answer `accept` refuses) report it and try the next one.
   * Every attempt is reported with its latency, status, failure kind and payment evidence.
   */
  async call(req: DiscoverRequest, options: CallOptions = {}): Promise<CallResult> {
    const discovery = await this.discover(req);
    const list = [...discovery.ranked_endpoints, ...(options.useFallbacks === false ? [] : discovery.fallback_endpoints)];
    const attempts: Attempt[] = [];
    for (const endpoint of list.slice(0, options.maxAttempts ?? 3)) {
      const started = performance.now();
      let attempt: Omit<Attempt, "report">;
      let data: unknown;
      let response: Response | undefined;
      try {
        const r = await this.callEndpoint(endpoint, options.input);
        response = r.response;
        data = await readBody(r.response);
        if (!r.response.ok) {
          attempt = { endpoint, ok: false, status: r.response.status, latency_ms: r.latency_ms, failure: r.response.status === 402 ? "payment_failed" : "http_error", payment: r.payment };
        } else if (options.accept && !(await options.accept(data, r.response))) {
          attempt = { endpoint, ok: false, status: r.response.status, latency_ms: r.latency_ms, failure: "wrong_output", payment: r.payment };
        } else {
          attempt = { endpoint, ok: true, status: r.response.status, latency_ms: r.latency_ms, payment: r.payment };
        }
      } catch (err) {
        const latency = Math.round(performance.now() - started);
        const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
        // fetch itself fails with a TypeError ("fetch failed": no connection, DNS, TLS); anything else a
        // paying fetch throws is @x402/fetch failing to pay (no scheme for the network, signer refused...).
        const network = err instanceof TypeError;
        const payment = !timeout && !network && (this.options.payingFetch !== undefined || (err instanceof Error && /payment|x402|402/i.test(err.message)));
        attempt = { endpoint, ok: false, latency_ms: latency, failure: timeout ? "timeout" : payment ? "payment_failed" : "other", error: err instanceof Error ? err.message : String(err) };
      }
      const report = await this.reportOutcome({
        endpoint_id: endpoint.endpoint_id,
        discovery_id: discovery.discovery_id,
        success: attempt.ok,
        latency_ms: attempt.latency_ms,
        ...(attempt.status ? { status_code: attempt.status } : {}),
        ...(attempt.failure ? { failure: attempt.failure } : {}),
        paid_amount: attempt.payment ? endpoint.payment.price_per_call : 0,
        ...(attempt.payment ? { payment: attempt.payment } : {}),
      }).catch(() => null);
      attempts.push({ ...attempt, report });
      if (attempt.ok) return { ok: true, data, response, endpoint, attempts, discovery };
    }
    return { ok: false, attempts, discovery };
  }
}

function pick(report: OutcomeReport, accepted: Set<string> | null): Record<string, unknown> {
  // Without the server's list, only the fields of every version of report_outcome.
  const allowed = accepted ?? new Set(["endpoint_id", "success", "latency_ms", "status_code", "discovery_id"]);
  return Object.fromEntries(Object.entries(report).filter(([k, v]) => v !== undefined && allowed.has(k)));
}

function exampleOf(endpoint: RankedEndpoint): Record<string, unknown> | undefined {
  const ex = endpoint.call?.input?.example;
  return ex && typeof ex === "object" && !Array.isArray(ex) ? (ex as Record<string, unknown>) : undefined;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get("content-type") ?? "").includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
