import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The Builds start form on real spec packages, with no API key set (the fixture's server has
 * none): the format panel names the format and the phases with their task counts, a folder with
 * two spec-kit features offers a chooser that re-reads the one chosen, and Start says the key is
 * missing — not "Access link needed … no valid access token", the false security alarm of #29.
 * If it failed, a PM would build the wrong feature without knowing, or go looking for a token
 * problem when all they need is to add their key.
 */

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'examples', 'specs');

/** A second spec-kit feature with its own plan (the example's 001 has a spec but no tasks yet). */
const ACCOUNTS_TASKS = `# Tasks: Team accounts

## Phase 1: Accounts schema
- [ ] T101 Create the accounts table with owner and members
- [ ] T102 [P] Test that a member belongs to one team

## Phase 2: Invitations
- [ ] T103 Invite by email with a 7-day token
`;

let scratch: string;
let specKit: string;

test.beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'forge-e2e-format-'));
  specKit = join(scratch, 'links');
  cpSync(join(EXAMPLES, 'spec-kit'), specKit, { recursive: true });
  writeFileSync(join(specKit, 'specs', '001-team-accounts', 'tasks.md'), ACCOUNTS_TASKS);
});

test.afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Page errors and console errors, except the refusals this test provokes on purpose: each
 * non-2xx answer from builds/start or builds/inspect is counted, and as many "status of N"
 * console lines are allowed (the two events arrive in either order, so they are matched at the end).
 */
function watchProblems(page: Page): () => string[] {
  const problems: string[] = [];
  const expected: number[] = [];
  const logged: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400 && ['/api/builds/inspect', '/api/builds/start'].includes(new URL(r.url()).pathname)) expected.push(r.status());
  });
  page.on('console', (m) => {
    if (m.type() === 'error') logged.push(m.text());
  });
  return () => {
    const left = [...expected];
    for (const text of logged) {
      const status = Number(/status of (\d{3})/.exec(text)?.[1]);
      const i = left.indexOf(status);
      if (i >= 0) left.splice(i, 1);
      else problems.push(`console: ${text}`);
    }
    return problems;
  };
}

test('the start form shows the spec format and phases, lets the PM choose a feature, and says plainly that the API key is missing', async ({ page, forge }) => {
  // Generous: the form reads each folder through the real server, on a machine that may be busy.
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  await page.goto(`${forge.url}#/builds`);
  const form = page.getByTestId('build-start-form');
  const panel = form.getByTestId('build-inspect');

  // spec-kit: the newest feature is read first, its phases by the plan's own ids with task counts.
  await form.getByLabel('Working directory').fill(specKit);
  await expect(panel).toContainText('Format: spec-kit');
  await expect(panel).toContainText('002-link-shortener');
  const phases = form.getByTestId('build-inspect-phases');
  await expect(phases).toContainText('Phase 3.1 — Setup: 3 tasks');

  // Two features: the chooser sits on inspect's pick; choosing the other re-reads the folder for it.
  const chooser = form.getByTestId('build-feature');
  await expect(chooser).toHaveValue('002-link-shortener');
  await chooser.selectOption('001-team-accounts');
  await expect(phases).toContainText('Phase 1 — Accounts schema: 2 tasks');
  await expect(phases).toContainText('Phase 2 — Invitations: 1 task');
  await expect(phases).not.toContainText('3.1');
  await expect(chooser).toHaveValue('001-team-accounts');

  // Start without a key: the message says the key is missing and where to add it, no token alarm.
  await form.getByTestId('build-start').click();
  const error = form.getByTestId('build-start-error');
  await expect(error).toContainText('No Anthropic API key');
  await expect(error).toContainText('Settings → API keys');
  await expect(error).toContainText('API key needed');
  await expect(error).not.toContainText(/access link|access token/i);
  await expect(page.getByTestId('build-row')).toHaveCount(0);

  // A folder that does not exist is named as such, even without a key.
  const missing = join(scratch, 'no-such-project');
  await form.getByLabel('Working directory').fill(missing);
  await expect(form.getByTestId('build-inspect-error')).toContainText(missing);
  await form.getByTestId('build-start').click();
  await expect(error).toContainText(`There is no folder ${missing}`);
  await expect(error).not.toContainText('API key');

  // Another format: Kiro, read as it is, with its phases; a single feature has no chooser.
  await form.getByLabel('Working directory').fill(join(EXAMPLES, 'kiro'));
  await expect(panel).toContainText('Format: kiro');
  await expect(panel).toContainText('password-reset');
  await expect(form.getByTestId('build-inspect-phases').locator('li').first()).toContainText(/Phase 1\b.*: \d+ tasks?/);
  await expect(form.getByTestId('build-feature')).toHaveCount(0);

  expect(problems()).toEqual([]);
});
