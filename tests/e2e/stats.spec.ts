// The live dashboard: every figure of GET /api/stats, and the page changing by itself (no reload)
// after outcome reports arrive and the server's rollup job counts them.
import { expect, test } from "@playwright/test";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

test("the stats page shows the API's figures and updates without a reload", async ({ page, request }) => {
  await page.goto("/stats");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Live stats");
  // The page and the API show the same snapshot, which the server refreshes every few seconds (an
  // earlier test's provider can arrive between the page's read and ours): compare until they agree,
  // the API read again each time; the page polls every 5 s.
  await expect(async () => {
    const api = (await (await request.get("/api/stats")).json()) as { capabilities: { total: number }; providers: { total: number } };
    await expect(page.getByTestId("capabilities-total")).toHaveText(String(api.capabilities.total), { timeout: 1_000 });
    await expect(page.getByTestId("providers-total")).toHaveText(String(api.providers.total), { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  for (const chart of ["Discover requests per hour", "Outcome reports per hour", "Success rate per hour"]) {
    await expect(page.getByRole("img", { name: chart })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Top capabilities, 7 days" })).toBeVisible();
  await checkPage(page, "stats");

  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  const before = await page.getByTestId("reports-24h").innerText();
  const updatedBefore = await page.getByTestId("stats-updated").innerText();

  const detail = (await (await request.get("/api/capabilities/weather.current?with_endpoints=true")).json()) as { endpoints: Array<{ endpoint_id: string }> };
  const endpointId = detail.endpoints[0].endpoint_id;
  for (let i = 0; i < 25; i++) {
    const res = await request.post("/api/report_outcome", { data: { endpoint_id: endpointId, success: i % 5 !== 0, latency_ms: 100 + i, status_code: 200 } });
    expect(res.status()).toBe(202);
  }

  // The rollup job counts reports every few seconds and the page polls every 5 s.
  const figure = async () => Number((await page.getByTestId("reports-24h").innerText()).replace(/,/g, ""));
  await expect.poll(figure, { timeout: 45_000, intervals: [1000] }).toBeGreaterThanOrEqual(Number(before.replace(/,/g, "")) + 25);
  await expect(page.getByTestId("stats-updated")).not.toHaveText(updatedBefore);
  // The current hour now has at least those 25 reports: its rate is drawn, as partial (a hollow dot), never as a drop.
  await expect(page.getByRole("img", { name: "Success rate per hour" }).locator('[data-partial="true"]')).toHaveCount(1);
  await expect(page.getByTestId("partial-hour-note")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
});
