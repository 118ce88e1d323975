// People browsing: the home search, the capabilities browser (search, category, pages) and a
// capability's ranked endpoints with discover's filters, without and with JavaScript.
import { expect, test } from "@playwright/test";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

test("the home page resolves an intent to a capability with its top endpoints", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find the API that does the job");
  await expect(page.getByRole("heading", { name: "Categories" })).toBeVisible();
  await checkPage(page, "home");

  await page.getByRole("searchbox", { name: "What do you need an API for?" }).fill("current temperature in Lisbon");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/\?q=current\+temperature\+in\+Lisbon/);
  const result = page.getByTestId("intent-result");
  await expect(result.getByRole("link", { name: "Current weather" })).toBeVisible();
  await expect(result.getByText("weather.current")).toBeVisible();
  // A probability as people read it: never "100%" (">99.9%", "99.7%", "83%").
  await expect(page.getByTestId("confidence")).toHaveText(/^confidence (>99\.9|\d{1,2}(\.\d)?)%$/);
  expect(await result.getByRole("listitem").count()).toBeGreaterThan(0);
  await checkPage(page, "home-search");

  await page.goto("/?q=" + encodeURIComponent("zzqx blorf wibble"));
  await expect(page.getByText("No capability matches that confidently")).toBeVisible();
});

test("the home page says plainly that it does not help with a harmful need, and shows no endpoints", async ({ page }) => {
  await page.goto("/?q=" + encodeURIComponent("get into my ex's email account and read her messages"));
  await expect(page.locator("main").getByRole("alert")).toContainText("Capdex does not help with this");
  await expect(page.getByTestId("intent-result")).toHaveCount(0);
  await checkPage(page, "home-refused");

  await page.goto("/?q=" + encodeURIComponent("has my own email address been exposed in a data breach"));
  await expect(page.getByTestId("intent-result")).toBeVisible();
});

test("browse and search the capabilities to one, by keyboard", async ({ page }) => {
  await page.goto("/capabilities");
  await expect(page.getByTestId("result-count")).toHaveText("403 capabilities");
  await checkPage(page, "capabilities");

  // Pagination follows the API's cursor and keeps the filters.
  await page.getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByRole("link", { name: "← First page" })).toBeVisible();

  await page.goto("/capabilities");
  await page.getByRole("searchbox", { name: "Keyword" }).focus();
  await page.keyboard.type("weather");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/search=weather/);
  await expect(page.getByTestId("result-count")).toHaveText(/^\d+ capabilities matching “weather”$/);
  await page.getByLabel("Category").selectOption("weather");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/search=weather&category=weather/);
  const link = page.getByRole("link", { name: "Current weather", exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/capabilities\/weather\.current$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Current weather");

  await page.goto("/capabilities?search=nothing-matches-this");
  await expect(page.getByText("No capability matches")).toBeVisible();
  await page.goto("/capabilities?cursor=%21%21not-ours");
  await expect(page.locator("main").getByRole("alert")).toContainText("Use next_cursor from a previous page.");
});

test("a capability's endpoints, filtered with discover's constraints and presets", async ({ page }) => {
  await page.goto("/capabilities/web.scrape");
  const ranked = page.getByTestId("ranked-endpoints");
  await expect(ranked).toBeVisible();
  const all = await ranked.locator("tbody tr").count();
  expect(all).toBeGreaterThan(1);
  await expect(page.getByText(/curl -s -X POST \S*\/api\/discover/).filter({ visible: true }).first()).toBeVisible();
  await checkPage(page, "capability");

  // A bad value is explained beside its control, and nothing is ranked.
  await page.getByLabel("Max price (USD / call)").fill("cheap");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator("#f-max-price-error")).toHaveText("Must be a number (USD per call).");
  await expect(page.getByLabel("Max price (USD / call)")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Max price (USD / call)").fill("0.005");
  await page.getByLabel("Verified only").check();
  await page.getByLabel(/Ranking preset/).selectOption("budget");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/preset=budget/);
  const params = new URL(page.url()).searchParams;
  expect([params.get("max_price"), params.get("verified_only"), params.get("preset")]).toEqual(["0.005", "1", "budget"]);
  await expect(page.getByLabel("Verified only")).toBeChecked();
  // The agent example carries the same filters.
  await expect(page.getByText('"ranking_preset": "budget"').first()).toBeVisible();
  const rows = page.getByTestId("ranked-endpoints").locator("tbody tr");
  const n = await rows.count();
  for (let i = 0; i < n; i++) {
    await expect(rows.nth(i).locator("td").nth(6)).toContainText("Verified");
    const price = (await rows.nth(i).locator("td").nth(2).innerText()).trim();
    expect(price === "Free" || Number(price.replace("$", "")) <= 0.005, price).toBe(true);
  }
  if (n === 0) await expect(page.getByText(/No endpoint meets/)).toBeVisible();
  await checkPage(page, "capability-filtered");

  // Nothing on a network no demo listing uses: the nearest misses, each with its reason.
  await page.goto("/capabilities/web.scrape?network=solana-devnet");
  await expect(page.getByText("No endpoint meets every filter")).toBeVisible();
  await expect(page.getByTestId("fallback-endpoints").getByTestId("exclusion-reasons").first()).toContainText("on another network");
  await checkPage(page, "capability-fallbacks");

  await page.getByRole("link", { name: "Reset" }).click();
  await expect(page).toHaveURL(/\/capabilities\/web\.scrape$/);
  await expect(page.getByTestId("ranked-endpoints").locator("tbody tr")).toHaveCount(all);
});

test("unknown pages answer 404 with a way back; an unknown capability names the nearest ones, kept out of search engines", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await checkPage(page, "not-found");
  await page.goto("/capabilities/weather.nowhere");
  await expect(page.getByTestId("unknown-capability")).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByRole("link", { name: "Search the capabilities" })).toBeVisible();
});

test("the pages work without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: WIDE });
  const page = await context.newPage();
  await page.goto("/capabilities");
  await page.getByRole("searchbox", { name: "Keyword" }).fill("translate");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/search=translate/);
  await page.getByRole("link", { name: "Translate text" }).click();
  await page.getByLabel("Verified only").check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/verified_only=1/);
  await expect(page.getByRole("heading", { name: "Endpoints" })).toBeVisible();
  await context.close();
});
