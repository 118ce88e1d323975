// "Why is my endpoint (not) listed?": the listing status page answers in plain words for a listed,
// a failing and an unknown URL, links each reason to its explanation, and is linked from the wizard.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

type Status = { known: boolean; listings: Array<{ state: string; capability_id: string | null }> };

/** A demo endpoint in the given state, found through the API the page uses. */
async function endpointIn(request: APIRequestContext, state: string): Promise<{ url: string; capability: string }> {
  for (const cap of ["weather.current", "weather.forecast", "geo.geocode", "search.web", "llm.chat", "translate.text", "crypto.price", "image.generate", "finance.stock_quote", "web.scrape", "audio.transcribe"]) {
    const detail = (await (await request.get(`/api/capabilities/${cap}?with_endpoints=true`)).json()) as { endpoints: Array<{ url: string }> };
    for (const e of detail.endpoints) {
      const s = (await (await request.get(`/api/listing_status?url=${encodeURIComponent(e.url)}`)).json()) as Status;
      if (s.listings[0]?.state === state) return { url: e.url, capability: cap };
    }
  }
  throw new Error(`no demo endpoint is ${state}`);
}

test("the listing status page explains a listed, a failing and an unknown URL", async ({ page, request }) => {
  await page.goto("/providers/submit");
  await page.getByTestId("claim-link").getByRole("link", { name: "Check its listing status" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Listing status");
  await checkPage(page, "status-empty");

  const listed = await endpointIn(request, "listed");
  await page.getByLabel("Endpoint URL").fill(listed.url);
  await page.getByRole("button", { name: "Check" }).click();
  const result = page.getByTestId("listing-status");
  await expect(result.getByText(`Listed under ${listed.capability} since`)).toBeVisible();
  await expect(page.getByTestId("listing")).toHaveAttribute("data-state", "listed");
  await checkPage(page, "status-listed", { afterAction: true });

  const failing = await endpointIn(request, "failing");
  await page.getByLabel("Endpoint URL").fill(failing.url);
  await page.getByRole("button", { name: "Check" }).click();
  await expect(result.getByText(/^Not listed: the last 3 checks/)).toBeVisible();
  const reason = result.getByRole("link", { name: /^probe_/ }).first();
  const code = (await reason.innerText()).trim();
  await reason.click();
  await expect(page).toHaveURL(new RegExp(`/docs/errors#${code}$`));
  await expect(page.locator(`#${code}`)).toBeVisible();

  await page.goto(`/providers/status?url=${encodeURIComponent("https://nobody.example.org/v1/none")}`);
  await expect(page.getByText("Capdex does not know this URL")).toBeVisible();
  await expect(page.getByTestId("listing-status").getByRole("link", { name: "Submit it" })).toHaveAttribute("href", "/providers/submit");

  await page.goto("/providers/status?url=not%20a%20url");
  await expect(page.locator("#status-url-error")).toContainText("An absolute http(s) URL");
  await expect(page.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
});

test("the claim page starts a claim and shows the DNS record", async ({ page }) => {
  await page.goto("/providers/claim");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Claim the listings of your domain");
  await page.getByLabel("Domain").fill("api.claim-e2e.test");
  await page.getByLabel("Contact e-mail").fill("ops@claim-e2e.test");
  await page.getByRole("button", { name: "Get the DNS record" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Claim of claim-e2e.test");
  await expect(page.getByText("_capdex-challenge.claim-e2e.test")).toBeVisible();
  await checkPage(page, "claim", { afterAction: true });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("claim-check-result")).toContainText("Not yet");
});
