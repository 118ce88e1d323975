// Reading bazaar declarations (v2 and v1) into calls, and showing a call as a parameter table,
// a curl and a line of text; the wizard's optional call fields.
import { describe, expect, it } from "vitest";
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { callParameters, curlForCall, describeCallLine } from "@/lib/discovery/call";
import { declarationOfSubmitted, MAX_DECLARATION_BYTES, readDeclarationV1, readDeclarationV2 } from "@/lib/probes/declaration";
import { callOfForm } from "@/lib/portal/wizard";
import type { EndpointCall } from "@/lib/schemas/call";

const at = "2026-01-01T00:00:00.000Z";

/** What the resource server's bazaar extension does before answering: the route's method goes into info. */
function enriched(ext: ReturnType<typeof declareDiscoveryExtension>, method = "GET") {
  ((ext.bazaar.info as { input: Record<string, unknown> }).input).method = method;
  return ext;
}

describe("reading a declaration", () => {
  it("takes a valid version 2 declaration and its query parameters' schema", () => {
    const ext = enriched(declareDiscoveryExtension({ input: { city: "Oslo" }, inputSchema: { properties: { city: { type: "string" } }, required: ["city"] }, output: { example: { t: 1 } } }));
    const r = readDeclarationV2(ext, "GET");
    expect(r).toMatchObject({ status: "valid", call: { method: "GET", input: { kind: "query", example: { city: "Oslo" }, schema: { required: ["city"] } }, output: { type: "json", example: { t: 1 } } } });
  });

  it("is absent without extensions.bazaar, invalid when info breaks its schema, ignored when too large", () => {
    expect(readDeclarationV2(undefined, "GET")).toEqual({ status: "absent" });
    expect(readDeclarationV2({ other: {} }, "GET")).toEqual({ status: "absent" });
    expect(readDeclarationV2({ bazaar: "yes" }, "GET")).toMatchObject({ status: "rejected", reason: "declaration_invalid" });
    const ext = enriched(declareDiscoveryExtension({ input: { city: "Oslo" }, inputSchema: { properties: { city: { type: "number" } } } }));
    expect(readDeclarationV2(ext, "GET")).toMatchObject({ status: "rejected", reason: "declaration_invalid", problem: expect.stringContaining("city") });
    const big = enriched(declareDiscoveryExtension({ input: { blob: "x".repeat(MAX_DECLARATION_BYTES) } }));
    expect(readDeclarationV2(big, "GET")).toMatchObject({ status: "rejected", reason: "declaration_too_large" });
  });

  it("refuses schemas with external references (never fetched)", () => {
    const ext = enriched(declareDiscoveryExtension({ input: { city: "Oslo" }, inputSchema: { properties: { city: { $ref: "https://evil.example/s.json" } } } }));
    expect(readDeclarationV2(ext, "GET")).toMatchObject({ status: "rejected", reason: "declaration_invalid", problem: expect.stringContaining("external") });
  });

  it("reads a version 1 outputSchema through the official extractor", () => {
    const req = {
      scheme: "exact", network: "base", maxAmountRequired: "1000", resource: "https://a.example/x", description: "d", payTo: "0x1", maxTimeoutSeconds: 60, asset: "0x2",
      outputSchema: { input: { type: "http", method: "POST", bodyType: "json", body: { q: "hi" } }, output: { answer: "yo" } },
    };
    expect(readDeclarationV1(req as never, "POST")).toMatchObject({ status: "valid", call: { method: "POST", input: { kind: "body", body_type: "json", example: { q: "hi" } }, output: { example: { answer: "yo" } } } });
    expect(readDeclarationV1({ ...req, outputSchema: null } as never, "POST")).toEqual({ status: "absent" });
  });

  it("checks a submitted description like a declaration", () => {
    expect(declarationOfSubmitted({ input: { kind: "query", example: { city: "Oslo" }, schema: { properties: { city: { type: "string" } } } } }, "GET")).toMatchObject({ ok: true, call: { input: { kind: "query" } } });
    expect(declarationOfSubmitted({ input: { kind: "query", example: { city: 1 }, schema: { properties: { city: { type: "string" } } } } }, "GET")).toMatchObject({ ok: false });
    expect(declarationOfSubmitted({ input: { kind: "body", example: {} } }, "GET")).toMatchObject({ ok: false });
  });
});

describe("showing a call", () => {
  const query: EndpointCall = {
    source: "declared",
    method: "GET",
    input: { kind: "query", example: { city: "Oslo", days: 3 }, schema: { properties: { days: { type: "integer" }, city: { type: "string", description: "City" } }, required: ["city"] } },
    output: { type: "json", example: { ok: true } },
    updated_at: at,
  };

  it("lists parameters, required first, with types from the schema", () => {
    expect(callParameters(query)).toEqual([
      { name: "city", type: "string", required: true, description: "City", example: "Oslo" },
      { name: "days", type: "integer", required: false, description: null, example: 3 },
    ]);
  });

  it("writes a curl with the example, quoted for the shell", () => {
    expect(curlForCall("https://a.example/w?key=1", query)).toBe("curl -s 'https://a.example/w?key=1&city=Oslo&days=3'");
    const body: EndpointCall = { source: "submitted", method: "POST", input: { kind: "body", body_type: "json", example: { text: "it's" } }, updated_at: at };
    expect(curlForCall("https://a.example/t", body)).toBe(`curl -s -X POST 'https://a.example/t' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"text":"it'\\''s"}'`);
    const mcp: EndpointCall = { source: "declared", method: "POST", input: { kind: "mcp", tool: "look_up", example: { id: 1 } }, updated_at: at };
    expect(curlForCall("https://a.example/mcp", mcp)).toContain('"method":"tools/call","params":{"name":"look_up","arguments":{"id":1}}');
  });

  it("says it in one line for language models", () => {
    expect(describeCallLine(query)).toBe('call GET with query parameters city (string, required), days (integer), e.g. {"city":"Oslo","days":3}; returns json, e.g. {"ok":true} (declared)');
  });
});

describe("the wizard's call fields", () => {
  it("are optional, and become a query or body description by method", () => {
    expect(callOfForm({ method: "GET" })).toEqual({ call: null, errors: {} });
    expect(callOfForm({ method: "GET", call_input_example: '{"city":"Oslo"}', call_output_example: '{"t":1}' }).call).toEqual({
      input: { kind: "query", example: { city: "Oslo" } },
      output: { type: "json", example: { t: 1 } },
    });
    expect(callOfForm({ method: "POST", call_input_example: '{"q":"x"}' }).call).toEqual({ input: { kind: "body", body_type: "json", example: { q: "x" } } });
  });

  it("say which field is not JSON, or contradicts its schema", () => {
    expect(callOfForm({ method: "GET", call_input_example: "{city:" }).errors).toEqual({ call_input_example: "This is not valid JSON." });
    expect(callOfForm({ method: "GET", call_output_example: "[1]" }).errors).toHaveProperty("call_output_example");
    const bad = callOfForm({ method: "GET", call_input_example: '{"city":1}', call_input_schema: '{"properties":{"city":{"type":"string"}}}' });
    expect(bad.errors.call_input_schema).toContain("city");
  });
});
