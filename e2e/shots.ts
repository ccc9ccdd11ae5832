import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';

/**
 * Full-page screenshots of the current screen in both themes, under test-results/screens/, so a
 * reviewer can see every screen light and dark after a run. The app follows the system theme by
 * default, so emulating the colour scheme switches it without touching the PM's settings.
 */
export async function screenshotsInBothThemes(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screens', { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // A selector, not waitForFunction: a string predicate is polled with eval, which the app's CSP
    // refuses — a page error that failed the screens spec whenever the theme was slow to switch.
    await page
      .locator(`html[data-theme="${scheme}"]`)
      .waitFor({ state: 'attached', timeout: 5_000 })
      .catch(() => undefined);
    await page.screenshot({ path: `test-results/screens/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}
