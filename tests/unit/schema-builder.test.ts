import { describe, expect, it } from "vitest";
import { buildSchema, rowsOfForm, rowsOfSchema, type FieldRow } from "@/lib/portal/schema-builder";
import { declarationOfSubmitted } from "@/lib/probes/declaration";

const row = (over: Partial<FieldRow>): FieldRow => ({ name: "", type: "string", required: false, description: "", example: "", ...over });

describe("the call form's schema builder", () => {
  it("builds an object schema with types, descriptions, required fields and a typed example", () => {
    const out = buildSchema([
      row({ name: "city", required: true, description: "City name", example: "Oslo" }),
      row({ name: "days", type: "integer", example: "3" }),
      row({ name: "ratio", type: "number", example: "0.5" }),
      row({ name: "metric", type: "boolean", example: "true" }),
      row({ name: "" }),
    ]);
    expect(out).toEqual({
      ok: true,
      built: {
        schema: {
          type: "object",
          properties: { city: { type: "string", description: "City name" }, days: { type: "integer" }, ratio: { type: "number" }, metric: { type: "boolean" } },
          required: ["city"],
        },
        example: { city: "Oslo", days: 3, ratio: 0.5, metric: true },
      },
    });
  });

  it("leaves required out when nothing is required, and gives an empty schema for no rows", () => {
    expect(buildSchema([row({ name: "q" })])).toEqual({ ok: true, built: { schema: { type: "object", properties: { q: { type: "string" } } }, example: {} } });
    expect(buildSchema([])).toEqual({ ok: true, built: { schema: { type: "object", properties: {} }, example: {} } });
  });

  it("reports each bad row with its index and field", () => {
    const out = buildSchema([
      row({ name: "1bad" }),
      row({ name: "ok" }),
      row({ name: "ok" }),
      row({ name: "n", type: "integer", example: "1.5" }),
      row({ name: "b", type: "boolean", example: "yes" }),
      row({ name: "x", type: "object" as never }),
      row({ name: "f", type: "number", example: "abc" }),
    ]);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errors.map((e) => [e.row, e.field])).toEqual([
      [0, "name"],
      [2, "name"],
      [3, "example"],
      [4, "example"],
      [5, "type"],
      [6, "example"],
    ]);
  });

  it("builds what the official bazaar validator accepts as a submitted call", () => {
    const out = buildSchema([row({ name: "city", required: true, example: "Oslo" })]);
    if (!out.ok) throw new Error("not built");
    const checked = declarationOfSubmitted({ input: { kind: "query", schema: out.built.schema, example: out.built.example } }, "GET");
    expect(checked.ok).toBe(true);
  });

  it("turns a flat schema back into rows, and refuses richer ones", () => {
    const rows = [row({ name: "city", required: true, description: "City", example: "Oslo" }), row({ name: "days", type: "integer", example: "3" })];
    const out = buildSchema(rows);
    if (!out.ok) throw new Error("not built");
    expect(rowsOfSchema(out.built.schema, out.built.example)).toEqual(rows);
    expect(rowsOfSchema(undefined)).toEqual([]);
    expect(rowsOfSchema({ type: "object", properties: { a: { type: "string", enum: ["x"] } } })).toBeNull();
    expect(rowsOfSchema({ type: "object", properties: { a: { type: "array" } } })).toBeNull();
    expect(rowsOfSchema({ type: "object", properties: {}, additionalProperties: false })).toBeNull();
    expect(rowsOfSchema({ type: "object", properties: { a: { type: "string" } } }, { a: { nested: 1 } })).toBeNull();
    expect(rowsOfSchema("nope")).toBeNull();
  });

  it("reads the rows of a posted form", () => {
    const form = new FormData();
    form.set("field_0_name", "city");
    form.set("field_0_type", "string");
    form.set("field_0_required", "on");
    form.set("field_0_example", "Oslo");
    form.set("field_2_name", "days");
    form.set("field_2_type", "integer");
    expect(rowsOfForm(form)).toEqual([
      { name: "city", type: "string", required: true, description: "", example: "Oslo" },
      { name: "days", type: "integer", required: false, description: "", example: "" },
    ]);
  });
});
