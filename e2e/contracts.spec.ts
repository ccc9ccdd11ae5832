import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * The Contracts screen as a PM uses it: open a project's physics.yaml, type a YAML error and see it
 * underlined and listed with Save off, fix it, save (a new version), compare with the old one, and
 * find the new text still there after a reload. A project folder is used so the run never edits
 * Forge's own contracts.
 */

/** Serious and critical accessibility findings on the screen, in light and dark. */
async function accessibilityFindings(page: Page, exclude?: string): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const axe = new AxeBuilder({ page }).include('[data-testid="screen-contracts"]');
    if (exclude) axe.exclude(exclude);
    const result = await axe.analyze();
    for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
      out.push(`[${scheme}] ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  await page.emulateMedia({ colorScheme: null });
  return out;
}

const PHYSICS = 'paths:\n  /api/ping:\n    method: POST\n    summary: Answers pong\n';

test('edit a contract: a YAML error shows inline and blocks Save; the fix saves as a new version that survives a reload', async ({ page, forge }) => {
  // Two full accessibility scans in two themes beside Monaco: slow on a shared machine, bounded still.
  test.setTimeout(180_000);
  const project = mkdtempSync(join(tmpdir(), 'forge-e2e-project-'));
  const contracts = join(project, 'Forge', 'Contracts');
  mkdirSync(contracts, { recursive: true });
  writeFileSync(join(contracts, 'physics.yaml'), PHYSICS);
  writeFileSync(join(contracts, 'stack.md'), '# Stack\n\nNode 22.\n');
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  try {
    await page.goto(forge.url);
    await page.getByTestId('nav-contracts').click();
    await expect(page.getByTestId('screen-contracts')).toBeVisible();
    // Forge's own contracts are listed first (what attached IDEs read).
    await expect(page.getByTestId('contracts-list')).toContainText('boundaries.json');
    await screenshotsInBothThemes(page, 'contracts-forge');

    await page.getByTestId('contracts-scope').selectOption('folder');
    await page.getByTestId('contracts-folder').fill(project);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page.getByTestId('contracts-list')).toContainText('stack.md');
    await page.getByRole('button', { name: /physics\.yaml/ }).click();
    await expect(page).toHaveURL(/#\/contracts\/physics\.yaml$/);
    const editor = page.getByTestId('contract-editor');
    await expect(editor).toHaveAttribute('data-engine', 'monaco');
    await expect(editor.locator('.view-lines')).toContainText('Answers pong');
    const save = page.getByTestId('contract-save');
    await expect(save).toBeDisabled();

    // A YAML error typed at the end: underlined in the editor, listed below with its line, Save off.
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('extra: a: b');
    // Close Monaco's word suggestions, which could otherwise take the next key.
    await page.keyboard.press('Escape');
    const problems = page.getByTestId('contract-problems');
    await expect(problems).toContainText('YAML syntax');
    await expect(problems.locator('.contract-problem-where').first()).toHaveText(/^5:/);
    await expect(editor.locator('.squiggly-error').first()).toBeVisible();
    await expect(save).toBeDisabled();
    await screenshotsInBothThemes(page, 'contracts-yaml-error');
    expect(await accessibilityFindings(page)).toEqual([]);

    // Fixed: no problems, Save on, saved as version 2 (version 1 keeps the text it replaced).
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < ' a: b'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(' fine');
    await page.keyboard.press('Escape');
    await expect(problems).toContainText('No problems');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByTestId('contract-notice')).toHaveText('Saved as version 2.');
    await expect(save).toBeDisabled();
    expect(readFileSync(join(contracts, 'physics.yaml'), 'utf8')).toBe(`${PHYSICS}extra: fine`);

    const versions = page.getByTestId('contract-versions');
    await expect(versions.locator('li')).toHaveCount(2);
    await versions.locator('li').filter({ hasText: 'v1' }).getByRole('button', { name: 'Compare' }).click();
    await expect(page.getByTestId('contract-diff')).toHaveAttribute('data-engine', 'monaco');
    await expect(page.getByTestId('contract-diff')).toContainText('Version 1');
    await screenshotsInBothThemes(page, 'contracts-saved');
    // Monaco's own diff colours (syntax colours on its green inserted-line background) are left out
    // of the scan: they are the editor's theme, not this screen's; everything else is held to it.
    expect(await accessibilityFindings(page, '[data-testid="contract-diff"] .view-lines')).toEqual([]);

    // After a reload the same project and contract open, with the saved text.
    await page.reload();
    await expect(page.getByTestId('contract-name')).toHaveText('physics.yaml');
    await expect(page.getByTestId('contract-editor').locator('.view-lines')).toContainText(/extra:\s+fine/);
    await expect(page.getByTestId('contract-panel')).toContainText('Version 2');
    expect(pageErrors).toEqual([]);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
