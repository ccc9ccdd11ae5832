import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TableCategory, tableSortKeys } from './record-table';
import { Store } from './store';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-tables-'));
  store = Store.open(join(dir, 'forge.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The plan SQLite picks for one page, as the words of EXPLAIN QUERY PLAN. */
function plan(category: TableCategory, sort: string, dir: 'asc' | 'desc'): string {
  const captured: string[] = [];
  const db = store.db;
  const original = db.prepare.bind(db);
  // Read the SQL the table runs, then explain that exact text.
  (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
    captured.push(sql);
    return original(sql);
  }) as typeof db.prepare;
  try {
    store.tables.page({ category, filter: null, sort, dir, limit: 50, offset: 5000 });
  } finally {
    (db as { prepare: typeof db.prepare }).prepare = original;
  }
  const pageSql = captured.find((s) => s.includes('ORDER BY'))!;
  return (original(`EXPLAIN QUERY PLAN ${pageSql}`).all(50, 5000) as { detail: string }[]).map((r) => r.detail).join(' | ');
}

describe('the record tables use their indexes', () => {
  for (const category of ['views', 'expressions'] as const) {
    it(`every ${category} column sorts by walking an index, in both directions (a deep page of 10,000 is not a full sort)`, () => {
      for (const sort of tableSortKeys(category)) {
        for (const dir of ['asc', 'desc'] as const) {
          const detail = plan(category, sort, dir);
          expect(detail, `${category} by ${sort} ${dir}`).not.toContain('TEMP B-TREE');
          expect(detail, `${category} by ${sort} ${dir}`).toContain(`memory_${category}_by_`);
        }
      }
    });
  }

  it('refuses a sort column it has no SQL for, rather than building SQL from it', () => {
    expect(() => store.tables.page({ category: 'views', filter: null, sort: 'title; DROP TABLE x', dir: 'asc', limit: 1, offset: 0 })).toThrow(
      /Unknown sort column/,
    );
  });
});
