// The docs against the live OpenAPI document, and the error anchors that problem types point at.
import { expect, test } from "@playwright/test";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

test("the docs show every operation of /api/openapi.json, the rate limits and the presets", async ({ page, request }) => {
  const doc = (await (await request.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  await page.goto("/docs");
  for (const op of ops) await expect(page.locator(`[data-operation="${op}"]`), op).toHaveCount(1);
  await expect(page.getByTestId("rate-limits")).toContainText("60 / min");
  await expect(page.getByTestId("rate-limits")).toContainText("10 / hour");
  await expect(page.getByTestId("presets")).toContainText("reliability");
  await expect(page.locator("#authentication")).toContainText("Authorization: Bearer");
  await expect(page.locator("#mcp")).toContainText("/api/mcp");
  await checkPage(page, "docs");
});

test("a problem's type URL lands on its explanation", async ({ page, request }) => {
  const res = await request.post("/api/discover", { data: { capability_id: "weather.current", constraints: { max_prize: 1 } } });
  expect(res.status()).toBe(422);
  const problem = (await res.json()) as { type: string; code: string };
  expect(problem.code).toBe("unknown_field");
  const url = new URL(problem.type);
  expect(url.pathname).toBe("/docs/errors");
  await page.goto(url.pathname + url.hash);
  await expect(page.locator(`#${problem.code}`)).toBeVisible();
  await expect(page.locator(`#${problem.code}`)).toContainText("typo");
  await checkPage(page, "docs-errors");
});

test("sitemap.xml lists the fixed pages and every capability page", async ({ request }) => {
  const res = await request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  const xml = await res.text();
  const base = new URL(res.url()).origin;
  for (const p of ["/", "/capabilities", "/docs", "/providers/submit", "/capabilities/weather.current"]) expect(xml).toContain(`<loc>${base}${p}</loc>`);
});

test("the 503 page a page is sent to when the database fails it answers 503 and reloads that page", async ({ page }) => {
  const res = await page.goto("/unavailable?page=%2Fdocs%23mcp");
  expect(res?.status()).toBe(503);
  expect(res?.headers()["retry-after"]).toBe("5");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page is temporarily unavailable");
  await expect(page.getByRole("link", { name: "try again now" })).toHaveAttribute("href", "/docs#mcp");
  // The refresh after Retry-After's 5 s brings the page asked for back by itself.
  await page.waitForURL(/\/docs#mcp$/, { timeout: 15_000 });
  await expect(page.locator("#mcp")).toBeVisible();
});
