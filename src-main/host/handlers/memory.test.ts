import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core';

let dir: string;
let core: Core;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-memapi-'));
  core = createCore({ dataDir: dir, mode: 'test' });
  // First start seeds the demo workspace in the background; procedures wait for it, direct fs use must too.
  await core.context.memory.ready;
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('memory API', () => {
  it('a new workspace starts with the demo Views, listed with their metadata', async () => {
    const r = await core.invoke('memory/list', { path: '/memory/views/', query: 'status:active' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.total).toBe(4);
    const v1 = r.value.entries.find((e) => e.id === 'V-001')!;
    expect(v1.meta).toBe('US rates | conf:0.7 | active');
  });

  it('the demo is loaded once: a reopened workspace keeps the PM edits and is not reseeded', async () => {
    const fs = core.context.memory.fs;
    await fs.deleteFile('/memory/views/V-005.md', { actor: 'pm' });
    await core.close();
    core = createCore({ dataDir: dir, mode: 'test' });
    const r = await core.invoke('memory/list', { path: '/memory/views/' });
    expect(r.ok && r.value.entries.map((e) => e.id).includes('V-005')).toBe(false);
    expect(r.ok && r.value.total).toBe(5);
  });

  it('reads a View at header depth by default, with its typed fields', async () => {
    const r = await core.invoke('memory/read', { path: '/memory/views/V-001.md' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.depth).toBe('header');
    expect(r.value.content.split('\n')).toHaveLength(9);
    expect(r.value.content).toMatch(/more lines — depth='full' to read\]$/);
    expect(r.value.record).toMatchObject({ id: 'V-001', confidence: 0.7, status: 'active', header: { expressions: ['E-001'] } });
    const full = await core.invoke('memory/read', { path: '/memory/views/V-001.md', depth: 'full' });
    expect(full.ok && full.value.content).toContain('## INVALIDATION');
  });

  it('shows history and the audit trail of a View after the PM edits it', async () => {
    const fs = core.context.memory.fs;
    const before = fs.readFile('/memory/views/V-002.md');
    await fs.writeFile('/memory/views/V-002.md', before.replace('confidence: 0.6', 'confidence: 0.4'), { actor: 'pm', sessionId: 'sess_a' });
    const h = await core.invoke('memory/history', { path: '/memory/views/V-002.md' });
    expect(h.ok && h.value.versions.map((v) => v.confidence)).toEqual([0.6]);
    const a = await core.invoke('memory/audit', { path: '/memory/views/V-002.md', limit: 1 });
    expect(a.ok && a.value.entries[0]).toMatchObject({ actor: 'pm', operation: 'update', sessionId: 'sess_a' });
    expect(a.ok && a.value.nextBefore).not.toBeNull();
  });

  it('bad paths and bad queries come back as invalid_input with a message the PM can act on', async () => {
    const bad = await core.invoke('memory/list', { path: '/memory/../secrets/' });
    expect(bad.ok || bad.error.code).toBe('invalid_input');
    const q = await core.invoke('memory/list', { path: '/memory/views/', query: 'confidence>=high' });
    expect(q.ok || q.error.message).toMatch(/column 1.*not a number/);
    const missing = await core.invoke('memory/read', { path: '/memory/views/V-999.md' });
    expect(missing.ok || missing.error.code).toBe('not_found');
  });
});
