import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('book benchmark (small size)', () => {
  it('times the computed book against a naive read of every Expression that computes the same book', () => {
    const root = join(__dirname, '..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'book.ts'), '300', '12'], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
    expect(last.bench).toBe('book');
    // A speed-up over a baseline that computes a different book would measure nothing.
    expect(last.gross).toBe(last.naive_gross);
    // One in three of the 300 closed trades closed after the snapshot and comes out of it.
    expect(last.closed_since_snapshot).toBe(100);
    for (const k of ['book_p50_ms', 'book_p95_ms', 'naive_p50_ms', 'approve_p50_ms', 'ratio']) {
      expect(Number.isFinite(last[k]) && (last[k] as number) > 0, `${k} = ${last[k]}`).toBe(true);
    }
    expect(last.ratio).toBeCloseTo((last.naive_p50_ms as number) / (last.book_p50_ms as number), 0);
  }, 120_000);
});
