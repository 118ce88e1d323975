// The call declaration form of the provider dashboard: simple field rows (name, type, required,
// description, example) become the JSON Schema and the example of a submitted call, and a schema
// made of such fields turns back into rows for editing. Anything richer is edited as raw JSON.

export const FIELD_TYPES = ["string", "number", "integer", "boolean"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type FieldRow = { name: string; type: FieldType; required: boolean; description: string; example: string };

export type BuiltSchema = { schema: Record<string, unknown>; example: Record<string, unknown> };
export type RowError = { row: number; field: "name" | "type" | "example"; detail: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** The example text of a row as a value of the row's type, or an error. */
function exampleValue(row: FieldRow): { ok: true; value: unknown } | { ok: false; detail: string } | null {
  const text = row.example.trim();
  if (!text) return null;
  switch (row.type) {
    case "string":
      return { ok: true, value: row.example };
    case "number": {
      const n = Number(text);
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, detail: "Not a number." };
    }
    case "integer": {
      const n = Number(text);
      return Number.isInteger(n) ? { ok: true, value: n } : { ok: false, detail: "Not a whole number." };
    }
    case "boolean":
      if (text === "true" || text === "false") return { ok: true, value: text === "true" };
      return { ok: false, detail: "Use true or false." };
  }
}

/**
 * Rows -> `{ schema, example }`. Rows with an empty name are ignored (the blank rows of the form);
 * names must be unique identifiers, examples must fit their type.
 */
export function buildSchema(rows: FieldRow[]): { ok: true; built: BuiltSchema } | { ok: false; errors: RowError[] } {
  const errors: RowError[] = [];
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const example: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    const name = row.name.trim();
    if (!name) return;
    if (!NAME.test(name)) return void errors.push({ row: i, field: "name", detail: "Letters, digits, _ . - (starting with a letter or _), at most 64." });
    if (name in properties) return void errors.push({ row: i, field: "name", detail: `"${name}" is already a field.` });
    if (!(FIELD_TYPES as readonly string[]).includes(row.type)) return void errors.push({ row: i, field: "type", detail: `Use one of ${FIELD_TYPES.join(", ")}.` });
    const prop: Record<string, unknown> = { type: row.type };
    if (row.description.trim()) prop.description = row.description.trim().slice(0, 300);
    const ex = exampleValue(row);
    if (ex && !ex.ok) return void errors.push({ row: i, field: "example", detail: ex.detail });
    if (ex?.ok) example[name] = ex.value;
    properties[name] = prop;
    if (row.required) required.push(name);
  });
  if (errors.length) return { ok: false, errors };
  const schema: Record<string, unknown> = { type: "object", properties };
  if (required.length) schema.required = required;
  return { ok: true, built: { schema, example } };
}

/** A schema of flat typed fields -> rows (with examples), or null when it holds more than rows can say. */
export function rowsOfSchema(schema: unknown, example: unknown = {}): FieldRow[] | null {
  if (schema === undefined || schema === null) return [];
  if (typeof schema !== "object" || Array.isArray(schema)) return null;
  const s = schema as Record<string, unknown>;
  const allowed = new Set(["type", "properties", "required"]);
  if (Object.keys(s).some((k) => !allowed.has(k))) return null;
  if (s.type !== undefined && s.type !== "object") return null;
  const props = (s.properties ?? {}) as Record<string, unknown>;
  if (typeof props !== "object" || Array.isArray(props)) return null;
  const required = Array.isArray(s.required) ? (s.required as unknown[]) : [];
  const ex = example && typeof example === "object" && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
  const rows: FieldRow[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (!p || typeof p !== "object" || Array.isArray(p)) return null;
    const prop = p as Record<string, unknown>;
    if (Object.keys(prop).some((k) => k !== "type" && k !== "description")) return null;
    if (!(FIELD_TYPES as readonly unknown[]).includes(prop.type)) return null;
    const value = ex[name];
    if (value !== undefined && (typeof value === "object" || value === null)) return null;
    rows.push({
      name,
      type: prop.type as FieldType,
      required: required.includes(name),
      description: typeof prop.description === "string" ? prop.description : "",
      example: value === undefined ? "" : String(value),
    });
  }
  return rows;
}

/** The rows posted by the form: fields named `field_<i>_name`, `_type`, `_required`, `_description`, `_example`. */
export function rowsOfForm(form: FormData, max = 30): FieldRow[] {
  const rows: FieldRow[] = [];
  for (let i = 0; i < max; i++) {
    const name = form.get(`field_${i}_name`);
    if (name === null) continue;
    rows.push({
      name: String(name),
      type: String(form.get(`field_${i}_type`) ?? "string") as FieldType,
      required: form.get(`field_${i}_required`) !== null,
      description: String(form.get(`field_${i}_description`) ?? ""),
      example: String(form.get(`field_${i}_example`) ?? ""),
    });
  }
  return rows;
}
