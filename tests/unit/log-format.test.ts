// What the log shows: an error's code, first line and frames, never a failed query's parameters;
// in a terminal, one readable line per JSON event.
import { describe, expect, it } from "vitest";
import { errorFields } from "@/lib/log";
import { formatLine } from "@/lib/log/pretty";

describe("errorFields", () => {
  it("keeps the first line of a failed query, not its parameters", () => {
    const err = new Error("Failed query: select * from users where email = $1\nparams: someone@example.com", {
      cause: Object.assign(new Error("connection refused\nmore"), { code: "ECONNREFUSED" }),
    });
    const fields = errorFields(err);
    expect(fields).toMatchObject({ error: "Failed query: select * from users where email = $1", cause: "connection refused", cause_code: "ECONNREFUSED" });
    expect(JSON.stringify(fields)).not.toContain("someone@example.com");
    expect((fields.stack as string[]).every((l) => l.startsWith("at "))).toBe(true);
  });
});

describe("the terminal format", () => {
  it("prints a request as operation, status, duration and caller kind", () => {
    const line = JSON.stringify({
      level: "info",
      time: Date.parse("2026-11-24T07:12:03.123Z"),
      pid: 1,
      request_id: "abc-123",
      operation: "POST /discover",
      status: 200,
      duration_ms: 3.2,
      principal: "anonymous",
      msg: "request",
    });
    expect(formatLine(line)).toBe("07:12:03.123 INFO  POST /discover 200 3.2 ms anonymous  req=abc-123\n");
  });

  it("prints other events as their message and fields, and passes non-JSON through", () => {
    const line = JSON.stringify({ level: "warn", time: Date.parse("2026-11-24T07:12:04.002Z"), pid: 1, policy: "submit", msg: "rate-limit store failed" });
    expect(formatLine(line)).toBe("07:12:04.002 WARN  rate-limit store failed  policy=submit\n");
    expect(formatLine("plain text")).toBe("plain text\n");
  });
});
