import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

/** A broker note with markup in it: the Memory screen must show it as text, never run it. */
const NOTE = [
  '---',
  'title: ECB weekly',
  'date: 2025-10-02',
  '---',
  '## Rates outlook',
  '',
  'We expect the deposit rate to reach 1.75 percent by March as the ECB keeps cutting. <img src=x onerror="window.__pwned = 1"> Desk commentary covers positioning flows and liquidity across sessions.',
].join('\n');

test('the Research chip searches broker notes; a hit opens its passage as plain text with its citation', async ({ page, forge }) => {
  mkdirSync(join(forge.dataDir, 'research'), { recursive: true });
  writeFileSync(join(forge.dataDir, 'research', 'ecb-weekly.md'), NOTE);

  await page.goto(`${forge.url}#/views`);
  await page.getByTestId('memory-search').fill('ECB deposit rate cutting');
  await page.getByTestId('search-scope-research').click();
  await expect(page.getByTestId('search-scope-research')).toHaveAttribute('aria-pressed', 'true');
  const hit = page.getByTestId('search-result').first();
  await expect(hit).toContainText('[ecb-weekly.md § Rates outlook]');
  await hit.click();

  const view = page.getByTestId('passage-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('passage-citation')).toHaveText('[ecb-weekly.md § Rates outlook]');
  await expect(page.getByTestId('passage-text')).toContainText('<img src=x onerror="window.__pwned = 1">');
  await expect(view.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  await page.screenshot({ path: join(screenshotDir, 'research-passage.png') });
  await screenshotsInBothThemes(page, 'research-search');
});
