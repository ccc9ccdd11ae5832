import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { type MockAnthropicServer, type MockStep, type RecordedRequest, startMockAnthropicServer } from '../src-main/llm/testing';
import { expect, type ForgeServer, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

const ANSWER = 'Start the counter at 0; next() returns 1 the first time.';

/** A tiny two-phase project as a user hands it to the builder: contracts in Forge/Contracts/, a `node --test` test script. */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'forge-e2e-build-'));
  const files: Record<string, string> = {
    'Forge/Contracts/blueprint.md': '# Tally\n\nA very small JavaScript library that adds numbers and keeps a running count.\n',
    'Forge/Contracts/stack.md': '# Stack\n\nNode 22, ES modules, the built-in node:test runner, no dependencies.\n',
    'Forge/Contracts/phases.md': [
      '# Phases',
      '',
      '## Phase 0 — Adder',
      '',
      'Deliver an addition helper exported from the source folder, with a unit test proving it sums two integers.',
      '',
      '## Phase 1 — Counter',
      '',
      'Deliver a counter object whose next method returns successive integers, with a unit test.',
      '',
    ].join('\n'),
    'package.json': `${JSON.stringify({ name: 'tally', version: '0.0.0', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const signOff = (phase: string, deliverables: string[]) =>
  [
    '=== PHASE SIGN-OFF: PASS ===',
    `Phase: ${phase}`,
    'Deliverables:',
    ...deliverables.map((d) => `- ${d}`),
    'Tests: PASS (node --test)',
    '=== END PHASE SIGN-OFF ===',
  ].join('\n');

/**
 * The builder's turns, one per model request that carries the builder's tools: phase 0 read,
 * planned, written, tested, marked and signed off; phase 1 read, then a STOP code; after the
 * answer, phase 1 planned, written and signed off.
 */
function builderScript(): MockStep[] {
  return [
    { text: 'Reading the Phase 0 window first.', toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: 0 } }] },
    {
      text: ['=== PLAN ===', '1. Write src/add.js exporting add(a, b)', '2. Write test/add.test.js covering add', '=== END PLAN ==='].join('\n'),
      toolCalls: [
        { name: 'write_file', input: { path: 'src/add.js', content: 'export function add(a, b) {\n  return a + b;\n}\n' } },
        {
          name: 'write_file',
          input: {
            path: 'test/add.test.js',
            content:
              "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\n\ntest('add sums two numbers', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
          },
        },
      ],
    },
    { text: 'Both files are written; running the tests.', toolCalls: [{ name: 'run_tests', input: {} }] },
    { text: ['=== TASK DONE: 1 ===', '=== TASK DONE: 2 ===', '', signOff('0 — Adder', ['src/add.js', 'test/add.test.js'])].join('\n') },
    { text: 'Phase 1 next: reading its window.', toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: 1 } }] },
    { text: '=== STOP: AMBIGUOUS_INTENT ===\nShould the counter start at 0 or at 1? The phase does not say, and the tests depend on it.' },
    {
      text: [
        'Thanks — starting at 0.',
        '=== PLAN ===',
        '1. Write src/counter.js with a counter whose next() starts at 1',
        '2. Write test/counter.test.js',
        '=== END PLAN ===',
      ].join('\n'),
      toolCalls: [
        { name: 'write_file', input: { path: 'src/counter.js', content: 'export function counter() {\n  let n = 0;\n  return { next: () => ++n };\n}\n' } },
        {
          name: 'write_file',
          input: {
            path: 'test/counter.test.js',
            content:
              "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { counter } from '../src/counter.js';\n\ntest('next counts up from 1', () => {\n  const c = counter();\n  assert.deepEqual([c.next(), c.next()], [1, 2]);\n});\n",
          },
        },
      ],
    },
    { text: ['=== TASK DONE: 1 ===', '=== TASK DONE: 2 ===', '', signOff('1 — Counter', ['src/counter.js', 'test/counter.test.js'])].join('\n') },
  ];
}

const isBuilderTurn = (r: RecordedRequest) => ((r.body.tools as { name: string }[] | undefined) ?? []).some((t) => t.name === 'write_file');

/** Every text the request sent in its last user message (tool results and plain text). */
function lastUserText(r: RecordedRequest): string {
  const messages = r.body.messages as { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((b) => (b.type === 'text' ? (b.text ?? '') : JSON.stringify(b.content ?? ''))).join('\n');
}

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

function watchProblems(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // The empty folder below is read by the start form (builds/inspect) and refused by builds/start,
  // each told in place that it holds no specs: 404s on purpose. Only that many 404 lines are expected.
  // Console and response events arrive in either order, so the two counts are compared at the end.
  let inspect404 = 0;
  const notFound: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404 && ['/api/builds/inspect', '/api/builds/start'].includes(new URL(r.url()).pathname)) inspect404++;
  });
  page.on('console', (m) => {
    // The refused start below answers 400 on purpose; Chromium logs every non-2xx load.
    if (m.type() !== 'error' || /status of 400/.test(m.text())) return;
    if (/status of 404/.test(m.text())) notFound.push(`console: ${m.text()}`);
    else problems.push(`console: ${m.text()}`);
  });
  return () => [...problems, ...notFound.slice(inspect404)];
}

let mock: MockAnthropicServer;
let project: string;
let empty: string;
const builderRequests: RecordedRequest[] = [];
let steps: MockStep[] = [];

test.beforeEach(async () => {
  project = makeProject();
  empty = mkdtempSync(join(tmpdir(), 'forge-e2e-nocontracts-'));
  steps = builderScript();
  builderRequests.length = 0;
  mock = await startMockAnthropicServer({
    responder: (req) => {
      // The auditor (and any other helper) gets no tools: it answers with an empty findings list.
      if (!isBuilderTurn(req)) return { text: 'No problems found.\n\n```json\n[]\n```' };
      builderRequests.push(req);
      return steps.shift() ?? { text: 'The script has no more turns.' };
    },
  });
});

test.afterEach(async () => {
  await mock.close();
  rmSync(project, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

test('the Builds screen drives a two-phase build: phases signed off after Forge runs the tests, a STOP code answered, the log live', async ({
  page,
  forge,
  request,
}) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await api(request, forge, 'settings/set', { settings: { anthropicBaseUrl: mock.url }, secrets: { anthropicApiKey: 'sk-ant-e2e-builds' } });

  await page.goto(`${forge.url}#/builds`);
  await expect(page.getByTestId('screen-builds')).toBeVisible();
  await expect(page.getByTestId('builds-empty')).toBeVisible();
  const form = page.getByTestId('build-start-form');
  await expect(form.getByTestId('build-mode-mcp')).toBeChecked();

  // A folder without Forge/Contracts/ is refused, and the form says why, in place.
  await form.getByLabel('Working directory').fill(empty);
  await form.getByTestId('build-start').click();
  await expect(form.getByTestId('build-start-error')).toContainText('Forge/Contracts');
  await expect(page.getByTestId('build-row')).toHaveCount(0);

  // The real project: started from the form, opened at once.
  await form.getByLabel('Working directory').fill(project);
  await form.getByTestId('build-start').click();
  await expect(page).toHaveURL(/#\/builds\/build-[\w-]+$/);
  const detail = page.getByTestId('build-detail');
  await expect(detail.getByTestId('build-title')).toHaveText('Tally');
  await expect(page.getByTestId('build-row')).toHaveCount(1);

  // Phase 0 signs off (Forge ran the tests itself) and the builder stops on phase 1 with a question.
  const stopForm = detail.getByTestId('build-stop-form');
  await expect(stopForm).toBeVisible({ timeout: 45_000 });
  await expect(detail.getByTestId('build-status')).toHaveAttribute('data-status', 'waiting_answer');
  await expect(stopForm.getByTestId('build-stop-code')).toHaveText('AMBIGUOUS_INTENT');
  await expect(stopForm.getByTestId('build-stop-reason')).toContainText('start at 0 or at 1');
  await expect(detail.getByTestId('build-pause')).toBeDisabled();
  await expect(detail.getByTestId('build-resume')).toBeDisabled();
  const phase0 = detail.locator('[data-testid="phase-card"][data-phase="0"]');
  const phase1 = detail.locator('[data-testid="phase-card"][data-phase="1"]');
  await expect(phase0).toHaveAttribute('data-status', 'signed_off');
  await expect(phase1).toHaveAttribute('data-status', 'in_progress');
  await expect(phase0.locator('[data-testid="phase-task"][data-done="true"]')).toHaveCount(2);
  await expect(phase0.locator('[data-testid="phase-test"][data-by="forge"][data-passed="true"]')).toHaveCount(1);
  await expect(phase0.locator('[data-testid="phase-test"][data-by="builder"]')).toHaveCount(1);
  await expect(phase0.getByTestId('phase-signoff')).toHaveAttribute('data-accepted', 'true');
  await page.screenshot({ path: join(screenshotDir, 'builds-stop.png') });

  // The answer goes to the builder, which plans, writes and signs off phase 1.
  await stopForm.getByLabel('Your answer').fill(ANSWER);
  await stopForm.getByTestId('build-answer-send').click();
  await expect(detail.getByTestId('build-status')).toHaveAttribute('data-status', 'completed', { timeout: 45_000 });
  await expect(detail.getByTestId('build-stop-form')).toHaveCount(0);
  await expect(phase1).toHaveAttribute('data-status', 'signed_off');
  await expect(phase1.locator('[data-testid="phase-task"][data-done="true"]')).toHaveCount(2);
  await expect(phase1.getByTestId('phase-signoff')).toHaveAttribute('data-accepted', 'true');
  await expect(detail.getByTestId('build-progress')).toHaveText('2/2 signed off');
  for (const id of ['build-pause', 'build-resume', 'build-stop']) await expect(detail.getByTestId(id)).toBeDisabled();
  await expect(page.locator('[data-testid="build-row"]').first()).toHaveAttribute('data-status', 'completed');

  // The log shows the tool calls (with their results), the user's answer and the sign-offs.
  const log = detail.getByTestId('build-log');
  await expect(log.locator('[data-testid="build-log-entry"][data-tool="forge_get_phase_window"]')).toHaveCount(2);
  await expect(log.locator('[data-testid="build-log-entry"][data-tool="write_file"]')).toHaveCount(4);
  await expect(log.locator('[data-testid="build-log-entry"][data-tool="run_tests"]')).toHaveCount(1);
  await expect(log.locator('[data-testid="build-log-entry"][data-kind="user"]')).toContainText(ANSWER);
  await expect(log.locator('[data-testid="build-log-entry"][data-kind="status"]').last()).toContainText('every phase is done');
  await expect(log.locator('[data-testid="build-log-result"]').first()).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'builds-completed.png') });
  await log.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'builds-log.png') });
  // The same screen in the dark theme (the board, log and meter use the theme's colours).
  await api(request, forge, 'settings/set', { settings: { theme: 'dark' } });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(screenshotDir, 'builds-dark.png') });

  // What the screen showed happened for real: the files are in the project, and the model got the answer.
  expect(readFileSync(join(project, 'src', 'counter.js'), 'utf8')).toContain('++n');
  expect(existsSync(join(project, 'test', 'add.test.js'))).toBe(true);
  expect(steps).toHaveLength(0);
  expect(builderRequests.some((r) => lastUserText(r).includes(ANSWER))).toBe(true);
  expect(problems()).toEqual([]);
  await screenshotsInBothThemes(page, 'builds');
});
