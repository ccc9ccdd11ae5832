import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { writeHostLock } from '../../mcp';
import { createCore, type Core } from '../core';
import { mcpStateFor } from '../handlers/mcp';

/**
 * The data folder holds the PM's memory, settings, keys and tokens. Another account on the same
 * machine must not be able to read any of it — before this, forge.db was world-readable.
 * (Windows has no POSIX modes; skipped there.)
 */

const posix = process.platform !== 'win32';
const modeOf = (path: string) => statSync(path).mode & 0o777;

let root: string;
let core: Core | undefined;
let umask: number;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'forge-modes-'));
  // The most permissive umask: the modes must come from Forge, not from the environment.
  umask = process.umask(0);
});
afterEach(async () => {
  await core?.close();
  core = undefined;
});
afterAll(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<Core> {
  core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  await core.context.memory.ready;
  return core;
}

describe.skipIf(!posix)('data folder permissions', () => {
  it('creates a new data folder 0700 and every private file in it 0600, the database and its WAL included', async () => {
    const dataDir = join(root, 'fresh', 'workspace');
    const c = await start(dataDir);
    expect((await c.invoke('settings/set', { settings: { displayName: 'Dana' } })).ok).toBe(true);
    expect((await c.invoke('mcp/set-options', { exposeAnalystTools: false })).ok).toBe(true);
    const mcp = mcpStateFor(c.context).service;
    mcp.token.get();
    writeHostLock(dataDir, { url: 'http://127.0.0.1:1', token: 't' });
    mcp.artifacts.store({ project_id: 'demo', artifact_type: 'plan', key: 'p1', content: 'secret plan', persist: true });

    expect(modeOf(dataDir)).toBe(0o700);
    const files = ['forge.db', 'forge.db-wal', 'forge.db-shm', 'settings.json', 'mcp-settings.json', 'mcp-token', 'forge-host.json'];
    const modes = Object.fromEntries(files.map((f) => [f, existsSync(join(dataDir, f)) ? modeOf(join(dataDir, f)).toString(8) : 'missing']));
    expect(modes).toEqual(Object.fromEntries(files.map((f) => [f, '600'])));
    expect(modeOf(join(dataDir, 'mcp-artifacts'))).toBe(0o700);
    const [project] = readdirSync(join(dataDir, 'mcp-artifacts'));
    expect(modeOf(join(dataDir, 'mcp-artifacts', project, 'plan'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'mcp-artifacts', project, 'plan', readdirSync(join(dataDir, 'mcp-artifacts', project, 'plan'))[0]))).toBe(0o600);
  });

  it('tightens a data folder an older version left readable by everyone when it is opened again', async () => {
    const dataDir = join(root, 'older');
    const first = await start(dataDir);
    expect((await first.invoke('settings/set', { settings: { displayName: 'Dana' } })).ok).toBe(true);
    await first.close();
    core = undefined;
    // What an older Forge left behind: everything world-readable, plus keys and a token.
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'secrets.bin'), 'encrypted keys');
    writeFileSync(join(dataDir, 'mcp-token'), 'x'.repeat(43));
    for (const f of ['forge.db', 'settings.json', 'secrets.bin', 'mcp-token']) chmodSync(join(dataDir, f), 0o644);

    const again = await start(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    for (const f of ['forge.db', 'forge.db-wal', 'forge.db-shm', 'settings.json', 'secrets.bin', 'mcp-token']) {
      expect(modeOf(join(dataDir, f)).toString(8), f).toBe('600');
    }
    // The settings themselves survived the tightening.
    const settings = await again.invoke('settings/get', {});
    expect(settings.ok && (settings.value as { settings: { displayName: string } }).settings.displayName).toBe('Dana');
  });
});
