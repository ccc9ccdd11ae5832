import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { createCore, type Core } from '../core';

let dataDir: string | undefined;
let core: Core | undefined;

afterEach(async () => {
  await core?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  core = undefined;
  dataDir = undefined;
});

async function selfCheck() {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-self-check-'));
  core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  return core;
}

describe('app/self-check', () => {
  it('runs a shipped skill script for real and reports the optional parts active here', async () => {
    const c = await selfCheck();
    const r = await c.invoke('app/self-check', {});
    if (!r.ok) throw new Error(r.error.message);
    const byName = new Map(r.value.checks.map((x) => [x.name, x]));
    // A PM whose installation cannot run skill scripts would see the analyst's sub-agents fail; the check says so first.
    expect(byName.get('skill scripts')).toMatchObject({ ok: true });
    expect(byName.get('skill scripts')!.detail).toMatch(/rv-analysis\/scripts\/zscore\.mjs ran/);
    expect(byName.get('script confinement')!.detail).toMatch(/bubblewrap/);
    // Ranking is TypeScript, present on every target: never reported missing or tied to a compiler.
    expect(byName.get('keyword ranking')).toMatchObject({ ok: true, detail: expect.stringMatching(/^exact BM25, in memory/) });
    expect(r.value.status).toBe('ok');
  }, 60_000);

  it('says degraded, and why, when the shipped script gives the wrong answer', async () => {
    const c = await selfCheck();
    await c.invoke('skills/list', {});
    // A damaged install: the workspace copy of the script prints a wrong figure.
    writeFileSync(join(dataDir!, 'skills', 'rv-analysis', 'scripts', 'zscore.mjs'), 'process.stdout.write(JSON.stringify({ mean: 42 }));\n');
    const r = await c.invoke('app/self-check', {});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.status).toBe('degraded');
    const check = r.value.checks.find((x) => x.name === 'skill scripts')!;
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/zscore\.mjs/);
  }, 60_000);
});
