import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('memory benchmark (small size)', () => {
  it('measures the SQL listing against a naive scan that finds the same records, and reports it on one JSON line', () => {
    const root = join(__dirname, '..');
    // 2,000 records: big enough that the query matches a few Views, small enough for a test.
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'memory.ts'), '2000'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
    expect(Object.keys(last)).toEqual([
      'bench',
      'list_p50_ms',
      'list_p95_ms',
      'naive_p50_ms',
      'ratio',
      'writes_per_s',
      'bytes_per_1000',
      'list_matches',
      'naive_matches',
      'index_notes',
      'write_p50_ms',
      'write_p95_ms',
      'write_old_p50_ms',
      'write_old_p95_ms',
      'write_ratio',
      'wal_kb_per_write',
      'wal_kb_per_write_old',
      'embed_ms_per_note',
      'import_notes',
      'import_notes_per_s',
    ]);
    expect(last.bench).toBe('memory');
    // A speed-up over a scan that answers differently (or finds nothing) would measure nothing.
    expect(last.list_matches).toBeGreaterThan(0);
    expect(last.list_matches).toBe(last.naive_matches);
    for (const k of ['list_p50_ms', 'list_p95_ms', 'naive_p50_ms', 'ratio', 'writes_per_s', 'bytes_per_1000']) {
      expect(Number.isFinite(last[k]) && (last[k] as number) > 0, `${k} = ${last[k]}`).toBe(true);
    }
    expect(last.list_p95_ms as number).toBeGreaterThanOrEqual(last.list_p50_ms as number);
    // The indexed listing must beat loading every View and filtering in JavaScript, even at this size.
    expect(last.ratio).toBeGreaterThan(1);
    const computed = (last.naive_p50_ms as number) / (last.list_p50_ms as number);
    expect(Math.abs((last.ratio as number) - computed) / computed).toBeLessThan(0.05); // the ratio is of the figures shown
    expect(r.stdout).toMatch(/^built 2000 records \(\d+ Views\)/m);
    // The indexed writes are measured on an index holding every record (else they time an empty index).
    expect(last.index_notes as number).toBeGreaterThanOrEqual(2000);
    for (const k of ['write_p50_ms', 'write_p95_ms', 'write_old_p50_ms', 'write_old_p95_ms', 'write_ratio', 'embed_ms_per_note', 'import_notes_per_s']) {
      expect(Number.isFinite(last[k]) && (last[k] as number) > 0, `${k} = ${last[k]}`).toBe(true);
    }
    expect(last.write_p95_ms as number).toBeGreaterThanOrEqual(last.write_p50_ms as number);
    // The ratio is of the figures shown: the p50s are printed to 0.001 ms and the ratio to 0.01, so it
    // must lie within what those roundings allow, however fast or slow the machine (no fixed tolerance).
    const [o, p] = [last.write_old_p50_ms as number, last.write_p50_ms as number];
    expect(last.write_ratio as number).toBeGreaterThanOrEqual((o - 0.0005) / (p + 0.0005) - 0.005);
    expect(last.write_ratio as number).toBeLessThanOrEqual((o + 0.0005) / Math.max(1e-9, p - 0.0005) + 0.005);
    expect(last.import_notes).toBe(2000);
    // A single write no longer rewrites its 256-note vector block: fewer bytes reach the WAL. (SQLite
    // writes only the changed pages of an overwritten blob, so the old way costs ~15 KB more, not 120.)
    expect(last.wal_kb_per_write as number).toBeLessThan(last.wal_kb_per_write_old as number);
  }, 240_000);
});
