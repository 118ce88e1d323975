// Strict zod parsing with problem+json pointers: unknown fields -> 422 unknown_field, others -> 422 validation_failed.
import type { z } from "zod";
import { ApiError, toPointer, type FieldError } from "./errors";

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const unknown: FieldError[] = [];
  const invalid: FieldError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        unknown.push({ pointer: toPointer([...issue.path, key]), detail: `Unknown field "${key}".` });
      }
    } else {
      invalid.push({ pointer: toPointer(issue.path), detail: issue.message });
    }
  }
  if (unknown.length) {
    throw new ApiError("unknown_field", `This operation does not take ${unknown.map((e) => e.pointer.slice(2)).join(", ")}.`, {
      errors: unknown,
    });
  }
  const first = invalid[0];
  throw new ApiError(
    "validation_failed",
    first ? `${first.pointer === "#" ? "The body" : first.pointer.slice(2)}: ${first.detail}` : "The request is not valid.",
    { errors: invalid },
  );
}

/** Query parameters as a plain object (first value wins); unknown ones are simply ignored by the schemas. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in out)) out[k] = v;
  return out;
}
