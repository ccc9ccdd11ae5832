import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, type ForgeServer, screenshotDir, test } from './fixtures';

/**
 * Issue #27's "done means": a PM drops a Yahoo CSV and a Stooq CSV into their data folder, sees
 * the series on the Data screen, names one in an Expression, and "Check exits now" follows it —
 * the exit price and P&L are the file's, and the Expression page says the prices come from it.
 */

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'src-main', 'providers', 'fixtures');

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.code} ${body.error?.message}`);
  return body.value as T;
}

/** date → close, as the file says (Yahoo's `null` day left out). */
function closesOf(file: string): Map<string, number> {
  const [head, ...rows] = readFileSync(join(fixtures, file), 'utf8').trim().split(/\r?\n/);
  const at = head!.split(',').indexOf('Close');
  return new Map(
    rows
      .map((r) => r.split(','))
      .filter((c) => c[at] !== 'null')
      .map((c) => [c[0]!, Number(c[at])]),
  );
}

const trade = (title: string, series: string, entryDate: string, target: number, stop: number) =>
  `# new — ${title}\nstatus: proposed\nview_id: V-001\ninstrument: SPY\ndirection: long\nquote: price\nnotional: 5\nmax_loss_pct: 0.5\nduration_impact: 0.1\nfactor: equities\nprice_series: ${series}\nentry_date: ${entryDate}\ntarget: ${target}\nstop: ${stop}\n---\n## SUMMARY\n${title}, followed on the PM's own file.\n`;

async function writeAndApprove(request: APIRequestContext, forge: ForgeServer, content: string): Promise<string> {
  const w = await api<{ id: string }>(request, forge, 'memory/write', { path: '/memory/expressions/new.md', content });
  const approved = await api<{ approved: boolean; status: string }>(request, forge, 'expressions/approve', { id: w.id });
  expect(approved).toMatchObject({ approved: true, status: 'active' });
  return w.id;
}

async function testFetch(page: Page, dataset: string, column: string) {
  const card = page.getByTestId('provider-datasets');
  const form = card.getByTestId('test-fetch-datasets');
  if (!(await form.isVisible())) await card.getByTestId('test-fetch-open').click();
  await form.getByTestId('param-dataset').fill(dataset);
  await form.getByTestId('fetch-run').click();
  const result = form.getByTestId('fetch-result');
  await expect(result.getByTestId('fetch-source')).toHaveText(`csv datasets/${dataset}.csv`);
  await expect(result.getByTestId('fetch-full').locator('table thead')).toContainText(column);
  return result;
}

test("a Yahoo and a Stooq CSV dropped into the data folder are listed on the Data screen, named in Expressions, and Check exits now closes each on its file's closes", async ({
  page,
  forge,
  request,
}) => {
  // Three screens, two files, two trades and a tracking run: more than the default minute on a loaded machine.
  test.setTimeout(240_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

  // The PM's exports, as the vendors write them, dropped into <data>/datasets/ while Forge runs.
  const folder = join(forge.dataDir, 'datasets');
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(fixtures, 'yahoo-spy.csv'), join(folder, 'yahoo-spy.csv'));
  copyFileSync(join(fixtures, 'spy.us.csv'), join(folder, 'spy.us.csv'));
  const yahoo = closesOf('yahoo-spy.csv');
  const stooq = closesOf('spy.us.csv');
  // As the tracker works it (tracking/pnl.ts): % of the position × notional 5, to 0.01 bp.
  const pnlBp = (entry: number, exit: number) => Math.round((((exit - entry) * 100) / entry) * 5 * 100) / 100;

  // Data screen → Your data folder: both files listed with their dated series, named as an Expression names them.
  await page.goto(`${forge.url}#/data`);
  const listed = page.getByTestId('data-folder');
  await expect(listed.getByTestId('data-folder-path')).toHaveText(folder);
  const yFile = listed.locator('[data-testid="data-file"][data-file="yahoo-spy.csv"]');
  await expect(yFile.getByTestId('data-file-dataset')).toContainText('2024-03-25 to 2024-04-02');
  await expect(yFile.getByTestId('data-file-dataset')).toContainText('yahoo-spy.Close, yahoo-spy.Adj_Close');
  const sFile = listed.locator('[data-testid="data-file"][data-file="spy.us.csv"]');
  await expect(sFile.getByTestId('data-file-dataset')).toContainText('2024-01-29 to 2024-02-05');
  await expect(sFile.getByTestId('data-file-dataset')).toContainText('spy.us.Close');
  await expect(listed.getByTestId('data-file-problem')).toHaveCount(0);
  // A test fetch reads the Yahoo file as the analyst and the tracker will: the `null` day is missing, not 0.
  const y = await testFetch(page, 'yahoo-spy', 'Adj Close');
  await expect(y.getByTestId('fetch-as-of-result')).toHaveText('2024-04-02');
  await expect(y.getByTestId('fetch-summary')).toContainText('1 missing');
  await page.screenshot({ path: join(screenshotDir, 'own-data-folder.png'), fullPage: true });

  // Two Expressions, one on each file, naming the series as the Data screen lists them: long SPY from each file's first day.
  const onYahoo = await writeAndApprove(request, forge, trade('Long SPY (Yahoo export)', 'yahoo-spy.Close', '2024-03-25', 523, 500));
  const onStooq = await writeAndApprove(request, forge, trade('Long SPY (Stooq export)', 'spy.us.Close', '2024-01-29', 510, 485));

  // Before the check, the page says where its prices come from, as the tracker will read them.
  await page.goto(`${forge.url}#/expressions/${onYahoo}`);
  const prices = page.getByTestId('expression-prices');
  await expect(prices.getByTestId('price-source-followed')).toContainText('Your data folder: datasets/yahoo-spy.csv');
  await expect(prices.getByTestId('price-source-followed')).toContainText(`as of 2024-04-02: last close ${yahoo.get('2024-04-02')} on 2024-04-02`);
  // And what "Check exits now" will do with it, worked from that file by the tracker's own code.
  await expect(prices.getByTestId('price-source-tracker')).toContainText(
    `would close it at its target on 2024-03-27 at ${yahoo.get('2024-03-27')}: +${pnlBp(yahoo.get('2024-03-25')!, yahoo.get('2024-03-27')!)} bp of NAV`,
  );
  await prices.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'own-data-expression.png'), fullPage: true });
  // The section a PM reads to trust the figures must be readable with a screen reader and in contrast.
  const axe = await new AxeBuilder({ page }).include('[data-testid="expression-prices"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // "Check exits now": the Yahoo trade reaches 523 on 03-27 (523.169983), the Stooq one its stop on 01-31 (482.88).
  await page.goto(`${forge.url}#/calibration`);
  await page.getByTestId('tracking-run').click();
  const result = page.getByTestId('tracking-result');
  const yEntry = yahoo.get('2024-03-25')!;
  const yExit = yahoo.get('2024-03-27')!;
  const sEntry = stooq.get('2024-01-29')!;
  const sExit = stooq.get('2024-01-31')!;
  await expect(result).toContainText(`${onYahoo} (target on 2024-03-27 at ${yExit} (+${pnlBp(yEntry, yExit)} bp, OUT-`);
  await expect(result).toContainText('read from yahoo-spy.Close (csv datasets/yahoo-spy.csv)');
  await expect(result).toContainText(`${onStooq} (stop on 2024-01-31 at ${sExit} (${pnlBp(sEntry, sExit)} bp, OUT-`);
  await expect(result).toContainText('read from spy.us.Close (csv datasets/spy.us.csv)');
  await page.screenshot({ path: join(screenshotDir, 'own-data-check-exits.png'), fullPage: true });

  // The closed trade's page: closed, priced from that file, the exit written from it.
  await page.goto(`${forge.url}#/expressions/${onYahoo}`);
  await expect(page.getByTestId('expression-page').locator('.chip.status')).toHaveText('closed');
  await expect(prices.getByTestId('price-source-recorded')).toContainText(
    'Closed by the tracker on yahoo-spy.Close from datasets: datasets/yahoo-spy.csv, as of 2024-04-02',
  );
  const record = await api<{ content: string }>(request, forge, 'memory/read', { path: `/memory/expressions/${onYahoo}.md`, depth: 'full' });
  expect(record.content).toContain(`exit_price: ${yExit}`);
  expect(record.content).toContain(`entry_price: ${yEntry}`);
  expect(problems).toEqual([]);
});
