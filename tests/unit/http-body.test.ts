import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { json, route } from "@/lib/http/route";
import { discoverBodySchema } from "@/lib/schemas/discover";

// A handler that echoes what the wrapper parsed, to pin down the wrapper itself.
const echo = route({ body: discoverBodySchema, handler: ({ body }) => ({ got: body }) });

describe("the route wrapper's body handling", async () => {
  await createTestDb({ seed: "none" });
  const post = (body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
    call(echo, "/api/x", { method: "POST", body, headers });

  it("parses a valid body strictly", async () => {
    const res = await post(JSON.stringify({ capability_id: "weather.current", constraints: { network: "EIP155:8453" } }));
    expect(res.status).toBe(200);
    expect(res.body.got).toEqual({ capability_id: "weather.current", constraints: { network: "base" } });
  });

  it.each([
    ["null", 422, "validation_failed"],
    ["[]", 422, "validation_failed"],
    ['"x"', 422, "validation_failed"],
    ['{"capability_id": "weather.cur', 400, "invalid_json"],
    ["", 400, "invalid_json"],
    ['{"__proto__": {"x": 1}, "capability_id": "weather.current"}', 422, "unknown_field"],
    ['{"capability_id": "weather.current", "max_prize": 1}', 422, "unknown_field"],
    ['{"intent": "a\\u0000b"}', 422, "validation_failed"],
    ['{"intent": "a\\ud800b"}', 422, "validation_failed"],
    ["[".repeat(5000) + "]".repeat(5000), 422, "validation_failed"],
  ])("answers %s with %i %s", async (body, status, code) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe(code);
    expect(res.body.status).toBe(status);
  });

  it("points at the unknown field", async () => {
    const res = await post(JSON.stringify({ capability_id: "weather.current", constraints: { max_prize: 1 } }));
    expect(res.body.errors).toEqual([{ pointer: "#/constraints/max_prize", detail: 'Unknown field "max_prize".' }]);
  });

  it("points at the string Postgres could not store, and at the depth limit", async () => {
    const nul = await post('{"constraints": {"network": "base"}, "preferences": {"weights": [1, "x\\u0000"]}}');
    expect(nul.body.errors).toEqual([{ pointer: "#/preferences/weights/1", detail: "This value contains a NUL character or an unpaired surrogate." }]);
    const key = await post('{"constraints": {"a\\udc00": 1}}');
    expect(key.body.errors).toEqual([{ pointer: "#/constraints", detail: "This value has a key with a NUL character or an unpaired surrogate." }]);
    const deep = await post('{"a": ' + "[".repeat(40) + "]".repeat(40) + "}");
    expect(deep.body.errors).toEqual([{ pointer: "#/a" + "/0".repeat(31), detail: "Nested too deeply." }]);
  });

  it("refuses text/plain with 415", async () => {
    const res = await post("{}", { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_media_type");
  });

  it("refuses 10 MB declared in Content-Length and streamed without it, with 413", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const declared = await post(JSON.stringify({ intent: big }), { "content-type": "application/json", "content-length": String(big.length + 12) });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 160; i++) c.enqueue(new TextEncoder().encode("x".repeat(65536)));
        c.close();
      },
    });
    const req = new Request("http://localhost:3000/api/x", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const res = await echo(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
  });

  it("never leaks internals in a 500", async () => {
    const boom = route({ body: z.object({}), handler: () => { throw new Error("SELECT secret FROM pg_shadow"); } });
    const res = await call(boom, "/api/x", { method: "POST", json: {} });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe("internal_error");
    expect(JSON.stringify(res.body)).not.toContain("pg_shadow");
  });
});

describe("json answers", () => {
  it("default to no-store, and a caller's Cache-Control replaces it in any letter case", async () => {
    expect(json({ a: 1 }).headers.get("cache-control")).toBe("no-store");
    for (const name of ["Cache-Control", "cache-control", "CACHE-CONTROL"]) {
      const res = json({ a: 1 }, 200, { [name]: "public, max-age=60", "X-Request-Id": "abcdefgh" });
      expect(res.headers.get("cache-control")).toBe("public, max-age=60");
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("x-request-id")).toBe("abcdefgh");
      expect(await res.json()).toEqual({ a: 1 });
    }
  });
});
