// The problem builder: extension members never replace a standard member (RFC 9457 section 3.2).
import { describe, expect, it } from "vitest";
import { ApiError, RESERVED_PROBLEM_MEMBERS, type ProblemExtras } from "@/lib/http/errors";
import { problemBody } from "@/lib/http/problem";

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
