import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('memory benchmark (tiny size)', () => {
  it('runs end to end and ends with the one JSON line the report needs', () => {
    const root = join(__dirname, '..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'memory.ts'), '400'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(Object.keys(last)).toEqual(['bench', 'list_p50_ms', 'list_p95_ms', 'naive_p50_ms', 'ratio', 'writes_per_s', 'bytes_per_1000']);
    expect(last.bench).toBe('memory');
    expect(last.writes_per_s).toBeGreaterThan(0);
    expect(last.ratio).toBeGreaterThan(0);
  }, 60_000);
});
