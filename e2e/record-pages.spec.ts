import type { APIRequestContext, Page } from '@playwright/test';
import { expect, type ForgeServer, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

test('E-001 by route: its View, sizing and every guardrail check; a proposal offers Approve / Reject', async ({ page, forge, request }) => {
  const problems = watchProblems(page);
  await page.goto(`${forge.url}#/expressions/E-001`);
  const p = page.getByTestId('expression-page');
  await expect(p.getByTestId('record-page-id')).toHaveText('E-001');
  await expect(p.getByTestId('expression-view-link')).toContainText('V-001 — Fed cuts twice more before the ECB moves again');
  await expect(p.getByTestId('expression-view-link').getByRole('link')).toHaveAttribute('href', '#/views/V-001');
  const sizing = p.getByTestId('sizing');
  await expect(sizing.getByRole('row', { name: /Notional/ })).toContainText('12');
  await expect(sizing.getByRole('row', { name: /Max loss/ })).toContainText('1.2');
  await expect(sizing.getByRole('row', { name: /Instrument/ })).toContainText('USD 2y SOFR swap');
  const checks = p.getByTestId('guardrail-check');
  await expect(checks).toHaveCount(5);
  await expect(p.locator('[data-testid="guardrail-check"][data-rule="max_single_risk"]')).toContainText('1.2 % of NAV');
  await expect(p.getByTestId('review-verdict')).toContainText('No reviewer verdict');
  // E-001 is live: nothing to decide.
  await expect(p.getByTestId('approve')).toHaveCount(0);
  await screenshotsInBothThemes(page, 'record-pages-expression');

  // A proposal (the seed has none): Approve / Reject are on its page, and a blocked-free approval goes through.
  const content =
    '# new — Record page receiver\nstatus: proposed\nview_id: V-002\ninstrument: EUR 5y swap\nnotional: 2\nmax_loss_pct: 0.5\nduration_impact: 0.2\nfactor: eur_rates\n---\n## SUMMARY\nA trade to approve from its page.\n';
  const w = await api<{ id: string }>(request, forge, 'memory/write', { path: '/memory/expressions/new.md', content });
  await page.goto(`${forge.url}#/expressions/${w.id}`);
  await expect(p.getByTestId('record-page-id')).toHaveText(w.id);
  await expect(p.getByTestId('approve')).toBeEnabled();
  await expect(p.getByTestId('reject')).toBeEnabled();
  await screenshotsInBothThemes(page, 'record-pages-proposal');
  await p.getByTestId('approve').click();
  await expect(p.getByTestId('approval-done')).toContainText(`Approved: ${w.id} is now active.`);
  await expect(p.locator('.record-page-facts .status-active')).toBeVisible();
  await expect(p.getByTestId('approve')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('V-001 by route: the scenario chart, the conditions with their state, and linked records', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await page.goto(`${forge.url}#/views/V-001`);
  const p = page.getByTestId('view-page');
  await expect(p.getByTestId('record-page-id')).toHaveText('V-001');
  const chart = p.getByTestId('scenario-chart');
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute('aria-label', 'Scenario probabilities: Base 60%, Bull 20%, Bear 20%');
  const conditions = p.getByTestId('condition');
  await expect(conditions).toHaveCount(3);
  await expect(conditions.first()).toContainText('Two consecutive payroll prints above 200k.');
  // No morning review has run in a fresh workspace: said honestly, not shown as "not fired".
  await expect(conditions.first()).toContainText('Not evaluated yet');
  const links = p.getByTestId('linked-records');
  await expect(links.getByRole('link', { name: /E-001/ })).toHaveAttribute('href', '#/expressions/E-001');
  await expect(links.getByRole('link', { name: /O-001/ })).toBeVisible();
  await screenshotsInBothThemes(page, 'record-pages-view');

  // Following the linked Expression opens its page.
  await links.getByRole('link', { name: /E-001/ }).click();
  await expect(page.getByTestId('expression-page').getByTestId('record-page-id')).toHaveText('E-001');
  expect(problems).toEqual([]);
});
