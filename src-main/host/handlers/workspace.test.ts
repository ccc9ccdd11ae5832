import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledDemoDir } from '../../agent';
import { readSeedFiles, findBundledDir } from '../../fs';
import { createCore, type Core } from '../core';
import { EnvSecretStore } from '../../config/secrets';
import { tempCore } from '../testing';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function core(): Promise<Core> {
  const t = tempCore();
  cleanups.push(() => t.dispose());
  await t.core.context.memory.ready;
  return t.core;
}

describe('workspace/sample and workspace/clear-sample (Home: "This is a sample workspace")', () => {
  it('offers the sample on a fresh workspace; Start empty empties Views and recomputes the calibration files from the emptied data', {
    timeout: 60_000,
  }, async () => {
    // Fails as: the PM clicks Start empty and the sample's made-up calibration figures stay on the Calibration screen.
    const c = await core();
    const before = await c.invoke('workspace/sample', {});
    expect(before).toEqual({ ok: true, value: { state: 'untouched', sampleRecords: 15 } });
    const fs = c.context.memory.fs;
    const seedCal = readSeedFiles(findBundledDir(join('resources', 'seed'))!).find((f) => f.path === '/memory/calibration/macro_regime.md')!;
    expect(fs.readFile('/memory/calibration/macro_regime.md')).toBe(seedCal.content);

    const cleared = await c.invoke('workspace/clear-sample', {});
    if (!cleared.ok) throw new Error(cleared.error.message);
    expect(cleared.value.removed).toContain('/memory/views/V-001.md');
    expect(cleared.value.kept).toEqual(expect.arrayContaining(['/portfolio/state.md', '/portfolio/constraints.md']));
    expect(cleared.value.message).toMatch(/sample positions and limits stay/);
    expect(fs.listDir('/memory/views').entries).toEqual([]);
    // The tracker rewrote the calibration file from data (no resolved forecasts now), as the tracker.
    expect(cleared.value.recalibrated).toContain('/memory/calibration/macro_regime.md');
    expect(fs.readFile('/memory/calibration/macro_regime.md')).not.toBe(seedCal.content);
    const calAudit = fs.store.audit.list({ path: '/memory/calibration/macro_regime.md', limit: 10 });
    expect(calAudit[0]?.actor).toBe('tracker');

    expect(await c.invoke('workspace/sample', {})).toMatchObject({ ok: true, value: { state: 'cleared' } });
    const again = await c.invoke('workspace/clear-sample', {});
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('the demo workspace never offers clearing and refuses it', { timeout: 60_000 }, async () => {
    // Fails as: Start empty in the demo wipes the sample the scripted run is about to read.
    const dataDir = mkdtempSync(join(tmpdir(), 'forge-demo-sample-'));
    const c = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}), demo: { demoDir: bundledDemoDir(), speed: 'fast' } });
    cleanups.push(async () => {
      await c.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await c.context.memory.ready;
    expect(await c.invoke('workspace/sample', {})).toEqual({ ok: true, value: { state: 'none', sampleRecords: 0 } });
    expect(await c.invoke('workspace/clear-sample', {})).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(c.context.memory.fs.listDir('/memory/views').entries).toHaveLength(6);
  });
});
