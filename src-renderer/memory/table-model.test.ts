import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ExpressionSortKey, MemoryTableRow, ViewSortKey } from '../../src-main/api/memory-table';
import {
  ariaSort,
  defaultSort,
  gridTemplate,
  isSortOf,
  minTableWidth,
  moveCursor,
  needsMore,
  nextSort,
  rowsPerPage,
  tableColumns,
  tableRequest,
} from './table-model';

const col = (category: 'views' | 'expressions', key: string) => tableColumns[category].find((c) => c.key === key)!;

const row: MemoryTableRow = {
  id: 'E-004',
  path: '/memory/expressions/E-004.md',
  title: 'Receive 2y SOFR',
  status: 'proposed',
  confidence: null,
  horizon: null,
  category: null,
  scope: null,
  instrument: 'USD 2y SOFR swap',
  notional: 12,
  maxLossPct: 1.2,
  viewId: 'V-001',
  updatedAt: '2026-11-23T10:00:00.000Z',
  previousConfidence: null,
};

describe('table columns', () => {
  it('every column header sorts by a key the core accepts (a header click never gets invalid_input)', () => {
    // The renderer may import only types from the API; these are memory/table's sort enums
    // (src-main/api/memory-table.ts), which the core's own test ties to the SQL.
    const views: ViewSortKey[] = ['id', 'title', 'status', 'confidence', 'horizon', 'category', 'scope', 'updated'];
    const expressions: ExpressionSortKey[] = ['id', 'title', 'status', 'instrument', 'notional', 'max_loss', 'view', 'confidence', 'updated'];
    expect(tableColumns.views.map((c) => c.key)).toEqual(views);
    expect(tableColumns.expressions.map((c) => c.key)).toEqual(expressions);
  });

  it('shows sizes with fixed decimals, a blank for what the record does not say, and the exact time on hover', () => {
    const now = Date.parse('2026-11-23T13:00:00.000Z');
    const cells = Object.fromEntries(tableColumns.expressions.map((c) => [c.key, c.text(row, now)]));
    expect(cells).toEqual({
      id: 'E-004',
      title: 'Receive 2y SOFR',
      status: 'proposed',
      instrument: 'USD 2y SOFR swap',
      notional: '12.0',
      max_loss: '1.20%',
      view: 'V-001',
      confidence: '',
      updated: '3 h ago',
    });
    expect(col('expressions', 'updated').title?.(row)).toBe('2026-11-23T10:00:00.000Z');
    expect(col('views', 'confidence').text({ ...row, confidence: 0.7 }, now)).toBe('0.70');
  });

  it('marks numbers and dates as numeric (right-aligned, tabular figures) and text as not', () => {
    const numeric = (c: 'views' | 'expressions') => tableColumns[c].filter((x) => x.numeric).map((x) => x.key);
    expect(numeric('views')).toEqual(['confidence', 'horizon', 'updated']);
    expect(numeric('expressions')).toEqual(['notional', 'max_loss', 'confidence', 'updated']);
  });

  it('lines the header and rows up on one grid template', () => {
    expect(gridTemplate(tableColumns.views)).toBe('60px minmax(160px, 2fr) 112px 44px 80px 100px 84px 72px');
  });

  it('knows the narrowest width the table can take before it scrolls sideways (columns plus gaps and padding)', () => {
    // 60+160+112+44+80+100+84+72 = 712, 7 gaps of 8, 28 of padding.
    expect(minTableWidth(tableColumns.views)).toBe(796);
  });
});

describe('sorting by header clicks', () => {
  it('opens newest first, like the list it replaces', () => {
    expect(defaultSort).toEqual({ key: 'updated', dir: 'desc' });
  });

  it('a second click on the same header reverses; a new number column starts biggest first, a text column A to Z', () => {
    const byConf = nextSort(defaultSort, col('views', 'confidence'));
    expect(byConf).toEqual({ key: 'confidence', dir: 'desc' });
    expect(nextSort(byConf, col('views', 'confidence'))).toEqual({ key: 'confidence', dir: 'asc' });
    expect(nextSort(byConf, col('views', 'title'))).toEqual({ key: 'title', dir: 'asc' });
  });

  it('two clicks on any header come back to where they started', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tableColumns.expressions), fc.constantFrom('asc' as const, 'desc' as const), (c, dir) => {
        const start = { key: c.key, dir };
        expect(nextSort(nextSort(start, c), c)).toEqual(start);
      }),
    );
  });

  it('tells assistive technology which column is sorted and which way', () => {
    const s = { key: 'notional' as const, dir: 'asc' as const };
    expect(ariaSort(s, 'notional')).toBe('ascending');
    expect(ariaSort({ ...s, dir: 'desc' }, 'notional')).toBe('descending');
    expect(ariaSort(s, 'id')).toBe('none');
  });

  it('does not carry an Expressions-only sort over to Views: the request falls back to newest first', () => {
    expect(isSortOf('views', { key: 'notional', dir: 'desc' })).toBe(false);
    expect(isSortOf('expressions', { key: 'notional', dir: 'desc' })).toBe(true);
    expect(tableRequest('views', { key: 'notional', dir: 'asc' }, '', 0, 200)).toEqual({
      category: 'views',
      sort: 'updated',
      dir: 'desc',
      offset: 0,
      limit: 200,
      query: undefined,
    });
    expect(tableRequest('expressions', { key: 'notional', dir: 'asc' }, 'status:active', 400, 200)).toEqual({
      category: 'expressions',
      sort: 'notional',
      dir: 'asc',
      query: 'status:active',
      offset: 400,
      limit: 200,
    });
  });
});

describe('keyboard movement', () => {
  it('moves by one, by a page and to the ends, never past the loaded rows', () => {
    expect(moveCursor('ArrowDown', 3, 10, 5)).toBe(4);
    expect(moveCursor('ArrowDown', 9, 10, 5)).toBe(9);
    expect(moveCursor('ArrowUp', 0, 10, 5)).toBe(0);
    expect(moveCursor('PageDown', 3, 10, 5)).toBe(8);
    expect(moveCursor('PageDown', 8, 10, 5)).toBe(9);
    expect(moveCursor('PageUp', 3, 10, 5)).toBe(0);
    expect(moveCursor('Home', 7, 10, 5)).toBe(0);
    expect(moveCursor('End', 2, 10, 5)).toBe(9);
  });

  it('starts from the top (or the bottom for Up) when nothing is selected yet, and ignores other keys', () => {
    expect(moveCursor('ArrowDown', -1, 10, 5)).toBe(0);
    expect(moveCursor('ArrowUp', -1, 10, 5)).toBe(9);
    expect(moveCursor('Enter', 2, 10, 5)).toBeNull();
    expect(moveCursor('ArrowDown', 0, 0, 5)).toBeNull();
  });

  it('always lands on a loaded row, whatever the keys pressed', () => {
    const keys = fc.constantFrom('ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End');
    fc.assert(
      fc.property(fc.array(keys, { maxLength: 30 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 40 }), (presses, count, page) => {
        let cursor = -1;
        for (const k of presses) {
          cursor = moveCursor(k, cursor, count, page)!;
          expect(cursor).toBeGreaterThanOrEqual(0);
          expect(cursor).toBeLessThan(count);
        }
      }),
    );
  });

  it('pages by the rows that fit under the header, keeping one for context', () => {
    expect(rowsPerPage(640, 30, 28)).toBe(20);
    expect(rowsPerPage(20, 30, 28)).toBe(1);
  });
});

describe('paging as the end comes into view', () => {
  it('asks for more only when the drawn rows near the end of what is loaded, and only if there is more', () => {
    expect(needsMore(150, 200, true, 40)).toBe(false);
    expect(needsMore(160, 200, true, 40)).toBe(true);
    expect(needsMore(199, 200, false, 40)).toBe(false);
  });
});
