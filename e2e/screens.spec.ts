import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

const screens = [
  'home',
  'chat',
  'views',
  'expressions',
  'tasks',
  'proposals',
  'calibration',
  'schedule',
  'builds',
  'contracts',
  'skills',
  'portfolio',
  'data',
  'mcp',
  'settings',
] as const;

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

test('every screen is reachable from the sidebar and keeps its place on reload', async ({ page, forge }) => {
  // Fifteen screens, each shot in both themes: ~35 s on a quiet machine, so a loaded one gets room.
  test.setTimeout(240_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(forge.url);
  await expect(page.getByTestId('app-frame')).toBeVisible();
  for (const screen of screens) {
    await page.getByTestId(`nav-${screen}`).click();
    await expect(page.getByTestId(`screen-${screen}`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#/${screen}$`));
    await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
    // Let lists and health settle so the screenshot shows the screen as a PM sees it.
    await expect(page.getByTestId('status-health')).not.toContainText(/checking/i);
    await page.screenshot({ path: join(screenshotDir, `${screen}.png`) });
    await screenshotsInBothThemes(page, `screen-${screen}`);
  }
  await page.reload();
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  // Every screen is built now: none says "coming in a later release".
  for (const screen of ['contracts', 'builds', 'proposals'] as const) {
    await page.getByTestId(`nav-${screen}`).click();
    await expect(page.getByTestId(`screen-${screen}`)).toBeVisible();
    await expect(page.getByTestId(`screen-${screen}`)).not.toContainText(/coming in a later release/i);
  }
  // No script errors, CSP violations or failed loads along the way.
  expect(problems).toEqual([]);
});

test('the sidebar can be driven from the keyboard', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/views`);
  await page.getByTestId('nav-views').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('nav-expressions')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('screen-expressions')).toBeVisible();
});

test('the Views screen lists the demo Views and opens one with its history', async ({ page, forge }) => {
  await page.goto(forge.url);
  await page.getByTestId('nav-views').click();
  const rows = page.getByTestId('memory-row');
  await expect(rows.first()).toBeVisible();
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  expect(ids).toEqual(expect.arrayContaining(['V-001', 'V-002', 'V-003', 'V-004', 'V-005', 'V-006']));
  // Table columns: scope, confidence, status.
  await expect(page.locator('[data-testid="memory-row"][data-id="V-001"]')).toContainText('0.70');

  await page.locator('[data-testid="memory-row"][data-id="V-001"]').click();
  const record = page.getByTestId('record-view');
  await expect(record).toBeVisible();
  await expect(record.locator('h1')).toContainText('Fed cuts');
  // The body is rendered markdown: section headings and bullet lists, not raw '##' or '- '.
  await expect(record.locator('.markdown h2', { hasText: 'SCENARIOS' })).toBeVisible();
  await expect(record.locator('.markdown li').first()).toBeVisible();
  await expect(record).not.toContainText('## SUMMARY');
  await expect(page.getByTestId('record-history')).toContainText(/current/i);
  await expect(page).toHaveURL(/#\/views\/V-001\.md$/);
  await page.screenshot({ path: join(screenshotDir, 'views-record.png') });

  // A reload reopens the same record.
  await page.reload();
  await expect(page.getByTestId('record-view').locator('h1')).toContainText('Fed cuts');

  // Keyboard: the arrow keys move the cursor to the neighbouring row; Enter opens it.
  const order = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  const at = order.indexOf('V-001');
  const [key, neighbour] = at > 0 ? ['ArrowUp', order[at - 1]] : ['ArrowDown', order[at + 1]];
  await page.getByTestId('memory-list').focus();
  await page.keyboard.press(key!);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/views/${neighbour}\\.md$`));
  await expect(page.getByTestId('record-view').locator('.record-id')).toHaveText(neighbour!);
});

test('a query filters the list and a bad query shows the error inline', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/views`);
  const rows = page.getByTestId('memory-row');
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();

  await page.getByTestId('memory-query').fill('confidence>=0.7');
  await expect.poll(() => rows.count()).toBeLessThan(all);
  await expect(page.getByTestId('memory-query-error')).toHaveCount(0);

  await page.getByTestId('memory-query').fill('confidence>=');
  const error = page.getByTestId('memory-query-error');
  await expect(error).toBeVisible();
  await expect(error).not.toHaveText('');
  await expect(page.getByTestId('memory-query')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: join(screenshotDir, 'views-query-error.png') });

  await page.getByTestId('memory-query').fill('');
  await expect(error).toHaveCount(0);
  await expect.poll(() => rows.count()).toBe(all);
});

test('the Expressions screen links an Expression to its View', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/expressions`);
  await page.locator('[data-testid="memory-row"][data-id="E-001"]').click();
  const record = page.getByTestId('record-view');
  await expect(record.locator('h1')).toContainText('SOFR');
  await record.getByRole('link', { name: 'V-001' }).first().click();
  await expect(page.getByTestId('screen-views')).toBeVisible();
  await expect(page.getByTestId('record-view').locator('h1')).toContainText('Fed cuts');
});

test('settings: a bad value is shown next to its field, secrets show only set / not set', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/settings`);
  await expect(page.getByTestId('settings-form')).toBeVisible();

  await page.getByTestId('setting-sessionTimeoutMinutes').fill('0');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('setting-error-sessionTimeoutMinutes')).toBeVisible();
  await expect(page.getByTestId('settings-saved')).toHaveCount(0);
  await page.getByTestId('setting-sessionTimeoutMinutes').fill('45');
  await page.getByTestId('setting-theme').selectOption('dark');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await expect(page.getByTestId('secret-status-voyageApiKey')).toHaveText('Not set');
  await page.getByTestId('secret-voyageApiKey').fill('vk-test-1234567890');
  await page.getByTestId('secret-save-voyageApiKey').click();
  await expect(page.getByTestId('secret-status-voyageApiKey')).toHaveText('Set');
  await expect(page.getByTestId('secret-voyageApiKey')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText('vk-test-1234567890');
  await page.screenshot({ path: join(screenshotDir, 'settings-dark.png'), fullPage: true });
  await page.getByTestId('secret-clear-voyageApiKey').click();
  await expect(page.getByTestId('secret-status-voyageApiKey')).toHaveText('Not set');
});

test('settings show the search index and rebuild it on request', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/settings`);
  const card = page.getByTestId('search-index');
  await expect(card).toContainText(/indexed/i);
  await expect(page.getByTestId('search-index-queued')).toHaveText('none');
  // Keyword ranking is TypeScript, the same on every target: the PM sees the exact in-memory ranking in use.
  await expect(page.getByTestId('search-index-ranking')).toHaveText(/^exact BM25, in memory/);
  await page.getByTestId('search-reindex').click();
  await expect(card).toContainText(/rebuilt \d+ notes/i, { timeout: 30_000 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'settings-search-index.png') });
});

test('the status bar says when live updates are disconnected', async ({ page, forge }) => {
  await page.goto(forge.url);
  const events = page.getByTestId('status-events');
  await expect(events).toHaveAttribute('data-state', 'connected');
  await expect(events).toContainText(/live/i);
  // The server goes away (a restart moves it to a new port): the window must not pretend to be live.
  await forge.restart();
  await expect(events).toHaveAttribute('data-state', 'disconnected');
  await expect(events).toContainText(/disconnected/i);
  await expect(page.getByTestId('status-health')).toContainText(/unreachable/i, { timeout: 30_000 });
  await page.screenshot({ path: join(screenshotDir, 'disconnected.png') });
});

test('search by meaning ranks records with scores, within a chosen scope', async ({ page, request, forge }) => {
  const probe = await request.post(`${forge.baseURL}/api/memory/search`, {
    data: { scope: '/memory/views/', query: 'inflation' },
    headers: { authorization: `Bearer ${forge.token}` },
  });
  // The procedure is part of the contract: a build without it is broken, not "not ready yet".
  expect(probe.status(), 'POST /api/memory/search must exist and answer').toBe(200);
  expect(((await probe.json()) as { ok: boolean }).ok).toBe(true);

  await page.goto(`${forge.url}#/views`);
  await page.getByTestId('memory-search').fill('central bank cutting rates');
  const hits = page.getByTestId('search-result');
  await expect(hits.first()).toBeVisible();
  const scores = await page.getByTestId('search-score').allInnerTexts();
  const values = scores.map((s) => Number(s.trim()));
  expect(values.every((v) => Number.isFinite(v))).toBe(true);
  expect([...values].sort((a, b) => b - a)).toEqual(values);
  expect(await hits.evaluateAll((els) => els.every((e) => (e.getAttribute('data-id') ?? '').startsWith('V-')))).toBe(true);

  // Widening the scope to all memory can bring in other kinds of notes.
  await page.getByTestId('search-scope-all').click();
  await expect(page.getByTestId('search-scope-all')).toHaveAttribute('aria-pressed', 'true');
  await expect(hits.first()).toBeVisible();
  await hits.first().click();
  await expect(page.getByTestId('record-view')).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'views-search.png') });
});
