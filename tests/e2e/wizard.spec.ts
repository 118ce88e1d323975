// A provider's journey: the wizard from the empty form (invalid fields first) to the DNS step, the
// record served by a real DNS server on loopback, "Check now", and the listed endpoint; and the
// "None fits" path, whose submission waits for the capability it proposes.
import { expect, test, type Page } from "@playwright/test";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { E2E_DNS_PORT } from "./support/env";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

let dns: DnsTestServer;
test.beforeAll(async () => {
  // The server under test resolves through this one (DNS_SERVERS in playwright.config.ts).
  dns = await startDnsServer({ port: E2E_DNS_PORT });
});
test.afterAll(async () => {
  await dns?.close();
});

const suffix = () => Math.random().toString(36).slice(2, 8);

async function next(page: Page) {
  await page.getByRole("button", { name: /^(Next →|Submit and get the DNS record)$/ }).click();
}

test("the wizard from an empty form to a listed endpoint", async ({ page }) => {
  const host = `api.wizard-${suffix()}.test`;
  const provider = `Wizard Labs ${suffix()}`;
  await page.goto("/providers/submit");
  await expect(page.getByRole("heading", { name: "Step 1 of 4: Endpoint" })).toBeVisible();
  await checkPage(page, "submit-step1");

  // Empty: each required field says so beside itself, and focus goes to the first.
  await next(page);
  await expect(page.locator("#field-endpoint_url-error")).toHaveText("Required.");
  await expect(page.locator("#field-capability_id-error")).toHaveText("Pick a capability from the list.");
  await expect(page.locator("#field-endpoint_url")).toBeFocused();
  await expect(page.locator("#field-endpoint_url")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("main").getByRole("alert").first()).toContainText("Check 2 fields");
  await checkPage(page, "submit-step1-errors", { afterAction: true });

  // The submission rules apply here too, not only the schema.
  await page.getByLabel("Endpoint URL").fill("ftp://files.example.org/data");
  await next(page);
  await expect(page.locator("#field-endpoint_url-error")).toContainText("https://");

  await page.getByLabel("Endpoint URL").fill(`http://${host}/v1/scrape`);
  await page.getByLabel("HTTP method").selectOption("POST");
  await page.getByLabel("Find the capability").fill("scrape");
  await expect(page.locator("#field-capability_id option")).toHaveCount(1);
  await page.getByLabel("Capability", { exact: true }).selectOption("web.scrape");
  await next(page);

  await expect(page.getByRole("heading", { name: "Step 2 of 4: Pricing" })).toBeVisible();
  await page.getByLabel("Price per call (USD)").fill("-1");
  await page.getByLabel("Accepted assets").fill("USDC, ???");
  await next(page);
  await expect(page.locator("#field-price_per_call-error")).toHaveText("Must be 0 or more.");
  await expect(page.locator("#field-accepted_assets-error")).toHaveText("An asset symbol such as USDC.");
  await expect(page.locator("#field-price_per_call")).toBeFocused();
  await page.getByLabel("Price per call (USD)").fill("0.004");
  await page.getByLabel("Accepted assets").fill("usdc");
  await page.getByLabel("Payment network").selectOption("base-sepolia");
  // Back keeps what was typed; Enter in a field goes forward.
  await page.getByRole("button", { name: "← Back" }).click();
  await expect(page.getByLabel("Endpoint URL")).toHaveValue(`http://${host}/v1/scrape`);
  await page.getByLabel("Endpoint URL").press("Enter");
  await expect(page.getByLabel("Price per call (USD)")).toHaveValue("0.004");
  await next(page);

  await expect(page.getByRole("heading", { name: "Step 3 of 4: Contact" })).toBeVisible();
  await page.getByLabel("Contact e-mail").fill("not-an-address");
  await next(page);
  await expect(page.locator("#field-provider_name-error")).toHaveText("Required.");
  await expect(page.locator("#field-contact_email-error")).toHaveText("Must be an e-mail address.");
  await page.getByLabel("Provider name").fill(provider);
  await page.getByLabel("Contact e-mail").fill("ops@wizard.test");
  await expect(page.getByText(`POST http://${host}/v1/scrape`)).toBeVisible();
  await checkPage(page, "submit-step3", { afterAction: true });
  await next(page);

  // The DNS step, on the submission's own page.
  await expect(page).toHaveURL(/\/providers\/submissions\/[0-9a-f-]{36}$/);
  const link = page.url();
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "pending_verification");
  await expect(page.getByTestId("record-type")).toHaveText("TXT");
  const name = (await page.getByTestId("record-name").innerText()).trim();
  const value = (await page.getByTestId("record-value").innerText()).trim();
  expect(name).toBe(`_capdex-challenge.${host}`);
  expect(value).toMatch(/^capdex-verification=[A-Za-z0-9_-]{22,}$/);
  await expect(page.getByText("ops@wizard.test")).toHaveCount(0);
  for (const host of ["Cloudflare", "Amazon Route 53", "GoDaddy", "Namecheap", "Google Cloud DNS"]) {
    await expect(page.locator("summary", { hasText: host })).toBeVisible();
  }
  // Reopened by its link, the page loads without shifting.
  await page.reload();
  await checkPage(page, "submission-pending");

  // Not there yet: the reason is shown.
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("check-result")).toContainText("not verified yet");
  await expect(page.getByTestId("last-check-reason")).not.toBeEmpty();
  await checkPage(page, "submission-not-found", { afterAction: true });

  // A wrong token is reported as found but not matching.
  dns.setTxt(name, ["capdex-verification=not-the-right-token"]);
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText("capdex-verification=not-the-right-token").first()).toBeVisible();

  dns.setTxt(name, [value]);
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "verified");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Your endpoint is listed");
  await expect(page.getByTestId("listed-endpoint")).toContainText(provider);
  await checkPage(page, "submission-listed", { afterAction: true });

  // The link reopens it, and the capability lists it.
  await page.goto(link);
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "verified");
  await page.goto("/capabilities/web.scrape");
  await expect(page.getByTestId("ranked-endpoints").getByText(provider)).toBeVisible();
});

test("none fits: the wizard proposes a capability, and the submission waits for it once the domain is proven", async ({ page }) => {
  const host = `api.propose-${suffix()}.test`;
  const capability = `ocean.tide_times_${suffix()}`;
  await page.goto("/providers/submit");
  await page.getByLabel("Endpoint URL").fill(`http://${host}/v1/tides`);
  // The list shows until "None fits" is chosen; then the proposal's fields, and what waiting means.
  await expect(page.getByLabel("Suggested capability id")).toBeHidden();
  await page.getByLabel("None fits — propose a capability").check();
  await expect(page.getByLabel("Capability", { exact: true })).toBeHidden();
  await expect(page.getByTestId("propose-capability")).toContainText("The listing waits for an operator");
  await checkPage(page, "submit-propose", { afterAction: true });

  // Empty, then an id that exists: refused beside the field, as the API refuses them.
  await next(page);
  await expect(page.locator("#field-proposed_id-error")).toContainText("<category>.<name>");
  await expect(page.locator("#field-proposed_title-error")).toHaveText("At least 3 characters.");
  await expect(page.locator("#field-capability_id-error")).toHaveCount(0);
  await expect(page.getByLabel("Suggested capability id")).toBeFocused();
  await page.getByLabel("Suggested capability id").fill("weather.current");
  await page.getByLabel("Capability title").fill("Tide times");
  await page.getByLabel("What the job is").fill("High and low tide times for a harbour and a date");
  await page.getByLabel("Example needs, one a line").fill("when is high tide in Bergen tomorrow\ntide table for Brest");
  await next(page);
  await expect(page.locator("#field-proposed_id-error")).toHaveText("weather.current is already a capability: pick it from the list instead of proposing it.");
  await expect(page.getByLabel("Capability title")).toHaveValue("Tide times");
  await page.getByLabel("Suggested capability id").fill(capability);
  await next(page);

  await expect(page.getByRole("heading", { name: "Step 2 of 4: Pricing" })).toBeVisible();
  await page.getByLabel("Price per call (USD)").fill("0.001");
  await next(page);
  await page.getByLabel("Provider name").fill("Tide Tables Ltd");
  await page.getByLabel("Contact e-mail").fill("ops@tides.test");
  await expect(page.getByText(`as ${capability} (proposed: listed once an operator accepts it)`)).toBeVisible();
  await next(page);

  // The DNS step as usual, saying what comes after it.
  await expect(page).toHaveURL(/\/providers\/submissions\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "pending_verification");
  await expect(page.getByTestId("submission-capability")).toContainText(`${capability} (Tide times), proposed`);
  await expect(page.getByTestId("proposal-next")).toContainText(capability);
  const name = (await page.getByTestId("record-name").innerText()).trim();
  const value = (await page.getByTestId("record-value").innerText()).trim();
  dns.setTxt(name, [value]);
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "pending_capability");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Domain proven: waiting for its capability");
  await expect(page.getByText(`Waiting for capability ${capability} to be accepted`)).toBeVisible();
  await checkPage(page, "submission-pending-capability", { afterAction: true });

  // The proposal is open, with this endpoint among the listings that would join it.
  await page.goto("/capabilities/proposals");
  const item = page.locator("li", { hasText: capability });
  await expect(item).toContainText("Tide times");
  await expect(item).toContainText(host);
});

test("the submission page updates by itself when the state changes elsewhere", async ({ page, request }) => {
  const host = `api.refresh-${suffix()}.test`;
  const res = await request.post("/api/submit", {
    data: { endpoint_url: `http://${host}/v1/geocode`, capability_id: "geo.geocode", provider_name: "Refresh Co", contact_email: "a@refresh.test", price_per_call: 0 },
  });
  expect(res.status()).toBe(202);
  const sub = (await res.json()) as { submission_id: string; verification: { record_name: string; record_value: string } };
  await page.goto(`/providers/submissions/${sub.submission_id}`);
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "pending_verification");
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

  dns.setTxt(sub.verification.record_name, [sub.verification.record_value]);
  const verify = await request.post(`/api/submit/${sub.submission_id}/verify`);
  expect(verify.status()).toBe(200);
  await expect(page.getByTestId("submission-status")).toHaveAttribute("data-status", "verified", { timeout: 20_000 });
  // same document: no reload happened
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
});

test("the wizard works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: WIDE });
  const page = await context.newPage();
  await page.goto("/providers/submit?capability=geo.timezone");
  await next(page);
  await expect(page.locator("#field-endpoint_url-error")).toHaveText("Required.");
  await page.getByLabel("Endpoint URL").fill(`http://api.nojs-${suffix()}.test/tz`);
  await next(page);
  await page.getByLabel("Price per call (USD)").fill("0");
  await next(page);
  await page.getByLabel("Provider name").fill("No Script Inc");
  await page.getByLabel("Contact e-mail").fill("ops@nojs.test");
  await next(page);
  await expect(page).toHaveURL(/\/providers\/submissions\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("record-name")).toContainText("_capdex-challenge.api.nojs-");
  await context.close();
});

test("none fits works without JavaScript too", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: WIDE });
  const page = await context.newPage();
  const capability = `ocean.swell_${suffix()}`;
  await page.goto("/providers/submit");
  await page.getByLabel("Endpoint URL").fill(`http://api.nojs-propose-${suffix()}.test/swell`);
  await page.getByLabel("None fits — propose a capability").check();
  await expect(page.getByLabel("Capability", { exact: true })).toBeHidden();
  await page.getByLabel("Suggested capability id").fill("Swell");
  await page.getByLabel("Capability title").fill("Swell forecast");
  await page.getByLabel("What the job is").fill("Wave height and period for a beach");
  await next(page);
  // the server's answer keeps the choice and says what is wrong
  await expect(page.locator("#field-proposed_id-error")).toContainText("lower snake_case");
  await expect(page.getByLabel("None fits — propose a capability")).toBeChecked();
  await page.getByLabel("Suggested capability id").fill(capability);
  await next(page);
  await page.getByLabel("Price per call (USD)").fill("0");
  await next(page);
  await page.getByLabel("Provider name").fill("No Script Surf");
  await page.getByLabel("Contact e-mail").fill("ops@nojs-surf.test");
  await next(page);
  await expect(page).toHaveURL(/\/providers\/submissions\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("submission-capability")).toContainText(`${capability} (Swell forecast), proposed`);
  await context.close();
});

test("an unknown or malformed submission id is a 404 page", async ({ page }) => {
  expect((await page.goto("/providers/submissions/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  expect((await page.goto("/providers/submissions/not-a-uuid"))?.status()).toBe(404);
});
