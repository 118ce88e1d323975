// One page of a facilitator's catalogue, through the SSRF-safe fetch of lib/net: `GET {source}
// ?limit=&offset=`, a deadline and a byte cap, and the page's envelope checked (items and paging).
// Nothing the source sends is trusted: a bad page is a reason, never an exception.
import { NetError, safeFetch } from "@/lib/net";

export type PageFailure = "page_failed" | "page_too_large" | "malformed_page";

export type Page =
  | { ok: true; items: unknown[]; total: number | null; version: number | null; bytes: number }
  | { ok: false; reason: PageFailure; detail: string; bytes: number };

export function pageUrl(source: string, limit: number, offset: number): string {
  const u = new URL(source);
  u.searchParams.set("limit", String(limit));
  u.searchParams.set("offset", String(offset));
  return u.toString();
}

export async function fetchPage(source: string, limit: number, offset: number, opts: { timeoutMs: number; maxBytes: number }): Promise<Page> {
  let res;
  try {
    res = await safeFetch(pageUrl(source, limit, offset), { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes });
  } catch (err) {
    const code = err instanceof NetError ? err.code : "connection_failed";
    return { ok: false, reason: "page_failed", detail: code, bytes: 0 };
  }
  const bytes = res.body.length;
  if (res.truncated) return { ok: false, reason: "page_too_large", detail: `over ${opts.maxBytes} bytes`, bytes };
  if (res.status < 200 || res.status >= 300) return { ok: false, reason: "page_failed", detail: `HTTP ${res.status}`, bytes };
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    return { ok: false, reason: "malformed_page", detail: "not JSON", bytes };
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return { ok: false, reason: "malformed_page", detail: "not an object", bytes };
  const page = body as { items?: unknown; resources?: unknown; pagination?: unknown; x402Version?: unknown };
  const items = Array.isArray(page.items) ? page.items : Array.isArray(page.resources) ? page.resources : null;
  if (!items) return { ok: false, reason: "malformed_page", detail: "no items array", bytes };
  const pagination = page.pagination && typeof page.pagination === "object" ? (page.pagination as { total?: unknown }) : null;
  const total = typeof pagination?.total === "number" && Number.isInteger(pagination.total) && pagination.total >= 0 ? pagination.total : null;
  const version = page.x402Version === 1 || page.x402Version === 2 ? page.x402Version : null;
  return { ok: true, items, total, version, bytes };
}
