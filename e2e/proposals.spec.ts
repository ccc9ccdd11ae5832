import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { DEFAULT_ALLOWED_COMMANDS } from '../src-main/builder/workspace/argv';
import { renderProposal, writePk } from '../src-main/evolution';
import { openWorkspace, renderRecord, sha256, trackerWriter } from '../src-main/fs';
import { expect, type ForgeServer, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

const SKILL = 'expression-design';
/** The approved edit: a new rule after the skill's opening paragraph (near the top, so it is in view). */
const EDIT_1 = { old: 'carry when the View is wrong.', new: 'carry when the View is wrong.\n\nHalve the size into a central-bank meeting.' };
/** The rejected edit. */
const EDIT_2 = { old: '## Output Format', new: '## Output Format (one table only)' };
/** The one that goes stale: its quoted heading is edited by hand while the PM is looking at it. */
const EDIT_3 = { old: '## Procedure', new: '## Procedure (check the central-bank calendar first)' };

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

/**
 * Writes what the weekly retrospective and the MetaOptimizer would have: an Outcome, five PK
 * entries citing it, and two structured proposals on the bundled expression-design skill — through
 * the real ForgeFS and record formats (no model is reachable here to run the MetaOptimizer).
 */
async function seedProposals(dataDir: string): Promise<{ pkIds: string[]; original: string }> {
  const ws = openWorkspace({ dataDir });
  try {
    await ws.ready;
    const { id: outcome } = await ws.fs.writeFile(
      '/memory/outcomes/new.md',
      renderRecord({
        id: 'new',
        title: 'E-002 stopped out into the March FOMC',
        header: { status: 'recorded', pnl: -42000 },
        body: '## SUMMARY\nStopped out.\n',
      }),
      // Only the tracker records Outcomes (the PM's editor is refused).
      trackerWriter(),
    );
    const pkIds: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const { id } = await writePk(
        ws.fs,
        {
          title: `Lesson ${i}: size down before central-bank meetings`,
          weight: 0.6,
          category: 'sizing',
          skills: [SKILL],
          evidence: [outcome!],
          stance: { claim: 'size_down_before_cb_meetings', direction: 'for' },
          summary: `Trades held at full size into a central-bank meeting lost more than their stop allowed (lesson ${i}).`,
        },
        { actor: 'agent' },
      );
      pkIds.push(id);
    }
    const original = ws.fs.readFile(`/skills/${SKILL}/SKILL.md`);
    expect(original.split(EDIT_1.old)).toHaveLength(2);
    expect(original.split(EDIT_2.old)).toHaveLength(2);
    expect(original.split(EDIT_3.old)).toHaveLength(2);
    const propose = (title: string, edit: { old: string; new: string }) =>
      ws.fs.writeFile(
        '/memory/proposals/new.md',
        renderProposal({
          title,
          skill: SKILL,
          targetFile: 'SKILL.md',
          claim: 'size_down_before_cb_meetings',
          direction: 'for',
          pkIds: pkIds.slice(0, 3),
          corroborating: pkIds,
          rationale: 'Five lessons from the last quarter agree: full size into a central-bank meeting cost more than the stop allowed.',
          createdAt: new Date().toISOString(),
          baseHash: sha256(original),
          oldText: edit.old,
          newText: edit.new,
          model: 'scripted:proposal',
        }),
        { actor: 'scheduler' },
      );
    await propose('Halve size into central-bank meetings', EDIT_1);
    await propose('One table only in the output', EDIT_2);
    await propose('Check the calendar before the procedure', EDIT_3);
    return { pkIds, original };
  } finally {
    ws.close();
  }
}

test('approves a proposal from its diff and sees the skill change on the Skills screen', async ({ page, forge, request }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  const { pkIds, original } = await seedProposals(forge.dataDir);
  await forge.restart();
  const skillFile = join(forge.dataDir, 'skills', SKILL, 'SKILL.md');

  await page.goto(forge.url);
  // The badge counts what waits for the PM, before the screen is opened.
  await expect(page.getByTestId('proposals-badge')).toContainText('3');
  await page.getByTestId('nav-proposals').click();
  const rows = page.getByTestId('proposal-row');
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-id'), e.getAttribute('data-status')]))).toEqual([
    ['SEP-001', 'pending'],
    ['SEP-002', 'pending'],
    ['SEP-003', 'pending'],
  ]);

  // Open the first: a side-by-side Monaco diff of SKILL.md now and as proposed.
  await page.locator('[data-testid="proposal-row"][data-id="SEP-001"]').click();
  await expect(page).toHaveURL(/#\/proposals\/SEP-001$/);
  const detail = page.getByTestId('proposal-detail');
  const diff = detail.getByTestId('proposal-diff');
  await expect(diff).toHaveAttribute('data-engine', 'monaco', { timeout: 20_000 });
  await expect(diff.locator('.monaco-diff-editor .editor.modified .view-lines')).toContainText('Halve the size into a central-bank meeting.');
  await expect(diff.locator('.monaco-diff-editor .editor.original .view-lines')).not.toContainText('Halve the size');
  // Inline for a narrow window, and back: the same change, one column.
  await diff.getByTestId('diff-inline').click();
  await expect(diff).toHaveAttribute('data-layout', 'inline');
  await expect(diff.locator('.monaco-diff-editor')).not.toHaveClass(/side-by-side/);
  await expect(diff.locator('.monaco-diff-editor .editor.modified .view-lines')).toContainText('Halve the size into a central-bank meeting.');
  await diff.getByTestId('diff-side-by-side').click();
  await expect(diff.locator('.monaco-diff-editor')).toHaveClass(/side-by-side/);
  await expect(detail).toContainText('Five lessons from the last quarter agree');

  // The cited PK, one click away: weight, stance and the evidence it rests on.
  const pk = detail.locator(`[data-testid="pk-entry"][data-id="${pkIds[0]}"]`);
  await expect(pk.getByTestId('pk-evidence')).toBeHidden();
  await pk.locator('summary').click();
  await expect(pk.getByTestId('pk-evidence')).toContainText(/OUT-\d+/);
  await expect(pk).toContainText('0.60');
  await expect(pk).toContainText('for size down before cb meetings');
  await page.screenshot({ path: join(screenshotDir, 'proposals-diff.png') });

  // Approve, after a confirmation.
  await detail.getByTestId('proposal-approve').click();
  expect(readFileSync(skillFile, 'utf8')).toBe(original); // nothing changes before the confirmation
  await detail.getByTestId('proposal-approve-confirm').click();
  await expect(detail.getByTestId('proposal-status')).toHaveText('Approved');
  await expect(detail.getByTestId('proposal-decision')).toContainText(/Approved by pm on .* skill version 2\./);
  await expect(page.getByTestId('proposals-badge')).toContainText('2');
  const approved = original.replace(EDIT_1.old, EDIT_1.new);
  expect(readFileSync(skillFile, 'utf8')).toBe(approved);

  // The second is rejected with a reason; the reason is required, and the file is left alone.
  await page.locator('[data-testid="proposal-row"][data-id="SEP-002"]').click();
  await expect(detail).toHaveAttribute('data-id', 'SEP-002');
  await expect(detail.getByTestId('proposal-file-changed')).toBeVisible();
  await detail.getByTestId('proposal-reject').click();
  await detail.getByTestId('proposal-reject-confirm').click();
  await expect(detail.getByTestId('proposal-reject-error')).toContainText(/say why/i);
  await detail.getByTestId('proposal-reject-reason').fill('The template already asks for one table; this adds nothing.');
  await detail.getByTestId('proposal-reject-confirm').click();
  await expect(detail.getByTestId('proposal-status')).toHaveText('Rejected');
  await expect(detail.getByTestId('proposal-decision')).toContainText('Rejected by pm on');
  await expect(detail.getByTestId('proposal-decision')).toContainText('this adds nothing');
  await expect(page.getByTestId('proposals-badge')).toContainText('1');
  expect(readFileSync(skillFile, 'utf8')).toBe(approved);
  await page.screenshot({ path: join(screenshotDir, 'proposals-decided.png') });

  // The Skills screen shows the new text and the kept versions.
  await page.locator('[data-testid="proposal-row"][data-id="SEP-001"]').click();
  await detail.getByTestId('proposal-open-skill').click();
  await expect(page).toHaveURL(new RegExp(`#/skills/${SKILL}$`));
  const editor = page.getByTestId('skill-editor');
  await expect(editor).toHaveAttribute('data-engine', 'monaco', { timeout: 20_000 });
  await expect(editor.locator('.monaco-editor .view-lines')).toContainText('Halve the size into a central-bank meeting.');
  const versions = page.getByTestId('skill-version');
  await expect(versions).toHaveCount(2);
  expect(await versions.evaluateAll((els) => els.map((e) => [e.getAttribute('data-version'), e.getAttribute('data-current')]))).toEqual([
    ['2', 'true'],
    ['1', 'false'],
  ]);
  await expect(versions.first()).toContainText('approved SEP-001');
  await page.screenshot({ path: join(screenshotDir, 'skills-versions.png') });

  // Restore brings the text before the edit back, itself recorded as a new version.
  await versions.nth(1).click();
  await expect(page.getByTestId('skill-version-bar')).toContainText('SKILL.md, version 1');
  await page.getByTestId('skill-restore').click();
  await page.getByTestId('skill-restore-confirm').click();
  await expect(page.getByTestId('skill-restored')).toContainText('version 3');
  expect(readFileSync(skillFile, 'utf8')).toBe(original);
  const after = await api<{ versions: { version: number; current: boolean; restoredFrom: number | null }[] }>(request, forge, 'skills/versions', {
    skill: SKILL,
  });
  expect(after.versions.map((v) => [v.version, v.current, v.restoredFrom])).toEqual([
    [3, true, 1],
    [2, false, null],
    [1, false, null],
  ]);

  // A proposal whose quoted text is edited away while the PM reads it: Approve is refused in words,
  // the proposal is rejected automatically, and the hand edit is left as it is.
  await page.getByTestId('nav-proposals').click();
  await page.locator('[data-testid="proposal-row"][data-id="SEP-003"]').click();
  await expect(detail.getByTestId('proposal-status')).toHaveText('Pending');
  const handEdited = original.replace(EDIT_3.old, '## Steps');
  writeFileSync(skillFile, handEdited);
  await detail.getByTestId('proposal-approve').click();
  await detail.getByTestId('proposal-approve-confirm').click();
  await expect(detail.getByTestId('proposal-error')).toContainText(/SEP-003 can no longer be applied: .*rejected automatically/);
  await expect(detail.getByTestId('proposal-status')).toHaveText('Rejected');
  await expect(detail.getByTestId('proposal-decision')).toContainText('Rejected automatically by Forge');
  await expect(page.getByTestId('proposals-badge')).toHaveCount(0);
  expect(readFileSync(skillFile, 'utf8')).toBe(handEdited);
  await page.screenshot({ path: join(screenshotDir, 'proposals-stale.png') });
  // The refused approval is the one failed request the browser logs; nothing else went wrong.
  expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
  await screenshotsInBothThemes(page, 'proposals');
});

/**
 * Resolved Outcomes as the OutcomeTracker leaves them (status, category, stated confidence, hit,
 * exit date), written through ForgeFS: 20 macro_regime forecasts over three months and 6 thematic.
 */
async function seedResolvedOutcomes(dataDir: string): Promise<void> {
  const ws = openWorkspace({ dataDir });
  try {
    await ws.ready;
    const rows: [string, number, boolean, string][] = [];
    const add = (category: string, p: number, hits: number, misses: number, month: string) => {
      for (let i = 0; i < hits + misses; i++) rows.push([category, p, i < hits, `2026-${month}-1${i % 9}`]);
    };
    add('macro_regime', 0.55, 3, 3, '01');
    add('macro_regime', 0.65, 5, 3, '02');
    add('macro_regime', 0.85, 3, 3, '03'); // the worst band: stated 85%, came true half the time
    add('thematic', 0.75, 4, 2, '03');
    await ws.fs.transaction((tx) => {
      for (const [category, p, hit, exit] of rows) {
        const text = [
          '# new — Outcome',
          'status: resolved',
          `category: ${category}`,
          `confidence: ${p}`,
          `hit: ${hit}`,
          `exit_date: ${exit}`,
          '---',
          '## SUMMARY',
          'Closed.',
          '',
        ];
        tx.writeFile('/memory/outcomes/new.md', text.join('\n'), trackerWriter());
      }
    });
  } finally {
    ws.close();
  }
}

test('Run now weighs the lessons and shows each one’s evidence bar', async ({ page, forge }) => {
  // A restart and a MetaOptimizer run on a loaded machine: generous, never a timing assertion.
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await seedProposals(forge.dataDir);
  await forge.restart();
  await page.goto(`${forge.url}#/proposals`);
  await page.getByTestId('meta-run-now').click();
  // The five seeded lessons (weight 0.6 each) clear the bar; their proposal is already waiting, so none is made twice.
  const candidate = page.getByTestId('meta-candidate');
  await expect(candidate).toHaveCount(1, { timeout: 60_000 });
  await expect(candidate).toHaveAttribute('data-verdict', 'pending_exists');
  await expect(candidate.getByTestId('evidence-corroborating')).toHaveText('5 of 5 corroborating');
  await expect(candidate.getByTestId('evidence-contradictions')).toHaveText('0 contradictions');
  await expect(candidate.getByTestId('evidence-weight')).toHaveText('weight 3.00');
  await expect(page.getByTestId('meta-run-result')).toContainText('No new proposals.');
  await expect(page.getByTestId('proposal-row')).toHaveCount(3);
  expect(problems).toEqual([]);
});

test('the Calibration and Schedule screens and Settings → Builder work against the real core', async ({ page, forge, request }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  // The form shows the builder's own default allow-list, as the core sends it.
  const view = await api<{ builderDefaults: { allowedCommands: string[] } }>(request, forge, 'settings/get');
  expect(view.builderDefaults.allowedCommands).toEqual([...DEFAULT_ALLOWED_COMMANDS]);

  // Before anything is resolved the screen says so instead of drawing empty charts.
  await page.goto(`${forge.url}#/calibration`);
  const calibration = page.getByTestId('screen-calibration');
  await expect(calibration.getByTestId('calibration-empty')).toContainText('Nothing resolved yet');
  // Leave the page first, so it does not try to reconnect to the server being restarted.
  await page.goto('about:blank');
  await seedResolvedOutcomes(forge.dataDir);
  await forge.restart();
  await page.goto(`${forge.url}#/calibration`);
  await expect(calibration.getByTestId('calibration-summary')).toContainText('26');
  // 3 of 6 at 85% is not told apart from noise: no worst band is quoted, and the words say so (issue #29 §1).
  await expect(calibration.getByTestId('calibration-worst')).toContainText('no band with 5+ forecasts is told apart from the diagonal');
  await expect(calibration.getByTestId('calibration-verdict')).toContainText('Not enough resolved forecasts yet to tell skill from chance (26 resolved');
  const macro = calibration.locator('[data-testid="calibration-category"][data-category="macro_regime"]');
  await expect(macro.getByTestId('reliability-chart')).toHaveAttribute('data-points', '3');
  await expect(macro.locator('tr.is-worst')).toHaveCount(0);
  await expect(macro.locator('tr[data-band="0.8–0.9"]')).toContainText('(within noise)');
  await expect(calibration.getByTestId('calibration-figures')).toContainText('Calibration slope');
  await expect(macro.locator('tr[data-band="0.6–0.7"]')).toContainText('63%');
  await expect(calibration.getByTestId('brier-chart')).toHaveAttribute('data-months', '3');
  // chart.js drew on the canvas (a blank canvas would read back as all zeros).
  const drawn = await macro.locator('canvas').evaluate((node) => {
    // The e2e project compiles without the DOM library: the little of the canvas API used, typed here.
    type Canvas = {
      width: number;
      height: number;
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } };
    };
    const c = node as unknown as Canvas;
    return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data).some((v) => v !== 0);
  });
  expect(drawn).toBe(true);
  await macro.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'calibration-reliability.png') });
  await calibration.getByTestId('tracking-run').click();
  await expect(calibration.getByTestId('tracking-result')).toContainText(/Checked \d+ active/);
  await page.screenshot({ path: join(screenshotDir, 'calibration.png') });

  await page.getByTestId('nav-schedule').click();
  const jobs = page.getByTestId('schedule-job');
  await expect(jobs).toHaveCount(4);
  const morning = page.locator('[data-testid="schedule-job"][data-job="morning_review"]');
  await expect(morning.getByTestId('schedule-when')).toContainText('Weekdays at 07:00');
  await expect(page.locator('[data-testid="schedule-job"][data-job="weekly_retrospective"]').getByTestId('schedule-when')).toContainText('Fridays at 17:00');
  await morning.getByTestId('schedule-pause').click();
  await expect(morning.getByTestId('schedule-state')).toHaveText('Paused');
  await expect(morning.getByTestId('schedule-next')).toContainText('none while paused');
  const listed = await api<{ jobs: { job: string; paused: boolean }[] }>(request, forge, 'schedule/list');
  expect(listed.jobs.find((j) => j.job === 'morning_review')?.paused).toBe(true);
  await morning.getByTestId('schedule-resume').click();
  await expect(morning.getByTestId('schedule-state')).toHaveText('Scheduled');
  await page.screenshot({ path: join(screenshotDir, 'schedule.png') });

  await page.getByTestId('nav-settings').click();
  const builder = page.getByTestId('settings-builder');
  await expect(builder.getByTestId('setting-builder-mcp')).toBeChecked();
  await expect(builder.getByTestId('builder-default-commands')).toContainText('npm');
  await builder.getByTestId('setting-builder-mcp').uncheck();
  await builder.getByTestId('setting-builder-default-commands').uncheck();
  await builder.getByTestId('setting-builder-commands').fill('npm\nnode\n/bin/sh');
  await builder.getByTestId('settings-builder-save').click();
  await expect(builder.getByTestId('setting-error-builder-commands')).toContainText('/bin/sh');
  await builder.getByTestId('setting-builder-commands').fill('npm\nnode\ngit');
  await builder.getByTestId('setting-builder-context-limit').fill('200k');
  await builder.getByTestId('setting-builder-compact-at').fill('60');
  await builder.getByTestId('settings-builder-save').click();
  await expect(builder.getByTestId('settings-builder-saved')).toBeVisible();
  const saved = await api<{ settings: { builder?: unknown } }>(request, forge, 'settings/get');
  expect(saved.settings.builder).toEqual({ useMcpContracts: false, allowedCommands: ['npm', 'node', 'git'], contextLimitTokens: 200000, compactAtShare: 0.6 });
  await builder.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'settings-builder.png') });
  expect(problems).toEqual([]);
});
