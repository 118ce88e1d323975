// Reads a JSON request body safely: size cap (declared and streamed), content type, parse, and
// strings Postgres can store (no NUL, no lone surrogates), before any schema sees it.
import { ApiError, toPointer } from "./errors";

export const MAX_BODY_BYTES = 64 * 1024;
const MAX_DEPTH = 32;

export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  const mediaType = type.split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    throw new ApiError("payload_too_large", `The body may be at most ${maxBytes} bytes.`, {
      extras: { max_bytes: maxBytes },
    });
  }
  const text = await readCapped(req, maxBytes);
  if (text.trim() === "") throw new ApiError("invalid_json", "The body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? err.message : "The body could not be parsed.";
    throw new ApiError("invalid_json", `The body is not valid JSON: ${detail}`);
  }
  checkJsonValue(value);
  return value;
}

async function readCapped(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", `The body may be at most ${maxBytes} bytes.`, {
        extras: { max_bytes: maxBytes },
      });
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_json", "The body is not valid UTF-8.");
  }
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// A value still to check; it links to its parent, so a pointer is built only for the value that fails.
type Entry = { value: unknown; key: PropertyKey; parent: Entry | null; depth: number };

/** Walks the parsed value without recursion; rejects deep nesting and strings Postgres cannot store. */
export function checkJsonValue(root: unknown): void {
  const stack: Entry[] = [{ value: root, key: "", parent: null, depth: 0 }];
  while (stack.length) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (depth > MAX_DEPTH) {
      throw new ApiError("validation_failed", `The body is nested more than ${MAX_DEPTH} levels deep.`, {
        errors: [{ pointer: toPointer(pathOf(entry).slice(0, MAX_DEPTH)), detail: "Nested too deeply." }],
      });
    }
    if (typeof value === "string") {
      if (UNSTORABLE.test(value)) throw unstorable(pathOf(entry), "contains a NUL character or an unpaired surrogate");
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], key: i, parent: entry, depth: depth + 1 });
    } else if (value && typeof value === "object") {
      for (const k in value) {
        if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
        if (UNSTORABLE.test(k)) throw unstorable(pathOf(entry), "has a key with a NUL character or an unpaired surrogate");
        stack.push({ value: (value as Record<string, unknown>)[k], key: k, parent: entry, depth: depth + 1 });
      }
    }
  }
}

function pathOf(entry: Entry): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let e: Entry | null = entry; e?.parent; e = e.parent) path.unshift(e.key);
  return path;
}

function unstorable(path: PropertyKey[], what: string) {
  return new ApiError("validation_failed", `A string in the body ${what}.`, {
    errors: [{ pointer: toPointer(path), detail: `This value ${what}.` }],
  });
}
