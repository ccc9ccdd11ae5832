import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from './core';
import { tempCore } from './testing';
import { EnvSecretStore } from '../config/secrets';

const disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (disposers.length) await disposers.pop()!();
});
function make(env: Record<string, string | undefined> = {}) {
  const t = tempCore(env);
  disposers.push(t.dispose);
  return t;
}

describe('core', () => {
  it('answers app/info with version, mode and its own data folder', async () => {
    const { core, dataDir } = make();
    const r = await core.invoke('app/info', {});
    expect(r.ok && r.value.dataDir).toBe(dataDir);
    expect(r.ok && r.value.mode).toBe('test');
    expect(r.ok && r.value.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reports invalid input with zod issue paths instead of crashing', async () => {
    const { core } = make();
    const r = await core.invokeUnknown('settings/set', { settings: { sessionTimeoutMinutes: -5, theme: 'neon' } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    const paths = r.error.issues!.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['settings.sessionTimeoutMinutes', 'settings.theme']);
    expect(r.error.message).toMatch(/settings\.theme/);
  });

  it('sends zod\'s code and limits with each issue, so the UI can say "at most 2,000 characters"', async () => {
    const { core } = make();
    const r = await core.invokeUnknown('memory/list', { path: '/memory/views/', query: 'x'.repeat(2001) });
    expect(!r.ok && r.error.issues).toEqual([{ path: ['query'], message: expect.any(String), code: 'too_big', origin: 'string', maximum: 2000 }]);
    const t = await core.invokeUnknown('settings/set', { settings: { sessionTimeoutMinutes: 'soon' } });
    expect(!t.ok && t.error.issues?.[0]).toMatchObject({ path: ['settings', 'sessionTimeoutMinutes'], code: 'invalid_type', expected: 'number' });
  });

  it('refuses unknown procedures and unknown input keys by name', async () => {
    const { core } = make();
    const a = await core.invokeUnknown('app/destroy', {});
    expect(!a.ok && a.error.code).toBe('not_found');
    const b = await core.invokeUnknown('settings/set', { settings: { colour: 'red' } });
    expect(!b.ok && b.error.code).toBe('invalid_input');
  });

  it('persists settings to settings.json so they survive a restart', async () => {
    const { core, dataDir } = make();
    const r = await core.invoke('settings/set', { settings: { displayName: 'Macro PM', theme: 'dark' } });
    expect(r.ok).toBe(true);
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.displayName).toBe('Macro PM');
    await core.close();
    const again = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
    const g = await again.invoke('settings/get', {});
    expect(g.ok && g.value.settings.theme).toBe('dark');
    await again.close();
  });

  it('never returns a secret, only whether it is set', async () => {
    const { core } = make({ ANTHROPIC_API_KEY: 'sk-ant-secret-value' });
    const r = await core.invoke('settings/set', { secrets: { voyageApiKey: 'voyage-secret' } });
    expect(JSON.stringify(r)).not.toMatch(/secret-value|voyage-secret/);
    expect(r.ok && r.value.secrets).toMatchObject({ anthropicApiKey: true, voyageApiKey: true, openaiApiKey: false });
    const cleared = await core.invoke('settings/set', { secrets: { voyageApiKey: '' } });
    expect(cleared.ok && cleared.value.secrets.voyageApiKey).toBe(false);
  });

  it('keeps two cores in one process apart (settings and events)', async () => {
    const a = make();
    const b = make();
    const seenByB: unknown[] = [];
    b.core.context.events.subscribe((m) => seenByB.push(m));
    await a.core.invoke('settings/set', { settings: { displayName: 'A' } });
    const bs = await b.core.invoke('settings/get', {});
    expect(bs.ok && bs.value.settings.displayName).toBe('');
    expect(seenByB).toEqual([]);
  });

  it('moves a damaged settings file aside and says so in health, instead of losing it silently', async () => {
    const { dataDir } = make();
    writeFileSync(join(dataDir, 'settings.json'), '{"theme": "dark", ');
    const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
    disposers.push(() => core.close());
    const h = await core.invoke('app/health', {});
    expect(h.ok && h.value.status).toBe('degraded');
    expect(h.ok && h.value.checks.find((c) => c.name === 'settings')?.detail).toMatch(/corrupt-/);
  });
});
