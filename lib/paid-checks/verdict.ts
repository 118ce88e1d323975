// Judging a paid test call (docs/paid-checks.md): pure functions of what happened, so every rule is
// unit-tested. `delivered`: paid (or asked nothing), answered 2xx with the declared type and a body
// that validates against the declared output schema; `wrong_output`: paid, 2xx, but the type, the
// body or the schema does not fit; `paid_not_delivered`: the payment settled but no 2xx answer came
// (an error status, a timeout, a dropped connection); `unpaid_error`: nothing was paid (the call or
// its 402 failed first, or the payment was refused unsettled).
import { z } from "zod";

export const PAID_CHECK_VERDICTS = ["delivered", "wrong_output", "paid_not_delivered", "unpaid_error"] as const;
export type PaidCheckVerdict = (typeof PAID_CHECK_VERDICTS)[number];

/** Why a verdict was given (stored in paid_checks.detail.reason; documented in docs/paid-checks.md). */
export type VerdictReason =
  | "ok"
  | "wrong_content_type"
  | "unparseable_body"
  | "schema_mismatch"
  | "error_status"
  | "timeout"
  | "connection_failed"
  | "payment_refused"
  | "unsettled_error"
  | "no_challenge"
  | "challenge_unusable"
  | "no_budgeted_offer"
  | "over_budget"
  | "payment_not_created"
  | "private_address"
  | "abandoned";

export type DeclaredOutput = { type: string; schema?: Record<string, unknown> } | null | undefined;

export type CallFacts = {
  /** A payment was signed and sent with the call. */
  paymentSent: boolean;
  /** The payment settled (PAYMENT-RESPONSE said so, or the chain shows the authorisation used); null: unknown. */
  settled: boolean | null;
  /** The final answer's status; null when none came (timeout, connection trouble). */
  status: number | null;
  /** Why no answer came. */
  error?: "timeout" | "connection_failed" | null;
  contentType: string | null;
  body: string;
  /** The body was longer than was read: the schema is not checked. */
  truncated: boolean;
  output: DeclaredOutput;
};

export type Judgement = { verdict: PaidCheckVerdict; reason: VerdictReason; problem?: string };

/** The media type without parameters, lower-case ("application/json; charset=utf-8" -> "application/json"). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Whether a Content-Type fits a declared output type: `json` (any json or +json type), `text`
 * (text/*), a top-level type (`image`: image/*), or a full media type (compared without parameters).
 */
export function contentTypeFits(declared: string, contentType: string | null): boolean {
  const want = declared.trim().toLowerCase();
  const got = mediaType(contentType);
  if (!want) return true;
  if (want === "json") return got === "application/json" || got.endsWith("+json") || got === "text/json";
  if (!got) return false;
  if (want.includes("/")) {
    const w = mediaType(want);
    if (w === got) return true;
    return w === "application/json" && got.endsWith("+json");
  }
  if (want === "text") return got.startsWith("text/");
  return got.startsWith(`${want}/`);
}

const isJsonType = (declared: string | undefined, contentType: string | null) => {
  const got = mediaType(contentType);
  return declared?.toLowerCase() === "json" || got === "application/json" || got.endsWith("+json");
};

/** Checks a parsed body against a JSON Schema; null when it fits or the schema cannot be used. */
export function schemaProblem(schema: Record<string, unknown>, value: unknown): { problem: string } | { unusable: string } | null {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as never) as z.ZodType;
  } catch (err) {
    return { unusable: err instanceof Error ? err.message.slice(0, 200) : "unusable schema" };
  }
  const r = validator.safeParse(value);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return { problem: `${issue.path.length ? `/${issue.path.join("/")}` : "(root)"}: ${issue.message}`.slice(0, 300) };
}

/** Judges the output of a 2xx answer. */
export function judgeOutput(f: Pick<CallFacts, "contentType" | "body" | "truncated" | "output">): Judgement & { schemaChecked: boolean } {
  const out = f.output ?? null;
  if (out?.type && !contentTypeFits(out.type, f.contentType)) {
    return { verdict: "wrong_output", reason: "wrong_content_type", problem: `declared ${out.type.slice(0, 50)}, got ${mediaType(f.contentType).slice(0, 100) || "none"}`, schemaChecked: false };
  }
  if (f.truncated) return { verdict: "delivered", reason: "ok", schemaChecked: false };
  if (!isJsonType(out?.type, f.contentType)) return { verdict: "delivered", reason: "ok", schemaChecked: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(f.body);
  } catch {
    return { verdict: "wrong_output", reason: "unparseable_body", problem: "the body is not JSON", schemaChecked: false };
  }
  if (!out?.schema) return { verdict: "delivered", reason: "ok", schemaChecked: false };
  const p = schemaProblem(out.schema, parsed);
  if (p && "problem" in p) return { verdict: "wrong_output", reason: "schema_mismatch", problem: p.problem, schemaChecked: true };
  return { verdict: "delivered", reason: "ok", schemaChecked: !p };
}

/** The verdict of a call made (the 402 was usable and a payment may have been sent). */
export function judgeCall(f: CallFacts): Judgement {
  const ok = f.status !== null && f.status >= 200 && f.status < 300;
  if (ok) {
    const j = judgeOutput(f);
    return { verdict: j.verdict, reason: j.reason, ...(j.problem ? { problem: j.problem } : {}) };
  }
  const why: VerdictReason = f.status === null ? (f.error ?? "connection_failed") : "error_status";
  if (!f.paymentSent) return { verdict: "unpaid_error", reason: why };
  if (f.settled) return { verdict: "paid_not_delivered", reason: why };
  // Signed but not settled: the seller refused the payment (another 402) or failed before taking it.
  return { verdict: "unpaid_error", reason: f.status === 402 ? "payment_refused" : "unsettled_error" };
}

/** Whether the verdict is a failure to deliver what was paid for (weighs on the ranking). */
export function isDeliveryFailure(verdict: string | null | undefined): boolean {
  return verdict === "paid_not_delivered" || verdict === "wrong_output";
}
