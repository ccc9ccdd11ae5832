import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../common/errors';
import { packageRoot } from '../common/package-root';
import { Store } from '../store';
import { ForgeFS } from './forge-fs';
import { findBundledDir, seedWorkspace } from './seed';
import type { WriteContext } from './types';
import { trackerWriter } from './write-authority';

/**
 * Calibration is computed, never typed in (issue #26 §4). If these fail, a PM's calibration — the
 * hit rates their confidence is judged by — could be faked by a hand-written Outcome, a
 * Counterfactual marked won, or an edited calibration file, from any door that writes memory.
 */
let dir: string;
let store: Store;
let fs: ForgeFS;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-authority-'));
  store = Store.open(join(dir, 'forge.db'));
  fs = new ForgeFS({ store, skillsDir: join(dir, 'skills') });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const WRITERS: WriteContext[] = [
  { actor: 'agent' },
  { actor: 'subagent:t1', taskId: 't1' },
  { actor: 'pm' },
  { actor: 'mcp' },
  { actor: 'scheduler' },
  { actor: 'builder' },
];

const resolvedOutcome = (id: string) =>
  `# ${id} — Outcome of E-001\nexpression: E-001\nstatus: resolved\ncategory: macro_regime\nconfidence: 0.9\nhit: true\npnl_bp: 500\nexit_date: 2026-01-20\n---\n## SUMMARY\nA win.\n`;
const cf = (status: string, extra = '') =>
  `# new — Declined: receive 2y\ndecision_type: rejected_expression\nexpression: E-005\nreference_date: 2026-01-10\nstatus: ${status}\nconfidence: 0.7\ncategory: macro_regime\n${extra}---\n## SUMMARY\nDeclined.\n`;

async function refused(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(isAppError(e), String(e)).toBe(true);
  const err = e as { code: string; message: string };
  expect(err.code).toBe('forbidden');
  return err.message;
}

const rows = (category: string) => (store.db.prepare('SELECT count(*) AS n FROM memory_records WHERE category = ?').get(category) as { n: number }).n;
const audits = () => store.audit.list({ limit: 1000 }).length;

describe('only the tracker writes Outcomes, Counterfactual results and Calibration files', () => {
  it('refuses a hand-written resolved Outcome from every other writer, naming the tracker; nothing is stored and no id is spent', async () => {
    for (const w of WRITERS) {
      const message = await refused(fs.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), w));
      expect(message).toMatch(/^Outcomes are recorded only by Forge's tracker when an Expression closes/);
      await refused(fs.writeFile('/memory/outcomes/OUT-007.md', resolvedOutcome('OUT-007'), w));
    }
    expect(rows('outcomes')).toBe(0);
    expect(audits()).toBe(0);
    // The refused writes rolled back with their id: the tracker's first Outcome is still OUT-001.
    const r = await fs.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), trackerWriter());
    expect(r.id).toBe('OUT-001');
    expect(store.audit.list({ limit: 1 })[0]).toMatchObject({ actor: 'tracker', operation: 'create', path: '/memory/outcomes/OUT-001.md' });
  });

  it("refuses editing, deleting or archiving the tracker's Outcome", async () => {
    await fs.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), trackerWriter());
    const before = fs.readFile('/memory/outcomes/OUT-001.md');
    const edited = before.replace('hit: false', 'hit: true').replace('pnl_bp: 500', 'pnl_bp: 5000');
    expect(await refused(fs.writeFile('/memory/outcomes/OUT-001.md', edited, { actor: 'pm' }))).toContain('The PM cannot change /memory/outcomes/OUT-001.md');
    expect(await refused(fs.deleteFile('/memory/outcomes/OUT-001.md', { actor: 'agent' }))).toContain('The analyst cannot delete');
    expect(await refused(fs.archive('/memory/outcomes/OUT-001.md', { actor: 'pm' }))).toContain('cannot archive');
    expect(fs.readFile('/memory/outcomes/OUT-001.md')).toBe(before);
    expect(audits()).toBe(1);
  });

  it('refuses writing or editing a Calibration file except by the tracker', async () => {
    const file = '# macro_regime — Calibration\ncategory: macro_regime\nbrier: 0.01\nhit_rate: 1\n---\n## SUMMARY\nPerfect.\n';
    for (const w of WRITERS)
      expect(await refused(fs.writeFile('/memory/calibration/macro_regime.md', file, w))).toMatch(/^Calibration files are computed only by Forge's tracker/);
    expect(rows('calibration')).toBe(0);
    await fs.writeFile('/memory/calibration/macro_regime.md', file.replace('brier: 0.01', 'brier: 0.2'), trackerWriter());
    await refused(fs.writeFile('/memory/calibration/macro_regime.md', file, { actor: 'pm' }));
    await refused(fs.deleteFile('/memory/calibration/macro_regime.md', { actor: 'pm' }));
    expect(fs.readFile('/memory/calibration/macro_regime.md')).toContain('brier: 0.2');
  });

  it('lets a Counterfactual be created as tracking, but refuses its result from anyone but the tracker', async () => {
    // Creation stays with whoever declines a trade (the PM's reject, the analyst's own proposal).
    const created = await fs.writeFile('/memory/counterfactuals/new.md', cf('tracking'), { actor: 'agent' });
    expect(created.id).toBe('CF-001');
    const path = '/memory/counterfactuals/CF-001.md';
    const open = fs.readFile(path);
    // An edit that keeps it unresolved is allowed (a clearer reason).
    await fs.writeFile(path, open.replace('reason', 'reason').replace('confidence: 0.7', 'confidence: 0.7\nreason: carry too thin'), { actor: 'pm' });
    const current = fs.readFile(path);
    // Marking it won: by status, by the result fields, or both.
    expect(await refused(fs.writeFile(path, current.replace('status: tracking', 'status: completed'), { actor: 'pm' }))).toMatch(
      /^A Counterfactual is resolved only by Forge's tracker.*status: completed/,
    );
    expect(await refused(fs.writeFile(path, current.replace('status: tracking', 'status: tracking\nhit: true\npnl_bp: 80'), { actor: 'agent' }))).toContain(
      'cannot set hit, pnl_bp',
    );
    // Nor can anyone but the tracker name the evidence a result was priced from.
    expect(
      await refused(
        fs.writeFile(path, current.replace('status: tracking', 'status: tracking\nseries_used: spy.close\nseries_as_of: 2026-01-30'), { actor: 'pm' }),
      ),
    ).toContain('cannot set series_used, series_as_of');
    await refused(fs.writeFile('/memory/counterfactuals/new.md', cf('completed', 'hit: true\n'), { actor: 'subagent:t1', taskId: 't1' }));
    await refused(fs.writeFile('/memory/counterfactuals/new.md', cf('expired'), { actor: 'mcp' }));
    expect(fs.readFile(path)).toBe(current);
    expect(rows('counterfactuals')).toBe(1);

    // Once the tracker resolved it, nobody else changes or removes it.
    await fs.writeFile(path, current.replace('status: tracking', 'status: completed\nhit: false\npnl_bp: -40\nexit_date: 2026-02-01'), trackerWriter());
    const resolved = fs.readFile(path);
    expect(await refused(fs.writeFile(path, resolved.replace('hit: false', 'hit: true'), { actor: 'pm' }))).toContain('is resolved (status completed)');
    expect(await refused(fs.writeFile(path, resolved.replace('status: completed', 'status: tracking'), { actor: 'agent' }))).toContain('is resolved');
    await refused(fs.deleteFile(path, { actor: 'pm' }));
    await refused(fs.archive(path, { actor: 'pm' }));
    expect(fs.readFile(path)).toBe(resolved);
  });

  it('holds inside a transaction: one refused write takes the whole transaction with it', async () => {
    await refused(
      fs.transaction((tx) => {
        tx.writeFile('/memory/views/new.md', '# new — A view\nstatus: active\n---\n## SUMMARY\nx\n', { actor: 'agent' });
        tx.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), { actor: 'agent' });
      }),
    );
    expect(rows('views')).toBe(0);
    expect(audits()).toBe(0);
  });
});

describe("the tracker's authority cannot be claimed", () => {
  it('refuses a writer that only names itself "tracker", and one that went through JSON (an API input, a tool argument)', async () => {
    const forged = { actor: 'tracker' } as WriteContext;
    expect(await refused(fs.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), forged))).toMatch(/Only Forge's tracker writes as "tracker"/);
    const viaJson = JSON.parse(JSON.stringify(trackerWriter())) as WriteContext;
    await refused(fs.writeFile('/memory/outcomes/new.md', resolvedOutcome('new'), viaJson));
    // Nor can it write anything else under that name.
    await refused(fs.writeFile('/memory/views/new.md', '# new — v\nstatus: active\n', forged));
    expect(rows('outcomes') + rows('views')).toBe(0);
  });

  it('is used only by the tracking module, the write pipeline (the Outcome of a close) and tests', () => {
    // A new caller of trackerWriter would be a new way to write Outcomes: it must be reviewed, and added here.
    const root = packageRoot();
    const allowed = [/^src-main\/tracking\//, /^src-main\/tools\/write-pipeline\.ts$/, /^src-main\/fs\/(write-authority|index)\.ts$/];
    const isTest = (p: string) => /\.test\.ts$|\.contract\.ts$|\/__tests__\/|\/testing\.ts$/.test(p);
    const users: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name) && /\btrackerWriter\s*\(/.test(readFileSync(p, 'utf8'))) users.push(relative(root, p).split('\\').join('/'));
      }
    };
    walk(join(root, 'src-main'));
    walk(join(root, 'src-renderer'));
    const unexpected = users.filter((p) => !isTest(p) && !allowed.some((re) => re.test(p)));
    expect(unexpected).toEqual([]);
    // The control itself is in place (the scan finds the tracker's own uses).
    expect(users).toContain('src-main/tracking/outcome-tracker.ts');
  });
});

describe('the demo seed still loads its calibration files', () => {
  it('seeds a new workspace, calibration files included, as the seed', async () => {
    const seedDir = findBundledDir(join('resources', 'seed'))!;
    const r = await seedWorkspace(fs, seedDir);
    expect(r.seeded).toBe(true);
    expect(fs.exists('/memory/calibration/macro_regime.md')).toBe(true);
    expect(store.audit.list({ path: '/memory/calibration/macro_regime.md', limit: 1 })[0]).toMatchObject({ actor: 'pm', operation: 'seed' });
  });
});
