import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

/** Script errors and CSP violations; an HTTP error status the test provokes on purpose is not one. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return problems;
}

async function openData(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('nav-data').click();
  await expect(page.getByTestId('screen-data')).toBeVisible();
  await expect(page).toHaveURL(/#\/data$/);
}

test('the sample market source is healthy and a test fetch shows what the analyst would read; a source without its key says why', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await openData(page, forge.url);

  const market = page.getByTestId('provider-market');
  await expect(market.getByTestId('provider-health')).toHaveText('Healthy');
  await expect(market.getByTestId('provider-enabled')).toBeChecked();
  await expect(market.getByTestId('provider-key')).toContainText('Alpha Vantage API key');
  await expect(market.getByTestId('provider-key-status')).toHaveText('Not set');
  await expect(market.getByTestId('provider-key-link')).toHaveAttribute('href', '#/settings');

  await market.getByTestId('test-fetch-open').click();
  const fetch = market.getByTestId('test-fetch-market');
  // The form comes from the provider's parameter schema: its descriptions are the hints.
  await expect(fetch.getByTestId('param-kind')).toBeVisible();
  await expect(fetch).toContainText('only the last N observations');
  // A required field left empty is caught before any request.
  await fetch.getByTestId('param-kind').selectOption('yield');
  await fetch.getByTestId('param-last').fill('5');
  await fetch.getByTestId('fetch-run').click();
  await expect(fetch.getByTestId('param-error-symbol')).toHaveText('symbol is required');
  await expect(fetch.getByTestId('fetch-result')).toHaveCount(0);

  await fetch.getByTestId('param-symbol').fill('UST10Y');
  await fetch.getByTestId('fetch-run').click();
  const result = fetch.getByTestId('fetch-result');
  await expect(result.getByTestId('fetch-label')).toHaveText(/^UST10Y yield \d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/);
  await expect(result.getByTestId('fetch-source')).toContainText('yields.csv');
  await expect(result.getByTestId('fetch-summary')).toContainText('US Treasury 10-year yield');
  await expect(result.getByTestId('fetch-summary')).toContainText('5 obs');
  // The full result is rendered as markdown: its data table has the five observations.
  await expect(result.getByTestId('fetch-full').locator('table tbody tr')).toHaveCount(5);
  const latest = (await result.getByTestId('fetch-as-of-result').textContent()) ?? '';
  expect(latest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await page.screenshot({ path: join(screenshotDir, 'data-test-fetch.png'), fullPage: true });

  // As of a past date, nothing later is used.
  await fetch.getByTestId('fetch-as-of').fill('2026-06-30');
  await fetch.getByTestId('fetch-run').click();
  await expect(result.getByTestId('fetch-as-of-result')).toHaveText(/^2026-06-(2\d|30)$/);
  // Before the sample begins there is nothing: one clear line says so.
  await fetch.getByTestId('fetch-as-of').fill('2020-01-01');
  await fetch.getByTestId('fetch-run').click();
  await expect(fetch.getByTestId('fetch-error')).toContainText('before the first observation');
  await expect(fetch.getByTestId('fetch-result')).toHaveCount(0);

  const economic = page.getByTestId('provider-economic');
  // Without a key FRED still serves any series by id (its graph CSV); search and vintages wait for the key.
  await expect(economic.getByTestId('provider-health')).toHaveText('Healthy');
  await expect(economic.getByTestId('provider-health-detail')).toContainText('FRED API key');
  await expect(economic.getByTestId('provider-key')).toContainText('FRED API key');
  await expect(economic.getByTestId('provider-key-status')).toHaveText('Not set');
  expect(problems).toEqual([]);
  await screenshotsInBothThemes(page, 'data');
});

test('the PM switches a source off and edits the news feeds, with mistakes shown on their row', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await openData(page, forge.url);

  const analytics = page.getByTestId('provider-analytics');
  await analytics.locator('.data-switch').click();
  await expect(analytics.getByTestId('provider-enabled')).not.toBeChecked();
  await expect(analytics.getByTestId('provider-health')).toHaveText('Off');
  await page.reload();
  await expect(page.getByTestId('provider-analytics').getByTestId('provider-health')).toHaveText('Off');
  await page.getByTestId('provider-analytics').locator('.data-switch').click();
  await expect(page.getByTestId('provider-analytics').getByTestId('provider-health')).toHaveText('Healthy');

  // A union of calculations: the selector comes first, then that calculation's own fields.
  const calc = page.getByTestId('provider-analytics');
  await calc.getByTestId('test-fetch-open').click();
  await calc.getByTestId('param-variant').selectOption('option_price');
  await calc.getByTestId('param-type').selectOption('call');
  for (const [name, value] of [
    ['underlying', '100'],
    ['strike', '100'],
    ['expiry_years', '1'],
    ['rate', '0.05'],
    ['vol', '0.2'],
  ]) {
    await calc.getByTestId(`param-${name}`).fill(value);
  }
  await calc.getByTestId('fetch-run').click();
  await expect(calc.getByTestId('fetch-summary')).toContainText('10.45');

  const news = page.getByTestId('provider-news');
  await expect(news.getByTestId('provider-health')).toHaveText('Not configured');
  await expect(news.getByTestId('provider-health-detail')).toContainText('No news feeds configured');
  const feeds = news.getByTestId('news-feeds');
  await feeds.getByTestId('feed-add').click();
  await feeds.getByTestId('feed-add').click();
  await feeds.getByTestId('feed-name-0').fill('Fed');
  await feeds.getByTestId('feed-url-0').fill('ftp://www.federalreserve.gov/feeds/press_all.xml');
  await feeds.getByTestId('feed-name-1').fill('fed');
  await feeds.getByTestId('feed-url-1').fill('https://www.ecb.europa.eu/rss/press.html');
  await feeds.getByTestId('feeds-save').click();
  await expect(feeds.getByTestId('feed-error-0-url')).toHaveText('Address must be an http(s) URL');
  await expect(feeds.getByTestId('feed-error-1-name')).toHaveText('Name same name as feed 1');
  await expect(feeds.getByTestId('feeds-saved')).toHaveCount(0);

  await feeds.getByTestId('feed-url-0').fill('https://www.federalreserve.gov/feeds/press_all.xml');
  await feeds.getByTestId('feed-name-1').fill('ECB');
  await feeds.getByTestId('feeds-save').click();
  await expect(feeds.getByTestId('feeds-saved')).toBeVisible();
  await expect(news.getByTestId('provider-health')).toHaveText('Healthy');
  await expect(news.getByTestId('provider-health-detail')).toContainText('Fed, ECB');
  await page.reload();
  await expect(page.getByTestId('provider-news').getByTestId('feed-name-1')).toHaveValue('ECB');
  expect(problems).toEqual([]);
});

test('the PM prices an option, solves its implied vol back, and fits a curve from six par bonds', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await openData(page, forge.url);

  // The sample: BSM call, spot 100, strike 100, 1 year, 5%, no dividend, 20% vol.
  const option = page.getByTestId('option-panel');
  const optionRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/analytics/option')) optionRequests.push(r.postData() ?? '');
  });
  await option.getByTestId('option-run').click();
  const table = option.getByTestId('option-table');
  await expect(table.locator('[data-key="price"] td.num')).toHaveText('10.4506');
  await expect(table.locator('[data-key="vol"] td.num')).toHaveText('20.00%');
  await expect(table.locator('[data-key="delta"] td.num')).toHaveText('0.6368');
  await expect(table.locator('[data-key="vega"] td.num')).toHaveText('0.3752');
  await expect(table.locator('[data-key="theta"] td.num')).toHaveText('−0.0176');
  const chart = option.getByTestId('option-chart');
  await expect(chart.locator('canvas')).toHaveAttribute('aria-label', /^Call value against the spot\. /);
  // Two lines: the value today across 25 spot levels and the payoff at expiry.
  await expect(chart.locator('.chart-key')).toHaveCount(2);
  await expect(chart.locator('.chart-key').first()).toHaveAttribute('data-points', '25');
  // One request prices the option, ONE more brings the whole 25-level line (not 25 more).
  expect(optionRequests).toHaveLength(2);
  expect((JSON.parse(optionRequests[1]!) as { spots?: number[] }).spots).toHaveLength(25);
  // chart.js has sized and drawn the canvas (its width attribute is set when it renders).
  await expect(chart.locator('canvas')).toHaveAttribute('width', /^[1-9]\d*$/);

  await option.getByTestId('option-solve-back').click();
  await expect(table.locator('[data-key="vol"] th')).toHaveText('Implied volatility');
  await expect(table.locator('[data-key="vol"] td.num')).toHaveText('20.00%');
  await expect(table.locator('[data-key="price"] td.num')).toHaveText('10.4506');

  // A price above the underlying has no implied vol: the pricer says why in one line.
  await option.getByTestId('opt-price').fill('120');
  await option.getByTestId('option-run').click();
  await expect(option.getByTestId('option-error')).toContainText('no-arbitrage bounds');

  const curve = page.getByTestId('curve-panel');
  await expect(curve.getByTestId('bond-row')).toHaveCount(6);
  await curve.getByTestId('curve-run').click();
  const zeros = curve.getByTestId('curve-zeros');
  await expect(zeros.locator('tbody tr')).toHaveCount(6);
  // Bootstrapped from the par coupons: the 6-month zero is the semi-annual 4.80% continuously compounded.
  await expect(zeros.locator('[data-key="0.5"] td').nth(1)).toHaveText('4.743%');
  await expect(zeros.locator('[data-key="30"] td').nth(1)).toHaveText('4.564%');
  await expect(zeros.locator('[data-key="30"] td').nth(4)).toHaveText('4.737%');
  await expect(curve.getByTestId('curve-rmse-ns')).toHaveText('0.68');
  await expect(curve.getByTestId('curve-chart').locator('.chart-key.is-dots')).toHaveAttribute('data-points', '6');
  await expect(curve.getByTestId('curve-chart').locator('canvas')).toHaveAttribute('aria-label', /^Zero curve\. /);
  await page.screenshot({ path: join(screenshotDir, 'data-analytics.png'), fullPage: true });

  // A typo is marked in its cell and nothing is sent.
  await curve.getByTestId('bond-1-coupon').fill('4,6');
  await curve.getByTestId('curve-run').click();
  await expect(curve.getByTestId('bond-error-1-coupon')).toHaveText('a coupon in %, 0 to 100');
  expect(problems).toEqual([]);
});
