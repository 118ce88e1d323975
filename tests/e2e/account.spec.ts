// A person's journey through accounts: sign in by e-mail (a real SMTP server on loopback receives the
// link), create an API key (shown once), use it on the API (the authenticated tier), revoke it (401).
import { expect, test } from "@playwright/test";
import { firstLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { E2E_SMTP_PORT } from "./support/env";
import { WIDE, checkPage } from "./support/page-checks";

test.use({ viewport: WIDE });

let smtp: TestSmtpServer;
test.beforeAll(async () => {
  // The server under test sends its sign-in e-mails here (EMAIL_SERVER in playwright.config.ts).
  smtp = await startSmtpServer(E2E_SMTP_PORT);
});
test.afterAll(async () => {
  await smtp?.stop();
});

const discover = { capability_id: "weather.current" };

test("sign in by e-mail, create a key, use it, revoke it", async ({ page, request }) => {
  const email = `e2e-${Math.random().toString(36).slice(2, 8)}@example.com`;

  // Without a session, /account sends people to the sign-in page first.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await checkPage(page, "account-signin");

  // A malformed address is refused on our side, with a message.
  await page.getByLabel("E-mail address").fill("not-an-address@");
  await page.getByLabel("E-mail address").evaluate((el: HTMLInputElement) => (el.type = "text"));
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "does not look like an e-mail address" })).toBeVisible();
  expect(smtp.messages).toHaveLength(0);

  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/signin\/check-email(\?|$)/);
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await checkPage(page, "account-check-email");

  const mail = await smtp.waitForMail(email);
  expect(mail.from).toBe("no-reply@capdex.test");
  expect(mail.text).toContain("Subject: Sign in to Capdex");
  const link = firstLink(mail);
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/auth\/callback\/nodemailer\?/);
  await page.goto(link!);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await expect(page.getByText("No keys yet.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "My submissions" })).toBeVisible();
  await checkPage(page, "account-signed-in");

  // The link works once.
  const reused = await request.get(link!, { maxRedirects: 0 });
  expect(reused.status()).toBe(302);
  expect(reused.headers().location).toMatch(/\/signin\?error=Verification/);

  // Create a key: shown once, with a copy button; the list shows only its prefix.
  await page.getByLabel("Name").fill("e2e agent");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key-value");
  await expect(shown).toHaveText(/^cdx_[0-9A-Za-z]{40}$/);
  const key = (await shown.textContent())!.trim();
  await expect(page.getByTestId("new-key").getByRole("button", { name: "Copy" })).toBeVisible();
  const row = page.locator(`tr[data-key-prefix="${key.slice(0, 12)}"]`);
  await expect(row).toContainText("e2e agent");
  await expect(row).toContainText("never");
  await expect(page.getByTestId("key-table")).not.toContainText(key.slice(12));
  await checkPage(page, "account-new-key");

  // The key makes API calls authenticated: the 10x tier shows in RateLimit-Policy.
  const used = await request.post("/api/discover", { headers: { authorization: `Bearer ${key}` }, data: discover });
  expect(used.status()).toBe(200);
  expect(used.headers()["ratelimit-policy"]).toBe('"discover";q=600;w=60');
  const anonymous = await request.post("/api/discover", { data: discover });
  expect(anonymous.headers()["ratelimit-policy"]).toBe('"discover";q=60;w=60');

  // Shown once: after a reload only the prefix is left, now with a "last used".
  await page.reload();
  await expect(page.getByTestId("new-key-value")).toHaveCount(0);
  await expect(row).not.toContainText("never");

  // Revoke: the key stops working.
  await row.getByRole("button", { name: /^Revoke e2e agent/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "The key is revoked" })).toBeVisible();
  await expect(row).toContainText("revoked");
  const refused = await request.post("/api/discover", { headers: { authorization: `Bearer ${key}` }, data: discover });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe("invalid_api_key");
  await checkPage(page, "account-revoked");

  // Sign out: /account asks for sign-in again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin/);
});
