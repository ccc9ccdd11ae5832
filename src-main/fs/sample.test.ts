import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSample, sampleState } from './sample';
import { findBundledDir, readSeedFiles } from './seed';
import { openWorkspace, type Workspace } from './workspace';

// The real seed the app ships, in a real SQLite workspace on disk.
const SEED = findBundledDir(join('resources', 'seed'))!;
const open: { ws: Workspace; dir: string }[] = [];
afterEach(() => {
  for (const { ws, dir } of open.splice(0)) {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function seeded(): Promise<Workspace> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-sample-'));
  const ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: SEED });
  open.push({ ws, dir });
  await ws.ready;
  return ws;
}

const views = (ws: Workspace) => ws.fs.listDir('/memory/views').entries.map((e) => e.path);

describe('the sample workspace is offered, not forced (issue #31 §6)', () => {
  it('a fresh workspace is the untouched sample; Start empty removes every sample record, keeps /portfolio, and audits it as the PM', async () => {
    // Fails as: a new PM clicks "Start empty" and still sees the six sample Views, or their own positions vanish.
    const ws = await seeded();
    expect(views(ws)).toHaveLength(6);
    expect(sampleState(ws.fs, SEED)).toMatchObject({ state: 'untouched', sampleRecords: 15 });

    const recalibrated: string[] = [];
    const result = await clearSample(ws.fs, SEED, {
      regenerateCalibration: async () => {
        recalibrated.push('called');
        return { written: ['/memory/calibration/macro_regime.md'] };
      },
    });
    expect(result.removed).toHaveLength(15);
    expect(result.recalibrated).toEqual(['/memory/calibration/macro_regime.md']);
    expect(recalibrated).toEqual(['called']);
    expect(result.kept.sort()).toEqual(['/portfolio/constraints.md', '/portfolio/state.md']);
    expect(result.message).toContain('sample positions and limits stay until you import your own or edit them');
    expect(views(ws)).toEqual([]);
    for (const p of ['/memory/expressions/E-001.md', '/memory/pk/PK-001.md', '/memory/linkages/L-001.md', '/memory/observations/O-001.md']) {
      expect(ws.fs.exists(p)).toBe(false);
    }
    // The portfolio files are byte-identical to the seed: clearing never touches them.
    for (const f of readSeedFiles(SEED).filter((f) => f.path.startsWith('/portfolio/'))) expect(ws.fs.readFile(f.path)).toBe(f.content);

    const deletes = ws.store.audit.list({ limit: 200 }).filter((a) => a.operation === 'delete');
    expect(deletes).toHaveLength(15);
    expect(new Set(deletes.map((a) => a.actor))).toEqual(new Set(['pm']));
    // Each record keeps its last version in the archive, as every delete does.
    expect(ws.fs.history('/memory/views/V-001.md').versions.length).toBeGreaterThan(0);

    expect(sampleState(ws.fs, SEED).state).toBe('cleared');
    await expect(clearSample(ws.fs, SEED)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a record the PM wrote makes the workspace "in use": clearing is refused and nothing is removed', async () => {
    // Fails as: the PM writes their first View on the sample, clicks Start empty, and loses it (or the sample around it).
    const ws = await seeded();
    await ws.fs.writeFile('/memory/views/new.md', '# new — My own view\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\nMine.\n', { actor: 'pm' });
    const status = sampleState(ws.fs, SEED);
    expect(status.state).toBe('in-use');
    expect(status.reason).toContain('/memory/views/');
    await expect(clearSample(ws.fs, SEED)).rejects.toMatchObject({ code: 'conflict' });
    expect(views(ws)).toHaveLength(7);
    expect(ws.store.audit.list({ limit: 200 }).filter((a) => a.operation === 'delete')).toEqual([]);
  });

  it('a sample record the PM edited makes the workspace "in use", and the edit survives the refused clear', async () => {
    // Fails as: the PM tunes the sample View V-002, clicks Start empty, and their edit is archived away.
    const ws = await seeded();
    const before = ws.fs.readFile('/memory/views/V-002.md');
    const edited = before.replace(/^confidence: .*$/m, 'confidence: 0.55');
    expect(edited).not.toBe(before);
    await ws.fs.writeFile('/memory/views/V-002.md', edited, { actor: 'pm' });
    expect(sampleState(ws.fs, SEED)).toMatchObject({ state: 'in-use', reason: '/memory/views/V-002.md was edited.' });
    await expect(clearSample(ws.fs, SEED)).rejects.toThrow(/in use/);
    expect(ws.fs.readFile('/memory/views/V-002.md')).toContain('confidence: 0.55');
    expect(views(ws)).toHaveLength(6);
  });

  it('a sample record the PM deleted also counts as use', async () => {
    // Fails as: a PM who pruned the sample by hand gets the rest wiped without being asked again.
    const ws = await seeded();
    await ws.fs.deleteFile('/memory/pk/PK-003.md', { actor: 'pm' });
    expect(sampleState(ws.fs, SEED)).toMatchObject({ state: 'in-use', reason: '/memory/pk/PK-003.md was removed.' });
  });

  it('a workspace never seeded has no sample to offer', async () => {
    // Fails as: an empty workspace (or the demo) shows "This is a sample workspace".
    const dir = mkdtempSync(join(tmpdir(), 'forge-sample-'));
    const ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: null });
    open.push({ ws, dir });
    await ws.ready;
    expect(sampleState(ws.fs, SEED).state).toBe('none');
    await expect(clearSample(ws.fs, SEED)).rejects.toMatchObject({ code: 'conflict' });
  });
});
