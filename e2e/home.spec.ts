import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotDir, test, type ForgeServer } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

async function write(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, path: string, content: string): Promise<string> {
  const r = await request.post(`${forge.baseURL}/api/memory/write`, { data: { path, content }, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: { id: string }; error?: { message: string } };
  expect(body.ok, JSON.stringify(body.error)).toBe(true);
  return body.value!.id;
}

const proposedTrade =
  '# new — Receive USD 5y on softer payrolls\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y swap\nnotional: 10\nmax_loss_pct: 0.5\nduration_impact: 0.2\nfactor: usd_swaps\n---\n## SUMMARY\nA small receiver proposed for the PM to decide.\n';

test('the app opens on Home: the book against its limits, live approvals with the sidebar badge, each item opening its screen', async ({
  page,
  forge,
  request,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(forge.url);

  // No hash: the app opens on Home, and Home is first in the sidebar.
  const home = page.getByTestId('screen-home');
  await expect(home).toBeVisible();
  await expect(page.getByTestId('nav-home')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('a[data-nav]').first()).toHaveAttribute('data-testid', 'nav-home');

  // The seed book: gross 142.5 % of NAV against the 200 limit.
  const gross = page.locator('[data-testid="usage-bar"][data-rule="max_gross_exposure"]');
  await expect(gross.getByTestId('usage-value')).toHaveText('142.5');
  await expect(gross.getByTestId('usage-limit')).toHaveText('200');
  await expect(gross).toContainText('71 % used');
  await expect(page.getByTestId('usage-bar')).toHaveCount(4);
  // Figures line up on the right, like every table of numbers in the app.
  expect(
    await gross
      .locator('.usage-figures')
      .evaluate((el) => (el.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { textAlign: string } }).getComputedStyle(el).textAlign),
  ).toBe('right');

  // Nothing proposed in the seed: no badge, and Home says what to do next.
  await expect(page.getByTestId('home-awaiting')).toContainText(/Nothing awaits your approval/);
  await expect(page.getByTestId('expressions-badge')).toHaveCount(0);

  // An Expression is proposed elsewhere (here: through the API): Home and the badge follow without a reload.
  const id = await write(request, forge, '/memory/expressions/new.md', proposedTrade);
  const badge = page.getByTestId('nav-expressions').getByTestId('expressions-badge');
  await expect(badge).toHaveText(/^1/);
  const item = page.locator(`[data-testid="home-awaiting-item"][data-id="${id}"]`);
  await expect(item).toContainText('Receive USD 5y on softer payrolls');
  await expect(page.getByTestId('home-awaiting-count')).toHaveText('1');

  // A View whose invalidation fired is listed under Views needing attention.
  const viewId = await write(
    request,
    forge,
    '/memory/views/new.md',
    '# new — Oil stays above 90\nstatus: invalidated\nconfidence: 0.3\nscope: commodities\ncategory: macro_regime\nhorizon: 2027-06-30\n---\n## SUMMARY\nBrent fell through 80.\n',
  );
  await page.reload();
  const viewItem = page.locator(`[data-testid="home-view-item"][data-id="${viewId}"]`);
  await expect(viewItem).toContainText('invalidation fired');

  // The other cards answer too (empty states that say what to do, or their lists), none with an error.
  for (const card of ['tasks', 'proposals', 'schedule', 'review']) await expect(page.getByTestId(`home-${card}`)).toBeVisible();
  await expect(page.getByTestId('home-schedule-item').first()).toBeVisible();
  await expect(page.locator('[data-testid$="-error"]')).toHaveCount(0);

  await expect(page.getByTestId('status-health')).not.toContainText(/checking/i);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.screenshot({ path: join(screenshotDir, 'home-light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(screenshotDir, 'home-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // A click on an item opens it on its screen.
  await item.click();
  await expect(page.getByTestId('screen-expressions')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/expressions/${id}\\.md$`));
  await expect(page.getByTestId('record-view').locator('h1')).toContainText('Receive USD 5y');

  await page.getByTestId('nav-home').click();
  await viewItem.click();
  await expect(page).toHaveURL(new RegExp(`#/views/${viewId}\\.md$`));
  await expect(page.getByTestId('screen-views')).toBeVisible();

  await page.getByTestId('nav-home').click();
  await gross.click();
  await expect(page.getByTestId('screen-portfolio')).toBeVisible();

  await page.getByTestId('nav-home').click();
  await page.getByTestId('home-schedule-open').click();
  await expect(page.getByTestId('screen-schedule')).toBeVisible();
  expect(problems).toEqual([]);
  await screenshotsInBothThemes(page, 'home');
});
