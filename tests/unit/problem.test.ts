// The problem builder: extension members never replace a standard member (RFC 9457 section 3.2).
import { describe, expect, it } from "vitest";
import { ApiError, RESERVED_PROBLEM_MEMBERS, type ProblemExtras } from "@/lib/http/errors";
import { problemBody, toApiError } from "@/lib/http/problem";

describe("problemBody", () => {
  it("keeps type, title, status, detail, instance, code, request_id and errors whatever the extras say", () => {
    const hostile = Object.fromEntries(RESERVED_PROBLEM_MEMBERS.map((k) => [k, `from extras: ${k}`]));
    const err = new ApiError("verification_failed", "No record.", {
      errors: [{ pointer: "#/id", detail: "here" }],
      extras: { ...hostile, submission_status: "pending_verification", found_records: [] } as unknown as ProblemExtras,
    });
    expect(problemBody(err, "req-12345678", "https://capdex.example")).toEqual({
      type: "https://capdex.example/docs/errors#verification_failed",
      title: "Domain verification failed",
      status: 409,
      detail: "No record.",
      code: "verification_failed",
      request_id: "req-12345678",
      errors: [{ pointer: "#/id", detail: "here" }],
      submission_status: "pending_verification",
      found_records: [],
    });
  });
});

describe("toApiError", () => {
  it("answers a write refused for want of disk space with 503 unavailable and Retry-After, not 500", () => {
    // As Drizzle wraps what PGlite (or Postgres) says when it cannot extend a file.
    const cause = Object.assign(new Error('could not extend file "base/5/16564": No space left on device'), { code: "53100" });
    const err = Object.assign(new Error("Failed query: insert into outcome_reports ..."), { cause });
    const api = toApiError(err);
    expect(api.code).toBe("unavailable");
    expect(api.status).toBe(503);
    expect(api.headers?.["Retry-After"]).toBe("30");
    expect(api.message).toMatch(/disk space/);
    expect(toApiError(new Error("a bug")).code).toBe("internal_error");
  });

  it("answers a query written on a connection the database closed (EPIPE, as it shuts down) with 503, not 500", () => {
    const cause = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    const api = toApiError(Object.assign(new Error('Failed query: select "id" from "endpoints" ...'), { cause }));
    expect(api.status).toBe(503);
    expect(api.code).toBe("unavailable");
    expect(api.headers?.["Retry-After"]).toBe("5");
  });
});
