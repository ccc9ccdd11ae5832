import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

const PUBLISHED = fileURLToPath(new URL('../src-main/skills/fixtures/published-skills/csv-insights', import.meta.url));

/** settings.json as saved, or undefined while the first save has not landed yet. */
function savedSettings(dataDir: string): { allowedSkillScripts?: string[] } | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const bundled = [
  'attention-allocation',
  'context-retrieval',
  'event-analysis',
  'expression-design',
  'portfolio-review',
  'portfolio-synthesis',
  'retrospective',
  'rv-analysis',
  'scenario-analysis',
  'view-validation',
];

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

test('the Skills screen lists the ten skills and opens SKILL.md and a reference in the read-only editor', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(forge.url);
  await page.getByTestId('nav-skills').click();
  await expect(page.getByTestId('screen-skills')).toBeVisible();

  const rows = page.getByTestId('skill-row');
  await expect(rows).toHaveCount(10);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(bundled);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(bundled.map(() => 'valid'));
  await expect(page.getByTestId('skills-summary')).toContainText('10 skills');

  await page.locator('[data-testid="skill-row"][data-name="view-validation"]').click();
  await expect(page).toHaveURL(/#\/skills\/view-validation$/);
  const detail = page.getByTestId('skill-detail');
  await expect(detail.getByTestId('skill-state')).toHaveText('Valid');
  await expect(detail.getByTestId('skill-readonly-note')).toContainText(/proposals/i);

  // The editor is Monaco (not the plain fallback), shows SKILL.md's text and refuses typing.
  const editor = page.getByTestId('skill-editor');
  await expect(editor).toHaveAttribute('data-engine', 'monaco', { timeout: 20_000 });
  const lines = editor.locator('.monaco-editor .view-lines');
  await expect(lines).toContainText('name: view-validation');
  await expect(lines).toContainText('description:');
  await page.screenshot({ path: join(screenshotDir, 'skills.png') });
  await editor.locator('.monaco-editor .view-lines').click();
  await page.keyboard.type('zzz');
  await expect(lines).not.toContainText('zzz');

  // A reference opens in the same editor, and the address keeps it for a reload.
  const reference = detail.locator('[data-testid="skill-file"][data-path^="references/"]').first();
  const refPath = (await reference.getAttribute('data-path'))!;
  await reference.click();
  await expect(editor).toHaveAttribute('data-path', refPath);
  await expect(lines).not.toContainText('name: view-validation');
  await expect(page).toHaveURL(new RegExp(`#/skills/view-validation/${encodeURIComponent(refPath)}$`));
  await page.reload();
  await expect(page.getByTestId('skill-editor')).toHaveAttribute('data-path', refPath);
  await expect(page.getByTestId('skill-editor')).toHaveAttribute('data-engine', 'monaco', { timeout: 20_000 });

  // No script errors, CSP violations (workers, fonts) or failed loads along the way.
  expect(problems).toEqual([]);
  await screenshotsInBothThemes(page, 'skills');
});

test('a skill with a broken frontmatter is listed with its problems by file and field', async ({ page, forge }) => {
  const dir = join(forge.dataDir, 'skills', 'broken-demo');
  mkdirSync(dir, { recursive: true });
  // Unusable even in lenient mode: neither a name nor a description (a bent name alone would only warn).
  writeFileSync(join(dir, 'SKILL.md'), ['---', 'name: ""', 'description: ""', 'owner: Broken_Demo', '---', '', '# Broken', ''].join('\n'));

  await page.goto(`${forge.url}#/skills`);
  const row = page.locator('[data-testid="skill-row"][data-name="broken-demo"]');
  // The server watches the skills folder; Refresh asks again until the new folder has been seen.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row).toHaveAttribute('data-state', 'errors');
  await row.click();
  const list = page.getByTestId('skill-problems');
  await expect(list).toContainText('cannot use this skill');
  await expect(list).toContainText('SKILL.md');
  await expect(list.locator('code', { hasText: /^name$/ }).first()).toBeVisible();
  await expect(list.locator('code', { hasText: /^description$/ }).first()).toBeVisible();
  await expect(page.getByTestId('skill-editor')).toContainText('Broken_Demo');
  // Clicking a problem's file brings its field's line into view and selects it (line 3: description).
  await list
    .locator('li')
    .filter({ has: page.locator('code', { hasText: /^description$/ }) })
    .getByRole('button', { name: 'SKILL.md' })
    .click();
  await expect(page.getByTestId('skill-editor').locator('.line-numbers.active-line-number')).toHaveText('3');
  await page.screenshot({ path: join(screenshotDir, 'skills-invalid.png') });
});

test('a published skill dropped into the skills folder loads, and Settings → Skills allows its Python scripts', async ({ page, forge }) => {
  cpSync(PUBLISHED, join(forge.dataDir, 'skills', 'csv-insights'), { recursive: true });
  await page.goto(`${forge.url}#/skills`);
  const row = page.locator('[data-testid="skill-row"][data-name="csv-insights"]');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row).toHaveAttribute('data-state', 'valid');
  await row.click();
  await expect(page.getByTestId('skill-script-permission')).toContainText('refused until you allow them');

  await page.goto(`${forge.url}#/settings`);
  const toggle = page.locator('[data-testid="skill-scripts-row"][data-name="csv-insights"]').getByTestId('skill-allow-scripts');
  await expect(toggle).not.toBeChecked();
  // Forge's own skills run Node modules only: nothing to allow, so no switch.
  await expect(page.locator('[data-testid="skill-scripts-row"][data-name="expression-design"]').getByTestId('skill-allow-scripts')).toHaveCount(0);
  await toggle.check();
  await expect(toggle).toBeChecked();
  // The switch flips as soon as it is clicked; the file lands when the save returns, so poll until it exists.
  await expect.poll(() => savedSettings(forge.dataDir)?.allowedSkillScripts).toEqual(['csv-insights']);
  await page.screenshot({ path: join(screenshotDir, 'settings-skills.png') });

  await page.goto(`${forge.url}#/skills/csv-insights`);
  await expect(page.getByTestId('skill-script-permission')).toContainText('may run, sandboxed');
});
