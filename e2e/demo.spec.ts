import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * The demo end to end, in the app the PM uses: the Demo button switches every screen into a sample
 * workspace (marked DEMO), the scripted analyst dispatches sub-agents and proposes an Expression,
 * the PM approves it and sees the book and the audit trail change, then goes back to a workspace
 * the demo never touched.
 */
test('the demo runs in its own workspace: sub-agents, a proposal to approve, the book and audit change, then back to my untouched workspace', async ({
  page,
  forge,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const banner = page.getByTestId('demo-banner');

  await page.goto(`${forge.url}#/chat`);
  await expect(page.getByTestId('screen-chat')).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.getByTestId('demo-speed').selectOption('fast');
  await page.getByTestId('demo-button').click();

  // DEMO on every screen while the demo workspace is active.
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('DEMO — sample workspace. Nothing here touches your memory.');
  const chat = page.getByTestId('screen-chat');
  await expect(chat.getByText(/is now proposed and waits for your approval/)).toBeVisible({ timeout: 45_000 });
  await expect(chat.locator('.chat-typing')).toHaveCount(0);
  await screenshotsInBothThemes(page, 'demo-chat');

  // Tasks: the two sub-agents the analyst dispatched, finished.
  await page.getByTestId('nav-tasks').click();
  await expect(banner).toBeVisible();
  const tasks = page.getByTestId('task-row');
  await expect(tasks.and(page.locator('[data-id="labour_ctx"]'))).toHaveAttribute('data-status', 'ok');
  await expect(tasks.and(page.locator('[data-id="curve_ctx"]'))).toHaveAttribute('data-status', 'ok');
  await screenshotsInBothThemes(page, 'demo-tasks');

  // Home before approval: the proposal waits, and note the gross the book uses now.
  await page.getByTestId('nav-home').click();
  await expect(banner).toBeVisible();
  await expect(page.locator('[data-testid="home-awaiting-item"][data-id="E-004"]')).toBeVisible();
  const gross = page.locator('[data-testid="usage-bar"][data-rule="max_gross_exposure"] [data-testid="usage-value"]');
  // The sample book's gross before the proposal is approved.
  await expect(gross).toHaveText('142.5');

  // Expressions: the demo's proposal, approved by the PM.
  await page.getByTestId('nav-expressions').click();
  await expect(banner).toBeVisible();
  const proposed = page.locator('[data-testid="memory-row"][data-id="E-004"]');
  await expect(proposed.locator('.chip.status-proposed')).toBeVisible();
  await proposed.click();
  const record = page.getByTestId('record-view');
  await expect(record.getByTestId('approval-banner')).toContainText('Proposed by the analyst — awaiting your approval');
  await screenshotsInBothThemes(page, 'demo-expression-proposed');
  await record.getByTestId('approve').click();
  await expect(record.getByTestId('approval-done')).toContainText('is now active');
  await expect(record.locator('.record-chips .status-active')).toBeVisible();
  // The audit trail records the PM's approval.
  await expect(record.getByTestId('record-audit')).toContainText('You');
  await screenshotsInBothThemes(page, 'demo-expression-approved');

  // The book takes it in: Home's gross moves, Portfolio lists it among the open Expressions.
  await page.getByTestId('nav-home').click();
  await expect(page.locator('[data-testid="home-awaiting-item"][data-id="E-004"]')).toHaveCount(0);
  await expect(gross).not.toHaveText('142.5');
  await page.getByTestId('nav-portfolio').click();
  await expect(banner).toBeVisible();
  await expect(page.locator('[data-testid="open-expression"][data-id="E-004"]')).toBeVisible();
  await screenshotsInBothThemes(page, 'demo-portfolio');

  // Back to my workspace: the banner goes, and the PM's Expressions never saw E-004.
  await banner.getByRole('button', { name: 'Back to my workspace' }).click();
  await expect(banner).toHaveCount(0);
  await page.getByTestId('nav-expressions').click();
  await expect(page.locator('[data-testid="memory-row"][data-id="E-001"]')).toBeVisible();
  await expect(page.locator('[data-testid="memory-row"][data-id="E-004"]')).toHaveCount(0);
  await expect(page.getByTestId('screen-expressions').locator('.chip.status-proposed')).toHaveCount(0);
  await page.getByTestId('nav-portfolio').click();
  await expect(page.getByTestId('book-open')).toBeVisible();
  await expect(page.locator('[data-testid="open-expression"][data-id="E-004"]')).toHaveCount(0);
  await screenshotsInBothThemes(page, 'demo-back-to-my-workspace');
  expect(problems).toEqual([]);
});
