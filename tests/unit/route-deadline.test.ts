import { describe, expect, it } from "vitest";
import { createTestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { route } from "@/lib/http/route";

// A dependency that does not answer (a paused database, a lock): the wrapper answers at its deadline.
const stuck = route({ deadlineMs: 200, handler: () => new Promise((r) => setTimeout(() => r({ late: true }), 3_000)) });
const quick = route({ deadlineMs: 200, handler: () => ({ ok: true }) });

describe("the route wrapper's deadline", async () => {
  await createTestDb({ seed: "none" });

  it("answers 503 unavailable with Retry-After when the operation outlasts its deadline", async () => {
    const t0 = Date.now();
    const res = await call(stuck, "/api/x");
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe("unavailable");
  });

  it("answers an operation within its deadline as usual", async () => {
    const res = await call(quick, "/api/x");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });
});
