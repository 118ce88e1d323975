// Strict zod parsing with problem+json pointers: unknown fields -> 422 unknown_field, others -> 422 validation_failed.
import type { z } from "zod";
import { ApiError, toPointer, type FieldError } from "./errors";

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const unknown: FieldError[] = [];
  const invalid: FieldError[] = [];
  let accepted: string[] | null = null;
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      accepted ??= fieldsAt(schema, issue.path);
      for (const key of issue.keys) {
        unknown.push({ pointer: toPointer([...issue.path, key]), detail: `Unknown field "${key}".` });
      }
    } else {
      invalid.push({ pointer: toPointer(issue.path), detail: issue.message });
    }
  }
  if (unknown.length) {
    // Say what it does take, so a caller (or an agent) can fix the body without reading the docs.
    const takes = accepted?.length ? ` It takes ${accepted.join(", ")}.` : "";
    throw new ApiError("unknown_field", `This operation does not take ${unknown.map((e) => e.pointer.slice(2)).join(", ")}.${takes}`, {
      errors: unknown,
      ...(accepted?.length ? { extras: { accepted_fields: accepted } } : {}),
    });
  }
  const first = invalid[0];
  throw new ApiError(
    "validation_failed",
    first ? `${first.pointer === "#" ? "The body" : first.pointer.slice(2)}: ${first.detail}` : "The request is not valid.",
    { errors: invalid },
  );
}

type Def = { type?: string; innerType?: unknown; in?: unknown; shape?: Record<string, unknown> };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The field names of the object the schema expects at `path` (through optional, default and pipes), or null. */
export function fieldsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] | null {
  let at: unknown = schema;
  for (let i = 0; i <= path.length; i++) {
    for (let d = defOf(at); d && (d.type === "optional" || d.type === "nullable" || d.type === "default" || d.type === "pipe"); d = defOf(at)) {
      at = d.type === "pipe" ? d.in : d.innerType;
    }
    const def = defOf(at);
    if (def?.type !== "object" || !def.shape) return null;
    if (i === path.length) return Object.keys(def.shape);
    at = def.shape[String(path[i])];
  }
  return null;
}

/** Query parameters as a plain object (first value wins); unknown ones are simply ignored by the schemas. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}
