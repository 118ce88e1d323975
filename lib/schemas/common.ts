// Pieces shared by the resource schemas.
import { z } from "zod";

export const capabilityIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]*\.[a-z0-9][a-z0-9_]*$/, "A capability id has the form <category>.<name> in lower snake_case, e.g. weather.current.")
  .max(100);

export const uuidSchema = z.uuid({ message: "Must be a UUID." });

/** Query-string booleans: true/false/1/0. */
export const queryBooleanSchema = z
  .enum(["true", "false", "1", "0"], { message: "Use true, false, 1 or 0." })
  .transform((v) => v === "true" || v === "1");

/** A whole number in a query string, strictly digits (no 1e3, no -1, no 5.0). */
export function queryIntSchema(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, `Must be a whole number from ${min} to ${max}.`)
    .transform(Number)
    .pipe(z.number().int().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`));
}

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: "Problem" });

export const timestampSchema = z.string().meta({ format: "date-time" });
