// Calling route handlers in-process, the way Next calls them.
import type { RouteHandler } from "@/lib/http/route";

export const BASE = "http://localhost:3000";

export async function call(
  handler: RouteHandler,
  path: string,
  init: RequestInit & { json?: unknown; params?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> & { [k: string]: unknown } }> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", "203.0.113.7");
  const req = new Request(BASE + path, { ...init, headers, body });
  const res = await handler(req, { params: Promise.resolve(init.params ?? {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}
