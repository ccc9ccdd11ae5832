import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli';
import { createCore } from './core';

/**
 * `forge sample` on a real workspace folder: the first command seeds it with the sample (as a new
 * data folder is), later ones read and clear it, and a fresh core opened on the folder afterwards
 * shows what was really stored. Console output is what the PM reads at the terminal.
 */
let dataDir: string;
let out: string[];
let err: string[];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-sample-cli-'));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The Views stored in the folder, read by a core of its own (not the command's). */
async function viewsIn(dir: string): Promise<number> {
  const core = createCore({ dataDir: dir, mode: 'headless', scheduler: false });
  try {
    await core.context.memory.ready;
    return core.context.memory.fs.listDir('/memory/views').entries.length;
  } finally {
    await core.close();
  }
}

describe('forge sample (Home\'s "Start empty" from the terminal)', () => {
  it('says the workspace is the sample, refuses --clear without --yes, then clears it and lists what it removed', { timeout: 120_000 }, async () => {
    // Fails as: a PM scripting a fresh install cannot get rid of the made-up Views, or loses them with no confirmation step.
    expect(await main(['sample', '--data', dataDir])).toBe(0);
    expect(out.join('\n')).toMatch(/untouched sample workspace \(15 sample records\)/);
    const views = await viewsIn(dataDir);
    expect(views).toBeGreaterThan(0);

    expect(await main(['sample', '--clear', '--data', dataDir])).toBe(2);
    expect(err.join('\n')).toMatch(/would remove the 15 sample records.*Nothing was removed; run again with --yes/);
    expect(await viewsIn(dataDir)).toBe(views);

    out = [];
    expect(await main(['sample', '--clear', '--yes', '--data', dataDir])).toBe(0);
    const said = out.join('\n');
    expect(said).toMatch(/Removed 15 sample records\. The sample positions and limits stay/);
    expect(said).toMatch(/removed {2}\/memory\/views\/V-001\.md/);
    expect(said).toMatch(/kept {5}\/portfolio\/state\.md/);
    expect(await viewsIn(dataDir)).toBe(0);

    // Cleared once: a second run removes nothing and says so.
    err = [];
    expect(await main(['sample', '--clear', '--yes', '--data', dataDir])).toBe(1);
    expect(err.join('\n')).toMatch(/already cleared/);
  });

  it('refuses to clear a workspace the PM has written to, and keeps every record', { timeout: 120_000 }, async () => {
    // Fails as: `forge sample --clear --yes` on a workspace in use deletes Views the PM relied on.
    const core = createCore({ dataDir, mode: 'headless', scheduler: false });
    await core.context.memory.ready;
    const wrote = await core.invoke('memory/write', {
      path: '/memory/views/new.md',
      content: ['# new — Curve steepens', 'status: active', 'confidence: 0.6', 'scope: US rates', '---', '## SUMMARY', "The PM's own view."].join('\n'),
    });
    if (!wrote.ok) throw new Error(wrote.error.message);
    const views = core.context.memory.fs.listDir('/memory/views').entries.length;
    await core.close();

    expect(await main(['sample', '--clear', '--yes', '--data', dataDir])).toBe(1);
    expect(err.join('\n')).toMatch(/in use .*A record was written in \/memory\/views\/.*the sample stays/);
    expect(await viewsIn(dataDir)).toBe(views);
  });

  it('refuses --yes alone and unknown options with a usage message', async () => {
    expect(await main(['sample', '--yes', '--data', dataDir])).toBe(2);
    expect(err.join('\n')).toMatch(/--yes confirms --clear/);
    expect(await main(['sample', '--wipe'])).toBe(2);
    expect(err.join('\n')).toMatch(/Usage: forge sample/);
  });
});
