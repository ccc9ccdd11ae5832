import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { createCore, type Core } from './core';
import { createWorkspaceSwitch, type WorkspaceSwitch } from './workspace-switch';

const disposers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (disposers.length) await disposers.pop()!();
});

function make(): { sw: WorkspaceSwitch; real: Core; tmpRoot: string; seen: EventMessage[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'forge-switch-real-'));
  const tmpRoot = mkdtempSync(join(tmpdir(), 'forge-switch-demos-'));
  const real = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  const sw = createWorkspaceSwitch({ real, tmpRoot });
  const seen: EventMessage[] = [];
  sw.context.events.subscribe((m) => seen.push(m));
  disposers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  disposers.push(() => rmSync(tmpRoot, { recursive: true, force: true }));
  disposers.push(() => sw.close());
  return { sw, real, tmpRoot, seen };
}

async function value<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Waits until the active workspace has no analyst run left (the scripted demo has finished). */
async function settled(core: Core): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await value(core.invoke('agent/status', {}))).running.length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the demo run did not finish');
}

/** A fingerprint of the PM's memory and portfolio (every file's path and content) and of its audit trail. */
async function fingerprint(core: Core): Promise<{ files: number; hash: string; audit: number }> {
  const hash = createHash('sha256');
  let files = 0;
  for (const folder of ['/memory/views/', '/memory/expressions/', '/memory/observations/', '/portfolio/']) {
    for (const e of (await value(core.invoke('memory/list', { path: folder, limit: 1000 }))).entries) {
      if (e.isDir) continue;
      files++;
      hash.update(e.path).update((await value(core.invoke('memory/read', { path: e.path }))).content);
    }
  }
  const audit = (await value(core.invoke('memory/audit', { limit: 1000 }))).entries.length;
  return { files, hash: hash.digest('hex'), audit };
}

describe('the workspace switch (the demo workspace)', () => {
  it('routes every screen to the demo workspace, where the scripted run dispatches two sub-agents and proposes an Expression — the PM memory is untouched', async () => {
    const { sw, real, seen } = make();
    await real.context.memory.ready;
    const before = await fingerprint(real);
    expect(before.files).toBeGreaterThan(3);

    const entered = await value(sw.invoke('demo/enter', { speed: 'fast' }));
    expect(entered).toMatchObject({ demo: true, speed: 'fast', turn: 1 });
    expect(existsSync(entered.dataDir)).toBe(true);
    expect(seen.find((m) => m.event === 'app/workspace-changed')?.payload).toEqual({ demo: true });
    expect(await value(sw.invoke('demo/status', {}))).toMatchObject({ demo: true, dataDir: entered.dataDir });
    await settled(sw);

    // Tasks screen: the demo's two sub-agents, done.
    const tasks = (await value(sw.invoke('tasks/list', {}))).tasks.map((t) => `${t.id}:${t.status}`).sort();
    expect(tasks).toEqual(['curve_ctx:ok', 'labour_ctx:ok']);
    // Expressions screen: the proposal is in the demo workspace, not in the PM's.
    const proposed = await value(sw.invoke('memory/list', { path: '/memory/expressions/', query: 'status:proposed' }));
    expect(proposed.entries.map((e) => e.id)).toEqual(['E-004']);
    expect((await value(real.invoke('memory/list', { path: '/memory/expressions/', query: 'status:proposed' }))).entries).toEqual([]);
    expect((await value(real.invoke('tasks/list', {}))).tasks).toEqual([]);
    // The analyst's events reached the switch's subscribers, labelled demo.
    expect(seen.find((m) => m.event === 'agent/done')?.payload).toMatchObject({ demo: true, stop: 'answered', runId: entered.runId });

    expect(await fingerprint(real)).toEqual(before);
  });

  it('going back to my workspace closes the demo, deletes its folder and routes to the PM workspace again', async () => {
    const { sw, real, seen } = make();
    const entered = await value(sw.invoke('demo/enter', { speed: 'fast' }));
    await settled(sw);
    expect(await value(sw.invoke('demo/exit', {}))).toEqual({ demo: false, removed: true });
    expect(existsSync(entered.dataDir)).toBe(false);
    expect(seen.filter((m) => m.event === 'app/workspace-changed').map((m) => m.payload)).toEqual([{ demo: true }, { demo: false }]);
    expect(sw.active()).toBe(real);
    expect(await value(sw.invoke('demo/status', {}))).toEqual({ demo: false });
    const info = await value(sw.invoke('app/info', {}));
    expect(info.dataDir).toBe(real.context.dataDir);
    expect((await value(sw.invoke('memory/list', { path: '/memory/expressions/', query: 'status:proposed' }))).entries).toEqual([]);
    // A second exit has nothing to remove.
    expect(await value(sw.invoke('demo/exit', {}))).toEqual({ demo: false, removed: false });
  });

  it('forwards events only from the active workspace', async () => {
    const { sw, real, seen } = make();
    real.context.events.emit('app/notice', { level: 'info', message: 'real before' });
    await value(sw.invoke('demo/enter', { speed: 'fast' }));
    const demo = sw.active();
    expect(demo).not.toBe(real);
    real.context.events.emit('app/notice', { level: 'info', message: 'real during demo' });
    demo.context.events.emit('app/notice', { level: 'info', message: 'demo during demo' });
    await settled(sw);
    await value(sw.invoke('demo/exit', {}));
    real.context.events.emit('app/notice', { level: 'info', message: 'real after' });
    demo.context.events.emit('app/notice', { level: 'info', message: 'demo after' });
    const notices = seen.filter((m) => m.event === 'app/notice').map((m) => (m.payload as { message: string }).message);
    expect(notices).toEqual(['real before', 'demo during demo', 'real after']);
  });

  it('leaving while the demo run is still streaming stops it cleanly and still deletes the folder', async () => {
    const { sw } = make();
    const entered = await value(sw.invoke('demo/enter', { speed: 'slow' }));
    const demo = sw.active();
    const done: EventMessage[] = [];
    demo.context.events.subscribe((m) => m.event === 'agent/done' && done.push(m));
    expect((await value(sw.invoke('agent/status', {}))).running.map((r) => r.runId)).toEqual([entered.runId]);
    const t0 = Date.now();
    expect(await value(sw.invoke('demo/exit', {}))).toEqual({ demo: false, removed: true });
    // At the slow pace the script takes over a minute; leaving must not wait for it.
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(done.map((m) => m.payload)).toEqual([expect.objectContaining({ runId: entered.runId, stop: 'cancelled', demo: true })]);
    expect(existsSync(entered.dataDir)).toBe(false);
    expect((await value(sw.invoke('agent/status', {}))).running).toEqual([]);
  });

  it('quitting the app while in demo removes the demo folder too', async () => {
    const { sw } = make();
    const entered = await value(sw.invoke('demo/enter', { speed: 'fast' }));
    await sw.close();
    expect(existsSync(entered.dataDir)).toBe(false);
    const after = await sw.invoke('app/info', {});
    expect(after.ok || after.error.code).toBe('unavailable');
  });

  it('a lone core (no switch) refuses to enter the demo with a reason', async () => {
    const { real } = make();
    const r = await real.invoke('demo/enter', {});
    expect(r.ok || r.error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('forge serve') });
    expect(await value(real.invoke('demo/status', {}))).toEqual({ demo: false });
  });
});
