import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshotDir, test, type ForgeServer } from './fixtures';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

/** A second `forge serve` on an existing data folder (the demo's copy), for the approval check. */
async function serveFolder(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'forge.mjs'), 'serve', '--port', '0', '--data', dataDir], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: '', FORGE_HOME: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`forge serve did not start in 30 s:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) (clearTimeout(timer), resolve(m[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`forge serve exited (${code}):\n${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  return { url, stop };
}

test('the offline demo runs from Chat: labelled demo, a guardrail block, then a proposal awaiting approval', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${forge.url}#/chat`);
  await expect(page.getByTestId('screen-chat')).toBeVisible();
  await page.getByRole('button', { name: 'Demo', exact: true }).click();

  const chat = page.getByTestId('screen-chat');
  await expect(chat.getByText('DEMO — scripted, not Claude')).toBeVisible();
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

  // The demo ran on a copy: the PM's own Expressions are unchanged (the seeded three, none proposed).
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
  await expect(state.locator('[data-key="gross"] dd')).toHaveText('142.5');
  await expect(state.getByTestId('demo-label')).toBeVisible();
  // The book's markdown is rendered: the exposures table, not raw pipes.
  await expect(state.locator('.markdown table')).toContainText('US rates');
  const limits = page.getByTestId('guardrail-limits');
  await expect(limits.locator('[data-key="max_gross"]')).toContainText('200 % of NAV');
  await expect(limits.locator('[data-key="max_gross"]')).toContainText('142.5 % of NAV');
  await expect(limits.locator('[data-key="max_single_risk"]')).toContainText('5 % of NAV');
  await expect(page.getByTestId('portfolio-constraints')).toContainText('Demo risk limits');
  await page.screenshot({ path: join(screenshotDir, 'portfolio.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(screenshotDir, 'portfolio-dark.png') });
});

test('the PM approves the demo proposal in the demo workspace and it becomes active', async ({ page, forge, request }) => {
  // The demo's proposal lives in its own copied workspace; open that folder with a second server.
  const run = await api<{ dataDir: string }>(request, forge, 'agent/demo');
  await expect
    .poll(async () => (await api<{ running: unknown[] }>(request, forge, 'agent/status')).running.length, { timeout: 45_000 })
    .toBe(0);
  const demo = await serveFolder(run.dataDir);
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
    rmSync(run.dataDir, { recursive: true, force: true });
  }
});
