import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EnvSecretStore } from '../config/secrets';
import { MINILM_MANIFEST } from '../search';
import { buildStamp, modelDownloadSize } from './build-info';
import { main } from './cli';
import { createCore, type Core } from './core';

let dirs: string[] = [];
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  vi.restoreAllMocks();
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'forge-build-info-'));
  dirs.push(d);
  return d;
}

describe('forge version and About: the exact build and its optional parts', () => {
  // Without this a support desk cannot tell which build a PM runs, or why search or scripts behave differently on one machine.
  it('forge version names the build, the platform, Node, and whether ranking, the search model and confinement are on', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    expect(await main(['version', '--data', dataDir])).toBe(0);
    const out = lines.join('\n');
    expect(out).toMatch(/^Forge \d+\.\d+\.\d+/);
    expect(out).toMatch(/build\s+source checkout \(not built\)/);
    expect(out).toContain(`${process.platform}-${process.arch}, Node ${process.versions.node}`);
    // The same ranking on every machine: a support desk never sees it "off" for want of a compiler.
    expect(out).toMatch(/keyword ranking\s+on: exact BM25, in memory/);
    expect(out).toMatch(/search model\s+off: not installed: .*download it \(~23 MB\) in Settings → Search/);
    expect(out).toMatch(/script confinement\s+(on|off): /);
  });

  it('forge --version stays one scriptable line', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    expect(await main(['--version'])).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+\S*$/)]);
  });

  it('a built app reports the commit and date baked in at build time, a source run says so rather than inventing one', () => {
    expect(buildStamp({ commit: '172aaae0c0de', builtAt: '2026-11-28T00:40:00Z' })).toMatchObject({ commit: '172aaae0c0de', builtAt: '2026-11-28T00:40:00Z' });
    expect(buildStamp(undefined)).toMatchObject({ commit: 'source checkout', builtAt: 'source checkout', arch: process.arch });
  });

  // The PM decides whether to download on a metered line: the size must be what the manifest pins, not a guess in the UI.
  it('the model download size is summed from the pinned manifest', () => {
    const size = modelDownloadSize();
    expect(size?.bytes).toBe(MINILM_MANIFEST.files.reduce((s, f) => s + (f.size ?? 0), 0));
    expect(size?.label).toBe('~23 MB');
  });

  it('app/info carries the build and the optional parts for the About section', async () => {
    const dataDir = tempDir();
    core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
    const r = await core.invoke('app/info', {});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.build).toMatchObject({ commit: 'source checkout', arch: process.arch, modelDownload: { label: '~23 MB' } });
    expect(r.value.build?.parts.map((p) => p.name)).toEqual(['keyword ranking', 'search model', 'script confinement']);
    expect(r.value.build?.parts.find((p) => p.name === 'search model')).toMatchObject({ active: false });
    expect(r.value.build?.parts.find((p) => p.name === 'keyword ranking')).toMatchObject({
      active: true,
      detail: expect.stringMatching(/^exact BM25, in memory \(/),
    });
  }, 60_000);
});
