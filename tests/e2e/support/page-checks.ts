// Checks every portal spec runs on each page it visits: axe (no serious or critical violations),
// cumulative layout shift, and screenshots at phone and wide sizes under test-results/portal/.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const WIDE = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };
const SHOTS = "test-results/portal";

/** Fails on any serious or critical axe violation, listing each with its elements. */
export async function expectAccessible(page: Page, label: string) {
  // After a server action Next re-renders the page and streams its metadata back in: wait (up to the
  // expect timeout) for the <title>, which still fails a page that has none.
  await expect(page, `title on ${label}`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join("\n  ")}`);
  expect(report, `axe on ${label}`).toEqual([]);
}

/** Layout shift since the page loaded (Chromium's layout-shift entries, as CLS counts them). */
export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
            if (!e.hadRecentInput) total += e.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        // buffered entries are delivered in the next task
        setTimeout(() => resolve(total), 50);
      }),
  );
}

/** Screenshots of the whole page at the wide and the phone size; the page is left at the wide size. */
export async function screenshots(page: Page, name: string) {
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `${SHOTS}/${name}-wide.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  // Nothing may stick out sideways on a phone (tables scroll inside their own box).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a phone screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(WIDE);
}

/**
 * All of it: accessible and photographed, and, for a page just loaded, stable. A state reached by
 * pressing something (`afterAction`) is expected to change the layout, so shift is not measured.
 */
export async function checkPage(page: Page, name: string, opts: { afterAction?: boolean } = {}) {
  if (!opts.afterAction) expect(await layoutShift(page), `layout shift on ${name}`).toBeLessThan(0.05);
  await expectAccessible(page, name);
  await screenshots(page, name);
}
