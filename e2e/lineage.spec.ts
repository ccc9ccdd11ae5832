import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * Decision lineage in the app the PM uses: the demo proposes E-004 through two sub-agents, a
 * guardrail block and a review; the PM approves it on its page, then "Trace this decision" shows
 * every step in time order and "Export as Markdown" downloads the same trace as a .md file.
 */
test('an approved demo Expression traces to its sub-agents, skill versions, guardrail figures, review and the PM, and exports as Markdown', async ({
  page,
  forge,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });

  await page.goto(`${forge.url}#/chat`);
  await page.getByTestId('demo-speed').selectOption('fast');
  await page.getByTestId('demo-button').click();
  await expect(page.getByTestId('demo-banner')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('screen-chat').getByText(/is now proposed and waits for your approval/)).toBeVisible({ timeout: 60_000 });

  // The Expression's own page: approve it, then trace the decision.
  await page.goto(`${forge.url}#/expressions/E-004`);
  const record = page.getByTestId('expression-page');
  await record.getByTestId('approve').click();
  await expect(record.getByTestId('approval-done')).toContainText('is now active');
  await record.getByTestId('trace-decision').click();
  await expect(page).toHaveURL(/#\/expressions\/E-004\/lineage$/);

  const lineage = page.getByTestId('lineage-page');
  await expect(lineage.getByRole('heading', { level: 1 })).toHaveText('Decision lineage — E-004: Receive 5y SOFR, sized from the stop');
  const steps = lineage.getByTestId('lineage-step');
  await expect(steps.and(page.locator('[data-kind="task"]'))).toHaveCount(2);
  await expect(steps.and(page.locator('[data-kind="task"]')).first()).toContainText('Sub-agent task labour_ctx (context-retrieval)');
  await expect(steps.and(page.locator('[data-kind="skill"]'))).toHaveCount(2);
  await expect(steps.and(page.locator('[data-kind="skill"]')).first()).toContainText('SKILL.md sha256');
  // Three checks, each with its figures: the blocked draft, the proposal as written, and approval's re-check.
  const guard = steps.and(page.locator('[data-kind="guardrail"]'));
  await expect(guard).toHaveCount(3);
  await expect(guard.nth(0)).toContainText('max_single_risk actual');
  await expect(guard.nth(0)).toContainText('217.5');
  await expect(guard.nth(1)).toContainText('Guardrails passed at the proposal');
  await expect(guard.nth(1)).toContainText('max_gross_exposure actual');
  await expect(guard.nth(2)).toContainText('Guardrails passed at approval');
  await expect(guard.nth(2)).toContainText('29.8');
  await expect(steps.and(page.locator('[data-kind="review"]'))).toContainText('approve_with_notes');
  // The PM's approval is the last step: nothing after it shaped the decision.
  await expect(steps.last()).toHaveAttribute('data-kind', 'decision');
  await expect(steps.last()).toContainText('PM approved E-004');
  await screenshotsInBothThemes(page, 'lineage-demo-expression');

  const [download] = await Promise.all([page.waitForEvent('download'), lineage.getByTestId('lineage-export').click()]);
  expect(download.suggestedFilename()).toBe('lineage-E-004.md');
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('# Decision lineage — E-004: Receive 5y SOFR, sized from the stop\n')).toBe(true);
  expect(text).toContain('· task — Sub-agent task curve_ctx (context-retrieval) — ok');
  expect(text).toContain('- max_single_risk actual: 6');
  expect(text).toContain('· guardrail — Guardrails passed at approval — all 5 limits pass');
  expect(text).toContain('- max_gross_exposure actual: 146');
  expect(text).toContain('· decision — PM approved E-004');
  await expect(lineage.getByRole('status')).toHaveText('Saved as lineage-E-004.md');
  expect(problems).toEqual([]);
});
