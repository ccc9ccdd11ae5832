import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotDir, test, type ForgeServer } from './fixtures';
import { join } from 'node:path';
import { screenshotsInBothThemes } from './shots';

async function api<T>(
  request: APIRequestContext,
  forge: Pick<ForgeServer, 'baseURL' | 'token'>,
  name: string,
  input: unknown = {},
): Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  return (await r.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
}

const trade = (n: number) =>
  `# new — PM trade ${n}\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y swap\nnotional: 30\nmax_loss_pct: 1.5\nduration_impact: 0.5\nfactor: commodities\n---\n## SUMMARY\nPM-written trade ${n}.\n`;

test('three PM-written 30%-notional Expressions approved in turn: one goes live, the next is refused naming gross 202.5 vs 200, and the Portfolio screen follows live', async ({
  page,
  forge,
  request,
}) => {
  await page.goto(`${forge.url}#/portfolio`);
  const gross = page.getByTestId('portfolio-state').locator('[data-key="gross"] dd');
  await expect(gross).toHaveText('142.5');

  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    const w = await api<{ id: string; path: string }>(request, forge, 'memory/write', { path: '/memory/expressions/new.md', content: trade(n) });
    expect(w.ok, JSON.stringify(w.error)).toBe(true);
    ids.push(w.value!.id);
  }
  const first = await api<{ approved: boolean; status: string }>(request, forge, 'expressions/approve', { id: ids[0] });
  expect(first.value).toMatchObject({ approved: true, status: 'active' });
  // No reload: the core pushes portfolio/changed and the screen refetches the computed book.
  await expect(gross).toHaveText('172.5');
  await expect(page.getByTestId('guardrail-limits').locator('[data-key="max_gross"]')).toContainText('172.5 % of NAV');

  const second = await api<{ approved: boolean; violations: { rule: string; actual: number; limit: number }[] }>(request, forge, 'expressions/approve', {
    id: ids[1],
  });
  expect(second.value?.approved).toBe(false);
  expect(second.value?.violations).toEqual([expect.objectContaining({ rule: 'max_gross_exposure', actual: 202.5, limit: 200 })]);
  const book = await api<{ gross: number }>(request, forge, 'portfolio/book');
  expect(book.value?.gross).toBe(172.5);
  await expect(page.getByTestId('book-open').getByTestId('open-expression')).toHaveCount(4);
  await screenshotsInBothThemes(page, 'portfolio');
});

test('the PM imports positions from a CSV: a bad file names row and column and changes nothing; a good one replaces the snapshot', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/portfolio`);
  const form = page.getByTestId('import-positions');
  await form.getByTestId('import-file').setInputFiles({
    name: 'positions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('instrument,factor,exposure_pct_nav,duration\nUST 10y,us_rates,60,2\nEUR/USD,fx,sixty,0\n'),
  });
  await form.getByTestId('import-submit').click();
  await expect(form.getByTestId('import-error')).toContainText('Row 3, column exposure_pct_nav: "sixty" is not a number.');
  await expect(page.getByTestId('portfolio-state').locator('[data-key="gross"] dd')).toHaveText('142.5');

  await form.getByTestId('import-file').setInputFiles({
    name: 'positions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('instrument,factor,exposure_pct_nav,duration\nUST 10y,us_rates,60,2\nEUR/USD,fx,-20,0\n'),
  });
  await form.getByTestId('import-as-of').fill('2026-11-23');
  await form.getByTestId('import-submit').click();
  await expect(form.getByTestId('import-done')).toContainText('Imported 2 positions');
  // The seed's three Expressions predate the new snapshot: it holds them, so gross is the file's 80.
  await expect(page.getByTestId('portfolio-state').locator('[data-key="gross"] dd')).toHaveText('80.0');
  await expect(page.getByTestId('portfolio-snapshot').locator('.markdown table')).toContainText('UST 10y');
  await page.screenshot({ path: join(screenshotDir, 'portfolio-imported.png'), fullPage: true });
});
