import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/schemas/descriptor";

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument("http://localhost:3000") as {
    openapi: string;
    info: { title: string; version: string; license?: { name: string; identifier?: string; url?: string } };
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };

  it("is OpenAPI 3.1 and covers every operation of the descriptor", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const op of Object.keys(OPERATIONS)) {
      const [method, path] = op.split(" ");
      expect(doc.paths[path]?.[method.toLowerCase()], op).toBeDefined();
    }
  });

  it("gives every operation its 4xx answers, as problem+json", () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const clientErrors = Object.keys(op.responses).filter((s) => s.startsWith("4"));
        expect(clientErrors.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const s of clientErrors) expect(JSON.stringify(op.responses[s]), `${method} ${path} ${s}`).toContain("application/problem+json");
      }
    }
  });

  it("names the API's licence in info, as package.json does", async () => {
    const pkg = (await import("@/package.json")).default as { license: string };
    expect(doc.info.license?.name).toMatch(new RegExp(`^${pkg.license}\\b`));
    // OpenAPI 3.1: identifier (SPDX) and url exclude each other.
    expect(doc.info.license?.identifier && doc.info.license?.url).toBeFalsy();
  });

  it("has every $ref resolvable inside the document", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      expect(ref.startsWith("#/components/schemas/")).toBe(true);
      expect(doc.components.schemas[ref.slice("#/components/schemas/".length)], ref).toBeDefined();
    }
  });

  it("describes discover's request strictly (unknown fields are errors)", () => {
    const schema = doc.components.schemas.DiscoverRequest as { additionalProperties: boolean; properties: Record<string, unknown> };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["capability_id", "intent", "constraints", "preferences"]));
  });
});
