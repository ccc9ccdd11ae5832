import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArtifactStore } from './artifacts';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'forge-art-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('artifact store', () => {
  it('forgets an artifact when its TTL runs out (memory and disk)', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = new ArtifactStore(temp(), () => now);
    store.store({ project_id: 'p', artifact_type: 'plan', key: 'short', content: 'a', ttl_hours: 1 });
    store.store({ project_id: 'p', artifact_type: 'plan', key: 'kept', content: 'b', ttl_hours: 1, persist: true });
    store.store({ project_id: 'p', artifact_type: 'plan', key: 'long', content: 'c', ttl_hours: 48 });
    now += 59 * 60_000;
    expect(store.get('p', 'plan', 'short').content).toBe('a');
    now += 2 * 60_000;
    expect(() => store.get('p', 'plan', 'short')).toThrow(/No plan artifact "short".*expired/);
    expect(() => store.get('p', 'plan', 'kept')).toThrow(/No plan artifact "kept"/);
    expect(store.list('p').map((a) => a.key)).toEqual(['long']);
  });

  it('reads a persisted artifact from disk after a restart, and only persisted ones', () => {
    const dir = temp();
    const before = new ArtifactStore(dir);
    before.store({ project_id: 'p', artifact_type: 'test_report', key: 'run/1', content: '12 passed', persist: true });
    before.store({ project_id: 'p', artifact_type: 'test_report', key: 'volatile', content: 'x' });
    const after = new ArtifactStore(dir);
    expect(after.get('p', 'test_report', 'run/1')).toMatchObject({ content: '12 passed', persisted: true });
    expect(() => after.get('p', 'test_report', 'volatile')).toThrow(/No test_report artifact/);
    expect(after.list('p')).toEqual([expect.objectContaining({ key: 'run/1', in_memory: false, size: 9 })]);
  });

  it('clears one type or all, on disk as well', () => {
    const dir = temp();
    const store = new ArtifactStore(dir);
    store.store({ project_id: 'p', artifact_type: 'diff', key: 'd', content: '1', persist: true });
    store.store({ project_id: 'p', artifact_type: 'audit', key: 'a', content: '2', persist: true });
    store.store({ project_id: 'other', artifact_type: 'audit', key: 'a', content: '3', persist: true });
    expect(store.clear('p', 'diff')).toEqual({ removed: 1 });
    expect(new ArtifactStore(dir).list('p').map((a) => a.artifact_type)).toEqual(['audit']);
    expect(store.clear('p')).toEqual({ removed: 1 });
    expect(new ArtifactStore(dir).list('p')).toEqual([]);
    expect(new ArtifactStore(dir).get('other', 'audit', 'a').content).toBe('3');
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
