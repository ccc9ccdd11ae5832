import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { openWorkspace } from '../src-main/fs';
import { TaskStore } from '../src-main/executor';
import type { TaskRecord, TaskSpec } from '../src-main/executor/types';
import { expect, screenshotDir, startServer, stop, test, type ForgeServer } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

/** A second `forge serve` on an existing data folder (the demo's copy), for the approval check. */
async function serveFolder(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const { server, child } = await startServer(dataDir);
  return { url: server.url, stop: () => stop(child) };
}

const SESSION = 'sess_20261121_morning';

/**
 * Writes a morning review's sub-agent tasks into a workspace through the executor's own store (the
 * demo's tasks all succeed, and no model is reachable here): one validated result, one model failure,
 * a synthesis that failed because of it, and one still running when Forge stops.
 */
async function seedTasks(dataDir: string): Promise<void> {
  const ws = openWorkspace({ dataDir });
  try {
    await ws.ready;
    const store = new TaskStore(ws.store.db);
    const t0 = Date.parse('2026-11-21T07:30:00.000Z');
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    const make = (spec: Partial<TaskSpec> & Pick<TaskSpec, 'id' | 'skill' | 'objective'>, rec: Partial<TaskRecord>): TaskRecord => ({
      sessionId: SESSION,
      spec: { context: [], dependsOn: [], validate: false, validateContrastive: false, ...spec },
      id: spec.id,
      status: 'queued',
      failure: null,
      error: null,
      summary: null,
      resultPath: null,
      validation: null,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      rounds: 0,
      createdAt: at(0),
      startedAt: null,
      finishedAt: null,
      updatedAt: at(0),
      ...rec,
    });
    await ws.fs
      .forSession(SESSION)
      .writeFile(
        '/session/results/sa_rates.md',
        "# sa_rates — V-001 still holds\n\n## SUMMARY\nPayrolls slowed for a sixth month; nothing hits V-001's invalidation triggers.\n\n## EVIDENCE\n- Payrolls 142k → 88k since June\n- Claims 228k → 247k\n",
        { actor: 'subagent:sa_rates', taskId: 'sa_rates' },
      );
    const tasks: [TaskRecord, string][] = [
      [
        make(
          {
            id: 'sa_rates',
            skill: 'view-validation',
            objective: 'Check V-001 (two more Fed cuts) against the latest labour data',
            context: ['V-001'],
            validate: true,
          },
          {
            status: 'ok',
            summary: 'V-001 holds: labour data keep softening.',
            resultPath: '/session/results/sa_rates.md',
            validation: {
              contrastive: false,
              verdict: 'pass',
              feedback: 'Evidence matches the claim; sources cited.',
              counterargument: 'A hot CPI print could delay the second cut.',
              raw: 'VERDICT: PASS',
            },
            inputTokens: 8200,
            outputTokens: 910,
            costUsd: 0.0383,
            rounds: 3,
            startedAt: at(1),
            finishedAt: at(43),
            updatedAt: at(43),
          },
        ),
        'finished',
      ],
      [
        make(
          { id: 'sa_growth', skill: 'context-retrieval', objective: 'Gather euro-area consumer data for V-002', context: ['V-002'] },
          {
            status: 'failed',
            failure: 'model',
            error: 'The model did not answer after 3 tries (overloaded). Retry in a few minutes.',
            inputTokens: 1200,
            outputTokens: 0,
            costUsd: 0.0036,
            rounds: 1,
            createdAt: at(2),
            startedAt: at(2),
            finishedAt: at(20),
            updatedAt: at(20),
          },
        ),
        'failed',
      ],
      [
        make(
          {
            id: 'sa_synth',
            skill: 'portfolio-synthesis',
            objective: 'Combine the rates and growth checks into one brief',
            dependsOn: ['sa_rates', 'sa_growth'],
          },
          {
            status: 'failed',
            failure: 'dependency',
            error: 'sa_growth failed, so this synthesis could not start.',
            createdAt: at(3),
            finishedAt: at(20),
            updatedAt: at(20),
          },
        ),
        'failed',
      ],
      [
        make(
          { id: 'sa_sizing', skill: 'expression-design', objective: 'Size a 5y receiver from the 20bp stop', dependsOn: ['sa_rates'] },
          {
            status: 'running',
            inputTokens: 3000,
            outputTokens: 200,
            costUsd: 0.012,
            rounds: 1,
            createdAt: at(4),
            startedAt: at(44),
            updatedAt: at(50),
          },
        ),
        'started',
      ],
    ];
    for (const [t, kind] of tasks) {
      store.save({ ...t, updatedAt: t.createdAt }, { kind: 'dispatched' });
      store.save(t, { kind, detail: t.error ?? '' });
    }
  } finally {
    ws.close();
  }
}

test("the Tasks screen shows a session's tasks under their dependencies, opens one in full, and retries a failure", async ({ page, forge }) => {
  await seedTasks(forge.dataDir);
  // A restart turns the task that was running into a failed, retryable "interrupted" one.
  await forge.restart();
  await page.goto(`${forge.url}#/tasks`);
  const rows = page.getByTestId('task-row');
  await expect(rows).toHaveCount(4);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(['sa_rates', 'sa_sizing', 'sa_growth', 'sa_synth']);
  await expect(page.getByTestId('task-session')).toContainText(SESSION);
  await expect(page.locator('[data-testid="task-row"][data-id="sa_synth"]')).toContainText('after sa_rates, sa_growth');
  await expect(page.locator('[data-testid="task-row"][data-id="sa_sizing"]')).toHaveAttribute('data-status', 'failed');
  await expect(page.locator('[data-testid="task-row"][data-id="sa_rates"]')).toContainText('check passed');

  await page.locator('[data-testid="task-row"][data-id="sa_rates"]').click();
  await expect(page).toHaveURL(new RegExp(`#/tasks/${SESSION}/sa_rates$`));
  const detail = page.getByTestId('task-detail');
  await expect(detail.getByTestId('task-status')).toHaveText('ok');
  await expect(detail.getByTestId('task-validation')).toContainText('A hot CPI print');
  await expect(detail.getByTestId('task-output').locator('.markdown li').first()).toContainText('Payrolls');
  await expect(detail.getByTestId('task-facts')).toContainText('cost$0.04');
  await expect(detail.getByTestId('task-retry')).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'tasks-detail.png') });

  // Keyboard: Down moves to the next task, Enter opens it.
  await page.locator('[data-testid="task-row"][data-id="sa_rates"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(detail.getByTestId('task-failure')).toContainText(/interrupted/i);

  await page.locator('[data-testid="task-row"][data-id="sa_growth"]').click();
  await expect(detail.getByTestId('task-failure')).toContainText('overloaded');
  await page.screenshot({ path: join(screenshotDir, 'tasks-failed.png') });
  await detail.getByTestId('task-retry').click();
  // The retry is a new task, filed under the same session and opened at once; its progress arrives live.
  await expect(page).toHaveURL(new RegExp(`#/tasks/${SESSION}/sa_growth-r1$`));
  await expect(page.locator('[data-testid="task-row"][data-id="sa_growth-r1"]')).toContainText('retry of sa_growth');
  // No model is reachable here: the retry fails, and says why, without a reload.
  await expect(detail.getByTestId('task-failure')).toContainText('API key');
  await expect(page.locator('[data-testid="task-row"][data-id="sa_growth-r1"]')).toHaveAttribute('data-status', 'failed');
  await page.screenshot({ path: join(screenshotDir, 'tasks-retried.png') });
  await screenshotsInBothThemes(page, 'workflow');
});

test('the offline demo runs from Chat: labelled demo, a guardrail block, then a proposal awaiting approval', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${forge.url}#/chat`);
  await expect(page.getByTestId('screen-chat')).toBeVisible();
  // Fast: the normal pace reads like a person typing, too slow for a test.
  await page.getByTestId('demo-speed').selectOption('fast');
  await page.getByRole('button', { name: 'Demo', exact: true }).click();

  const chat = page.getByTestId('screen-chat');
  // Labelled a demo in the header (not the model's name) and on the turn itself.
  await expect(chat.getByTestId('chat-model')).toHaveText('DEMO — scripted, not Claude');
  await expect(chat.locator('.chat-turn.is-demo .demo-badge').first()).toBeVisible();
  // The oversized trade: the write tool call failed, and its result names the guardrails.
  const blocked = chat.locator('details.tool-call.is-error', { hasText: 'write' });
  await expect(blocked).toBeVisible({ timeout: 30_000 });
  await blocked.locator('summary').click();
  await expect(blocked.locator('.tool-result')).toContainText('BLOCKED by guardrails');
  await expect(blocked.locator('.tool-result')).toContainText('max_single_risk');
  // The run ends with the compliant Expression proposed, not activated.
  await expect(chat.getByText(/is now proposed and waits for your approval/)).toBeVisible({ timeout: 30_000 });
  await expect(chat.locator('.chat-typing')).toHaveCount(0);
  const written = chat.locator('details.tool-call.is-ok', { hasText: '/memory/expressions/new.md' });
  await expect(written).toHaveCount(1);
  await written.locator('summary').click();
  await expect(written.locator('.tool-result')).toContainText('status proposed');
  await page.screenshot({ path: join(screenshotDir, 'chat-demo.png') });

  // The demo ran in its own workspace: back in the PM's, their Expressions are unchanged (the seeded three, none proposed).
  await page.getByTestId('demo-banner').getByRole('button', { name: 'Back to my workspace' }).click();
  await expect(page.getByTestId('demo-banner')).toHaveCount(0);
  await page.getByTestId('nav-expressions').click();
  await expect(page.locator('[data-testid="memory-row"][data-id="E-001"]')).toBeVisible();
  await expect(page.getByTestId('memory-row')).toHaveCount(3);
  await expect(page.getByTestId('screen-expressions').locator('.chip.status-proposed')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the Tasks screen says honestly that no sub-agent has run yet', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/tasks`);
  const screen = page.getByTestId('screen-tasks');
  await expect(screen).toBeVisible();
  await expect(page.getByTestId('tasks-empty')).toContainText('No sub-agent tasks yet');
  await expect(screen).not.toContainText(/coming in a later release/i);
  await expect(screen.getByTestId('task-row')).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'tasks-empty.png') });
});

test('the Portfolio screen shows the demo book, its gross against the limit, and the constraints', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/portfolio`);
  const state = page.getByTestId('portfolio-state');
  // Computed from the positions snapshot, not read from a header line.
  await expect(state.locator('[data-key="gross"] dd')).toHaveText('142.5');
  await expect(state.locator('[data-key="net"] dd')).toHaveText('38.0');
  await expect(state.getByTestId('demo-label')).toBeVisible();
  // The snapshot's markdown is rendered: the positions table, not raw pipes.
  await expect(page.getByTestId('portfolio-snapshot').locator('.markdown table')).toContainText('UST 10y futures');
  await expect(page.getByTestId('book-open').getByTestId('open-expression')).toHaveCount(3);
  const limits = page.getByTestId('guardrail-limits');
  await expect(limits.locator('[data-key="max_gross"]')).toContainText('200 % of NAV');
  await expect(limits.locator('[data-key="max_gross"]')).toContainText('142.5 % of NAV');
  await expect(limits.locator('[data-key="max_single_risk"]')).toContainText('5 % of NAV');
  await expect(page.getByTestId('portfolio-constraints')).toContainText('Demo risk limits');
  await page.screenshot({ path: join(screenshotDir, 'portfolio.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(screenshotDir, 'portfolio-dark.png') });
});

/** Runs the offline demo through the API and waits for it to finish; returns its copied workspace. */
async function runDemo(request: APIRequestContext, forge: ForgeServer): Promise<string> {
  const run = await api<{ dataDir: string }>(request, forge, 'agent/demo');
  await expect.poll(async () => (await api<{ running: unknown[] }>(request, forge, 'agent/status')).running.length, { timeout: 45_000 }).toBe(0);
  return run.dataDir;
}

test('the PM approves the demo proposal in the demo workspace and it becomes active', async ({ page, forge, request }) => {
  // The demo's proposal lives in its own copied workspace; open that folder with a second server.
  const dataDir = await runDemo(request, forge);
  const demo = await serveFolder(dataDir);
  try {
    await page.goto(`${demo.url}#/expressions`);
    const proposed = page.locator('[data-testid="memory-row"]', { has: page.locator('.chip.status-proposed') });
    await expect(proposed).toHaveCount(1);
    await proposed.click();
    const record = page.getByTestId('record-view');
    await expect(record.getByTestId('approval-banner')).toContainText('Proposed by the analyst — awaiting your approval');
    await expect(record.getByTestId('demo-label')).toBeVisible();
    await expect(record.locator('.record-chips .status-proposed')).toBeVisible();
    await page.screenshot({ path: join(screenshotDir, 'expression-proposed.png') });

    // Reject asks for a reason first; backing out keeps it proposed.
    await record.getByTestId('reject').click();
    await expect(record.getByTestId('reject-confirm')).toBeDisabled();
    await record.getByRole('button', { name: 'Keep it proposed' }).click();

    await record.getByTestId('approve').click();
    await expect(record.getByTestId('approval-done')).toContainText('is now active');
    await expect(record.locator('.record-chips .status-active')).toBeVisible();
    await expect(record.getByTestId('approval')).toHaveCount(0);
    await expect(record.getByTestId('record-audit')).toContainText('You');
    // The list refreshed too: no proposal left.
    await expect(page.locator('.list-pane .chip.status-proposed')).toHaveCount(0);
    await page.screenshot({ path: join(screenshotDir, 'expression-approved.png') });
  } finally {
    await demo.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('when the book has moved, approval is blocked with rule, value and limit; the PM then rejects with a reason', async ({ page, forge, request }) => {
  const dataDir = await runDemo(request, forge);
  // Since the proposal the book grew to 197.5% gross: the 3.5-notional trade would now take it past 200%.
  const ws = openWorkspace({ dataDir });
  try {
    await ws.ready;
    const state = `${ws.fs.readFile('/portfolio/state.md').trimEnd()}\n| Gold futures, long | gold | 55 | 0 | |\n`;
    await ws.fs.writeFile('/portfolio/state.md', state, { actor: 'pm' });
  } finally {
    ws.close();
  }
  const demo = await serveFolder(dataDir);
  try {
    await page.goto(`${demo.url}#/expressions`);
    await page.locator('[data-testid="memory-row"]', { has: page.locator('.chip.status-proposed') }).click();
    const record = page.getByTestId('record-view');
    await record.getByTestId('approve').click();
    const block = record.getByTestId('guardrail-block');
    await expect(block).toBeVisible();
    const row = block.locator('[data-rule="max_gross_exposure"]');
    await expect(row).toContainText('Gross exposure after the trade');
    await expect(row).toContainText('201 % of NAV');
    await expect(row).toContainText('200 % of NAV');
    await expect(row).toContainText('+1');
    // Still proposed: nothing was activated.
    await expect(record.locator('.record-chips .status-proposed')).toBeVisible();
    await page.screenshot({ path: join(screenshotDir, 'expression-blocked.png') });

    await record.getByTestId('reject').click();
    await record.getByTestId('reject-reason').fill('Book is too close to the gross limit; revisit after the FOMC.');
    await record.getByTestId('reject-confirm').click();
    await expect(record.getByTestId('approval-done')).toContainText('is now rejected');
    await expect(record.locator('.record-chips .status-rejected')).toBeVisible();
    await expect(record).toContainText('Book is too close to the gross limit');
    await page.screenshot({ path: join(screenshotDir, 'expression-rejected.png') });
  } finally {
    await demo.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
