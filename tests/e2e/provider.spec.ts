// A provider's self-service journey: an endpoint listed with the provider's e-mail (submitted, its
// DNS record served by a real DNS server on loopback, verified, probed against a real HTTP server on
// loopback), sign-in by the e-mail link (a real SMTP server on loopback), the dashboard, an edit of
// the call built from field rows, delist and relist, each seen in discover. Also the smaller pages:
// an unknown capability's suggestions and the stats' payments figure.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import { firstLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { E2E_DNS_PORT, E2E_SMTP_PORT } from "./support/env";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

let dns: DnsTestServer;
let smtp: TestSmtpServer;
let provider: http.Server;
let port = 0;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: E2E_DNS_PORT });
  smtp = await startSmtpServer(E2E_SMTP_PORT);
  provider = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"temperature_c":4}');
  });
  await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
  port = (provider.address() as AddressInfo).port;
});
test.afterAll(async () => {
  await dns?.close();
  await smtp?.stop();
  await new Promise((r) => provider?.close(r));
});

type Listed = { endpoint_id: string; call?: { input: { example?: Record<string, unknown> } } };
async function inDiscover(request: APIRequestContext, id: string): Promise<Listed | undefined> {
  const res = await request.post("/api/discover", { data: { capability_id: "weather.current", preferences: { limit: 20 } } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { ranked_endpoints: Listed[]; fallback_endpoints: Listed[] };
  return [...body.ranked_endpoints, ...body.fallback_endpoints].find((e) => e.endpoint_id === id);
}

test("a provider signs in by e-mail, edits its endpoint's call, delists and relists it", async ({ page, request }) => {
  // Each save probes the endpoint and re-renders: a long journey on a busy machine.
  test.setTimeout(300_000);
  const suffix = Math.random().toString(36).slice(2, 8);
  const host = `api.self-${suffix}.test`;
  const email = `owner-${suffix}@example.com`;
  const url = `http://${host}:${port}/weather`;

  // Listed with this e-mail as its contact: submitted, record published, verified (probed at once).
  dns.setA(host, ["127.0.0.1"]);
  const submitted = await request.post("/api/submit", {
    data: { endpoint_url: url, capability_id: "weather.current", contact_email: email, provider_name: `Self Service ${suffix}`, price_per_call: 0 },
  });
  expect(submitted.status()).toBe(202);
  const sub = (await submitted.json()) as { submission_id: string; verification: { record_name: string; record_value: string } };
  dns.setTxt(sub.verification.record_name, [sub.verification.record_value]);
  const verified = await request.post(`/api/submit/${sub.submission_id}/verify`);
  expect(verified.status()).toBe(200);
  const endpointId = ((await verified.json()) as { endpoint_id: string }).endpoint_id;
  expect(await inDiscover(request, endpointId)).toBeDefined();

  // Without a session the dashboard sends people to sign in, and back afterwards.
  await page.goto("/providers/dashboard");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fproviders%2Fdashboard$/);
  await page.getByLabel("E-mail address").fill(email, { timeout: 60_000 });
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/signin\/check-email(\?|$)/, { timeout: 30_000 });
  const link = firstLink(await smtp.waitForMail(email));
  await page.goto(link!);
  await expect(page).toHaveURL(/\/providers\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Your endpoints" })).toBeVisible();
  const row = page.getByTestId("provider-endpoints").getByRole("row").filter({ hasText: url });
  await expect(row).toContainText("Free");
  await expect(row).toContainText("verified");
  await checkPage(page, "provider-dashboard");

  // Manage it: build the call from a field row.
  await row.getByRole("link", { name: url }).click();
  await expect(page).toHaveURL(new RegExp(`/providers/dashboard/${endpointId}$`));
  await expect(page.getByRole("heading", { name: "Manage endpoint" })).toBeVisible();
  await checkPage(page, "provider-manage");
  await page.getByLabel("Build from fields").check();
  await page.getByLabel("Field 1 name").fill("city");
  await page.getByLabel("Field 1 required").check();
  await page.getByLabel("Field 1 example").fill("Oslo");
  await page.getByLabel("Field 2 name").fill("days");
  await page.getByLabel("Field 2 type").selectOption("integer");
  await page.getByLabel("Field 2 example").fill("two");
  await page.getByRole("button", { name: "Save and check again" }).click();
  // a bad row is refused, with where and why, and nothing is saved
  await expect(page.getByRole("alert").filter({ hasText: "Field 2, example: Not a whole number." })).toBeVisible();
  expect((await inDiscover(request, endpointId))?.call).toBeUndefined();

  await page.getByLabel("Build from fields").check();
  await page.getByLabel("Field 1 name").fill("city");
  await page.getByLabel("Field 1 required").check();
  await page.getByLabel("Field 1 example").fill("Oslo");
  await page.getByLabel("Description", { exact: true }).fill("Current weather, self-served");
  await page.getByRole("button", { name: "Save and check again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await checkPage(page, "provider-manage-saved", { afterAction: true });
  // re-probed at once (the server answers 200 to a free listing): verified, and discover shows the call
  await expect(page.getByText("Last check")).toContainText("passed");
  const listed = await inDiscover(request, endpointId);
  expect(listed?.call?.input.example).toEqual({ city: "Oslo" });
  // the form now shows the row it was built from
  await expect(page.getByLabel("Field 1 name")).toHaveValue("city");

  // Delist: out of discover at once; relist: back.
  await page.getByRole("button", { name: "Delist" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Delisted" })).toBeVisible();
  expect(await inDiscover(request, endpointId)).toBeUndefined();
  await page.getByRole("button", { name: "Relist" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Relisted" })).toBeVisible();
  expect(await inDiscover(request, endpointId)).toBeDefined();

  // Someone else's endpoint is not found, on the page as in the API.
  await page.goto("/providers/dashboard/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
});

test("an unknown capability shows the API's suggestions, and stats show payments", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/capabilities/weather.currnt");
  await expect(page.getByTestId("unknown-capability")).toBeVisible();
  await expect(page.getByRole("link", { name: /weather/i }).first()).toBeVisible();
  await expect(page.getByTestId("unknown-capability").locator('a[href="/capabilities/weather.current"]')).toBeVisible();
  await checkPage(page, "capability-unknown");

  await page.goto("/stats");
  await expect(page.getByText("Paid calls, 7 d")).toBeVisible();
  await expect(page.getByTestId("payments-7d")).toHaveText(/^\d+$/);
  // every bar of the charts tells its value on hover
  const bars = page.getByRole("img", { name: "Discover requests per hour" }).locator("rect title");
  expect(await bars.count()).toBeGreaterThan(20);
});
