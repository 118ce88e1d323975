import { describe, expect, it } from "vitest";
import { createTestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { route } from "@/lib/http/route";

// What postgres.js throws when the connection a query ran on is cut (the server restarted, or ended
// that backend: 57P01), as Drizzle wraps it.
function cut(code: string) {
  return Object.assign(new Error("Failed query: select ..."), { cause: Object.assign(new Error(`write ${code}`), { code }) });
}

/** A handler whose first `failures` runs fail with `err`; counts its runs. */
function flaky(err: () => Error, failures = 1) {
  const state = { runs: 0 };
  const handler = () => {
    state.runs++;
    if (state.runs <= failures) throw err();
    return { ok: true, runs: state.runs };
  };
  return { state, handler };
}

describe("a read whose database connection is cut under it", async () => {
  await createTestDb({ seed: "none" });

  it("runs once more and answers, for GET and for routes marked read-only", async () => {
    for (const code of ["CONNECTION_CLOSED", "ECONNRESET", "57P01"]) {
      const get = flaky(() => cut(code));
      const res = await call(route({ handler: get.handler }), "/api/x");
      expect(res.status).toBe(200);
      expect(get.state.runs).toBe(2);
      const post = flaky(() => cut(code));
      const res2 = await call(route({ readOnly: true, handler: post.handler }), "/api/x", { method: "POST", json: {} });
      expect(res2.status).toBe(200);
      expect(post.state.runs).toBe(2);
    }
  });

  it("is not retried for writes, nor more than once, nor when the database refuses connections", async () => {
    const write = flaky(() => cut("CONNECTION_CLOSED"));
    const res = await call(route({ handler: write.handler }), "/api/x", { method: "POST", json: {} });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
    expect(write.state.runs).toBe(1);

    const twice = flaky(() => cut("CONNECTION_CLOSED"), 2);
    expect((await call(route({ handler: twice.handler }), "/api/x")).status).toBe(503);
    expect(twice.state.runs).toBe(2);

    const down = flaky(() => cut("ECONNREFUSED"));
    expect((await call(route({ handler: down.handler }), "/api/x")).status).toBe(503);
    expect(down.state.runs).toBe(1);
  });
});
