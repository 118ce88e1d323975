// Portal pages when the database fails them. A page renders outside the API's route wrapper, and
// Next gives a page no way to answer 503: without this, a page whose database is paused or locked
// waits as long as the fault lasts, and one whose database is out of connections answers 500 from
// the error boundary. portalPage() gives a page the API's deadline and sends it, on a database fault,
// to /unavailable (app/unavailable/route.ts): 503 with Retry-After, a page that says what happened
// and reloads the one asked for once the wait is over.
import { redirect, unstable_rethrow } from "next/navigation";
import { withDeadline } from "@/lib/http/deadline";
import { toApiError } from "@/lib/http/problem";
import { REQUEST_DEADLINE_MS } from "@/lib/http/route";
import { errorFields, logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { safeCallbackUrl } from "@/lib/auth/redirects";
import type { SearchParams } from "./params";

/** Seconds a browser waits on /unavailable before it asks for the page again (and Retry-After). */
export const RETRY_AFTER_S = 5;

type PageProps = { params?: Promise<Record<string, string | string[]>>; searchParams?: Promise<SearchParams> };

class PageDeadline extends Error {
  constructor(ms: number) {
    super(`The page's data was not read within ${ms / 1000} s`);
    this.name = "PageDeadline";
  }
}

type Reason = "deadline" | "database";

function reasonOf(err: unknown): Reason | null {
  if (err instanceof PageDeadline) return "deadline";
  // What the API answers 503 for (the database unreachable or out of disk, a domain function's own
  // 503 such as the limiter's store down), read by the same function.
  return toApiError(err).status === 503 ? "database" : null;
}

/** The page's own path and query, from its route pattern ("/capabilities/[id]") and its props. */
export async function pagePath(pattern: string, props: PageProps): Promise<string> {
  const [params, sp] = await Promise.all([props.params ?? {}, props.searchParams ?? {}]);
  // [id], and the catch-all [...slug] / [[...slug]]
  const path = pattern.replace(/\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}/g, (_, name: string) => {
    const v = (params as Record<string, string | string[]>)[name];
    return (Array.isArray(v) ? v : [v ?? ""]).map(encodeURIComponent).join("/");
  });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(sp)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) query.append(k, one);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Where a page that could not be shown sends its visitor. */
export function unavailableHref(path: string): string {
  return `/unavailable?page=${encodeURIComponent(path)}`;
}

/**
 * A page (its default export) under the API's deadline: when its rendering (the data it awaits
 * before it returns its tree) does not finish in time, or the database is unreachable or out of
 * disk, the visitor is sent to /unavailable instead. Every other error goes to the error boundary
 * as before; notFound() and redirect() pass through.
 */
export function portalPage<P extends PageProps, R>(pattern: string, render: (props: P) => Promise<R>, deadlineMs = REQUEST_DEADLINE_MS): (props: P) => Promise<R> {
  return async function PortalPage(props: P): Promise<R> {
    let target: string;
    try {
      return await withDeadline(render(props), deadlineMs, () => new PageDeadline(deadlineMs));
    } catch (err) {
      unstable_rethrow(err);
      const reason = reasonOf(err);
      if (!reason) throw err;
      metrics().pagesUnavailable.inc({ page: pattern, reason });
      logger().warn({ page: pattern, reason, ...errorFields(err) }, "page sent to /unavailable");
      target = unavailableHref(await pagePath(pattern, props).catch(() => "/"));
    }
    redirect(target);
  };
}

/**
 * A page's generateMetadata under the same faults: the page itself answers for them (above), so
 * its metadata falls back to the layout's (`fallback`) rather than failing or waiting.
 */
export function portalMetadata<P extends PageProps, M>(render: (props: P) => Promise<M>, fallback: M, deadlineMs = REQUEST_DEADLINE_MS): (props: P) => Promise<M> {
  return async (props: P) => {
    try {
      return await withDeadline(render(props), deadlineMs, () => new PageDeadline(deadlineMs));
    } catch (err) {
      unstable_rethrow(err);
      if (!reasonOf(err)) throw err;
      return fallback;
    }
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The 503 page: what happened, a link to try again, and a refresh to the page asked for after
 * RETRY_AFTER_S. Self-contained (no stylesheet, no database), since it is what is shown when
 * things around the server fail. `page` is only ever a path on this site.
 */
export function unavailableResponse(rawPage: string | null, method = "GET"): Response {
  const page = safeCallbackUrl(rawPage, "/");
  const href = escapeHtml(page);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta http-equiv="refresh" content="${RETRY_AFTER_S};url=${href}">
<title>Temporarily unavailable · Capdex</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#0f172a;max-width:36rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem}a{color:#4338ca}p.s{color:#475569;font-size:.875rem}</style>
</head><body><main>
<p class="s">Capdex · 503</p>
<h1>This page is temporarily unavailable</h1>
<p>Capdex could not read what the page shows in time: its database is slow or out of reach. This is usually brief.</p>
<p>The page will reload by itself in ${RETRY_AFTER_S} seconds, or <a href="${href}">try again now</a>.</p>
<p class="s">Agents: the API answers the same fault as 503 <code>unavailable</code> with <code>Retry-After</code>.</p>
</main></body></html>
`;
  return new Response(method === "HEAD" ? null : html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(RETRY_AFTER_S),
      "X-Robots-Tag": "noindex",
    },
  });
}
