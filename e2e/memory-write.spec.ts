import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

/** Replaces everything in the record editor (Monaco) with `text`, as a paste would. */
async function replaceText(page: Page, text: string) {
  const box = page.getByTestId('record-editor-box');
  await expect(box).toHaveAttribute('data-engine', 'monaco', { timeout: 20_000 });
  await box.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

test('the PM creates a View, edits it to version 2, and sees a broken line marked instead of saved', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(forge.url);
  await page.getByTestId('nav-views').click();
  await expect(page.getByTestId('memory-row').first()).toBeVisible();

  // New: the editor opens on the View template, in Monaco.
  await page.getByTestId('memory-new').click();
  const editor = page.getByTestId('record-editor');
  await expect(editor).toContainText('New View');
  await expect(editor.locator('.monaco-editor .view-lines')).toContainText('confidence:', { timeout: 20_000 });
  const title = 'Term premium rebuilds in long-end USD';
  await replaceText(
    page,
    [
      `# new — ${title}`,
      'status: active',
      'confidence: 0.6',
      'scope: US rates',
      '---',
      '## SUMMARY',
      'Supply and fading QT demand push the 10y term premium up.',
    ].join('\n'),
  );
  await page.getByTestId('editor-save').click();

  // Saved: the list refreshes and the new View opens, as version 1 with the next id.
  const record = page.getByTestId('record-view');
  await expect(record.locator('h1')).toHaveText(title);
  const id = (await record.locator('.record-id').textContent())!;
  expect(id).toBe('V-007');
  await expect(page).toHaveURL(/#\/views\/V-007\.md$/);
  await expect(record.getByTestId('record-version')).toHaveText('version 1');
  await expect(page.locator('[data-testid="memory-row"][data-id="V-007"]')).toContainText(title);
  await expect(record.getByTestId('record-audit')).toContainText('You');

  // Edit: the record's own markdown, saved against version 1, becomes version 2.
  await record.getByTestId('record-edit').click();
  await expect(editor).toContainText('editing version 1');
  await expect(editor.locator('.monaco-editor .view-lines')).toContainText('confidence: 0.6', { timeout: 20_000 });
  await replaceText(
    page,
    [
      `# V-007 — ${title}`,
      'status: active',
      'confidence: 0.35',
      'scope: US rates',
      '---',
      '## SUMMARY',
      'Supply is absorbed better than feared; less conviction.',
    ].join('\n'),
  );
  await page.getByTestId('editor-save').click();
  await expect(record.getByTestId('record-version')).toHaveText('version 2');
  await expect(record.locator('.record-chips')).toContainText('confidence 0.35');
  await expect(record.getByTestId('history-version')).toHaveCount(1);

  // Broken markdown: line 3 is not `key: value`. The error names the line, the editor marks it, nothing is saved.
  await record.getByTestId('record-edit').click();
  await expect(editor).toContainText('editing version 2');
  await replaceText(page, [`# V-007 — ${title}`, 'status: active', 'confidence 0.9', '---', '## SUMMARY', 'x'].join('\n'));
  await page.getByTestId('editor-save').click();
  const parseError = page.getByTestId('editor-parse-error');
  await expect(parseError).toContainText('Line 3');
  await expect(parseError).toHaveAttribute('data-line', '3');
  await expect(page.getByTestId('record-editor-box')).toHaveAttribute('data-error-line', '3');
  await expect(editor.locator('.monaco-editor .squiggly-error')).toHaveCount(1);
  await page.screenshot({ path: join(screenshotDir, 'memory-write-parse-error.png') });

  // Cancel asks before dropping the unsaved (broken) text.
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('editor-cancel').click();
  await expect(record.getByTestId('record-version')).toHaveText('version 2');
  await expect(record.locator('.record-chips')).toContainText('confidence 0.35');

  // The one refused save is an HTTP 400 the browser logs; nothing else went wrong on the page.
  expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  await screenshotsInBothThemes(page, 'memory-write');
});

test('an Expression the PM writes is checked against the limits on save and lands proposed', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/expressions`);
  await expect(page.getByTestId('memory-row').first()).toBeVisible();
  await page.getByTestId('memory-new').click();
  const editor = page.getByTestId('record-editor');
  await expect(editor.locator('.monaco-editor .view-lines')).toContainText('status: proposed', { timeout: 20_000 });

  const draft = (maxLoss: number) =>
    [
      '# new — Pay 10y SOFR swaps',
      'view_id: V-004',
      'instrument: USD 10y SOFR swap (pay fixed)',
      'notional: 4',
      `max_loss_pct: ${maxLoss}`,
      'duration_impact: -0.4',
      'factor: oil',
      'status: active',
      '---',
      '## SUMMARY',
      'Pay 10y as the term premium rebuilds.',
    ].join('\n');
  await replaceText(page, draft(7.5));
  await page.getByTestId('editor-save').click();
  const row = page.getByTestId('editor-guardrail-error').locator('[data-testid="guardrail-violation"][data-rule="max_single_risk"]');
  await expect(row).toContainText('7.5 % of NAV');
  await expect(row).toContainText('5 % of NAV');
  await expect(page.getByTestId('editor-guardrail-error')).toContainText('Not saved');

  await replaceText(page, draft(0.5));
  await page.getByTestId('editor-save').click();
  const record = page.getByTestId('record-view');
  await expect(record.locator('h1')).toHaveText('Pay 10y SOFR swaps');
  // It claimed `active`; only an approval activates capital.
  await expect(record.locator('.record-chips .status-proposed')).toBeVisible();
  await expect(record.getByTestId('approval')).toBeVisible();
});
