import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, type ForgeServer, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

/** Full-page screenshots in both themes (the app follows the system scheme unless overridden). */
async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(screenshotDir, `${name}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

test('Ctrl+K opens the palette; typing E-001 and Enter opens that Expression; Esc closes and focus returns', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await page.goto(`${forge.url}#/views`);
  await expect(page.getByTestId('memory-row').first()).toBeVisible();

  // Focus on a sidebar link, then open and close the palette: focus comes back to it.
  const viewsLink = page.getByTestId('nav-views');
  await viewsLink.focus();
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  await expect(palette).toHaveAttribute('aria-modal', 'true');
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  await expect(palette.getByRole('option').first()).toContainText('Go to');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expect(viewsLink).toBeFocused();

  // Fuzzy: "calib" puts the Calibration screen first; arrows move the highlight.
  await page.keyboard.press('Control+K');
  await input.fill('calib');
  await expect(palette.getByRole('option').first()).toHaveText(/Go to Calibration/);
  await expect(palette.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');

  // Jump to a record by id.
  await input.fill('E-001');
  const first = palette.getByRole('option').first();
  await expect(first).toContainText('Open E-001');
  await expect(input).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await shoot(page, 'palette-open');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(/#\/expressions\/E-001$/);
  await expect(page.getByTestId('expression-page').getByTestId('record-page-id')).toHaveText('E-001');

  // An action: "Start a build" lands on the Builds screen's start form.
  await page.keyboard.press('Control+K');
  await input.fill('start a build');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/builds$/);
  await expect(page.getByTestId('build-start-form')).toBeVisible();

  // ? lists the shortcuts when not typing; Esc closes it.
  await page.getByTestId('nav-views').focus();
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Open the command palette');
  await shoot(page, 'palette-shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // "Search memory" lands on Views with the search box focused; typing ? there types it, no overlay.
  await page.keyboard.press('Control+K');
  await input.fill('search memory');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/views$/);
  await expect(page.getByTestId('memory-search')).toBeFocused();
  await page.keyboard.press('Shift+?');
  await expect(help).toBeHidden();
  await expect(page.getByTestId('memory-search')).toHaveValue('?');
  expect(problems).toEqual([]);
  await screenshotsInBothThemes(page, 'palette');
});

test('a double-click on Reject records one rejection and shows no error', async ({ page, forge, request }) => {
  const problems = watchProblems(page);
  const content =
    '# new — Palette test receiver\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y swap\nnotional: 10\nmax_loss_pct: 1\nduration_impact: 0.3\nfactor: usd_swaps\n---\n## SUMMARY\nA trade to reject twice.\n';
  const w = await api<{ id: string }>(request, forge, 'memory/write', { path: '/memory/expressions/new.md', content });
  const id = w.id;

  // Jump there through the palette, as a PM would.
  await page.goto(`${forge.url}#/views`);
  await expect(page.getByTestId('memory-row').first()).toBeVisible();
  await page.keyboard.press('Control+K');
  await page.getByRole('combobox').fill(id);
  await page.keyboard.press('Enter');
  const record = page.getByTestId('expression-page');
  await expect(record.locator('.record-id')).toHaveText(id);

  await record.getByTestId('reject').click();
  await record.getByTestId('reject-reason').fill('Duplicate of an existing USD receiver');
  await expect(record.getByTestId('reject-reason-count')).toHaveText('37 / 300 characters');
  await record.getByTestId('reject-confirm').dblclick();
  await expect(record.getByTestId('approval-done')).toContainText(`Rejected: ${id} is now rejected.`);
  await expect(record.locator('.record-page-facts .status-rejected')).toBeVisible();
  await expect(page.locator('.error-panel')).toHaveCount(0);
  await shoot(page, 'palette-rejected-once');

  // The same decision again through the API (a retry after a lost reply) is success, not a conflict.
  const again = await api<{ status: string; counterfactual: string | null; message: string }>(request, forge, 'expressions/reject', { id, reason: 'again' });
  expect(again.status).toBe('rejected');
  expect(again.message).toContain('already rejected');

  const audit = await api<{ entries: { operation: string; actor: string }[] }>(request, forge, 'memory/audit', { path: `/memory/expressions/${id}.md` });
  expect(audit.entries.filter((e) => e.operation === 'reject')).toHaveLength(1);
  expect(audit.entries.map((e) => e.operation)).not.toContain('update');
  const cfs = await api<{ entries: { id: string | null }[] }>(request, forge, 'memory/list', { path: '/memory/counterfactuals/', query: `expression:${id}` });
  expect(cfs.entries).toHaveLength(1);
  expect(again.counterfactual).toBe(cfs.entries[0]!.id);
  expect(problems).toEqual([]);
});
