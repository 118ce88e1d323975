import { describe, expect, it } from "vitest";
import net from "node:net";
import postgres from "postgres";
import { notFound } from "next/navigation";
import { metrics } from "@/lib/metrics";
import { pagePath, portalMetadata, portalPage, unavailableResponse } from "@/lib/portal/unavailable";

// Where redirect() and notFound() send a page: Next reads it from the thrown error's digest.
async function digestOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "the page was expected to throw").toBeTruthy();
  return String((err as { digest?: unknown }).digest ?? (err as Error).message);
}

/** A port nothing listens on: a real driver's connection to it is refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const props = (params: Record<string, string | string[]>, searchParams: Record<string, string | string[] | undefined> = {}) => ({
  params: Promise.resolve(params),
  searchParams: Promise.resolve(searchParams),
});

async function unavailableCount(page: string, reason: string): Promise<number> {
  const m = await metrics().pagesUnavailable.get();
  return m.values.find((v) => v.labels.page === page && v.labels.reason === reason)?.value ?? 0;
}

describe("portal pages when the database fails them", () => {
  it("renders a page whose data arrives in time as it is", async () => {
    const page = portalPage("/capabilities/[id]", async ({ params }: { params: Promise<{ id: string }> }) => `cap ${(await params).id}`, 500);
    await expect(page({ params: Promise.resolve({ id: "weather.current" }) })).resolves.toBe("cap weather.current");
  });

  it("sends a page whose database refuses connections to /unavailable, with its own path and query", async () => {
    const sql = postgres({ host: "127.0.0.1", port: await closedPort(), user: "x", database: "x", connect_timeout: 2, max: 1, onnotice: () => {} });
    const before = await unavailableCount("/capabilities/[id]", "database");
    const page = portalPage("/capabilities/[id]", async () => {
      await sql`select 1`;
      return "never";
    });
    const digest = await digestOf(page(props({ id: "a/b c" }, { q: "wea ther", tag: ["x", "y"], none: undefined })));
    expect(digest).toMatch(/^NEXT_REDIRECT;/);
    const location = digest.split(";")[2];
    expect(new URL(location, "http://h").pathname).toBe("/unavailable");
    expect(new URL(location, "http://h").searchParams.get("page")).toBe("/capabilities/a%2Fb%20c?q=wea+ther&tag=x&tag=y");
    expect(await unavailableCount("/capabilities/[id]", "database")).toBe(before + 1);
    await sql.end({ timeout: 1 });
  });

  it("sends a page that outlasts its deadline to /unavailable at the deadline, not when its data arrives", async () => {
    const page = portalPage("/stats", () => new Promise((r) => setTimeout(() => r("late"), 5_000)), 100);
    const t0 = Date.now();
    const digest = await digestOf(page({}));
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(digest).toContain("/unavailable?page=%2Fstats");
  });

  it("leaves other errors, and notFound(), to Next as before", async () => {
    const bug = portalPage("/stats", async () => {
      throw new TypeError("a bug");
    });
    await expect(bug({})).rejects.toThrow("a bug");
    const missing = portalPage("/endpoints/[id]", async () => notFound());
    expect(await digestOf(missing(props({ id: "nope" })))).toMatch(/NEXT_HTTP_ERROR_FALLBACK;404/);
  });

  it("falls back to the layout's metadata when the database fails, and keeps it otherwise", async () => {
    const port = await closedPort();
    const sql = postgres({ host: "127.0.0.1", port, user: "x", database: "x", connect_timeout: 2, max: 1, onnotice: () => {} });
    const failing = portalMetadata(async (): Promise<{ title?: string }> => {
      await sql`select 1`;
      return { title: "never" };
    }, {});
    await expect(failing({})).resolves.toEqual({});
    await expect(portalMetadata(async (): Promise<{ title?: string }> => ({ title: "Weather" }), {})({})).resolves.toEqual({ title: "Weather" });
    await expect(portalMetadata(async () => Promise.reject(new TypeError("a bug")), {})({})).rejects.toThrow("a bug");
    await sql.end({ timeout: 1 });
  });

  it("builds the page's path from its pattern, catch-all segments included", async () => {
    expect(await pagePath("/", {})).toBe("/");
    expect(await pagePath("/docs/[...slug]", props({ slug: ["a", "b/c"] }))).toBe("/docs/a/b%2Fc");
  });
});

describe("GET /unavailable", () => {
  it("answers 503 with Retry-After and reloads the page asked for", async () => {
    const res = unavailableResponse("/capabilities?search=a&b=c");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('http-equiv="refresh" content="5;url=/capabilities?search=a&#38;b=c"');
    expect(html).toContain('href="/capabilities?search=a&#38;b=c"');
  });

  it("never sends the browser off the site, nor lets the path out of its attribute", async () => {
    for (const evil of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", null]) {
      expect(await unavailableResponse(evil).text()).toContain('content="5;url=/"');
    }
    const html = await unavailableResponse('/x"><script>alert(1)</script>').text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("/x&#34;&#62;&#60;script&#62;");
  });

  it("answers HEAD without a body", async () => {
    const res = unavailableResponse("/", "HEAD");
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("");
  });
});
