import type { ExpressionSortKey, MemoryTableInput, MemoryTableRow, SortDirection, ViewSortKey } from '../../src-main/api/memory-table';
import { relativeTime } from './format';

/**
 * The Views and Expressions tables without a DOM: their columns, how a header click changes the
 * sort, and where a key moves the cursor. RecordTable.tsx only draws what this decides.
 */

export type TableCategory = 'views' | 'expressions';
export type SortKey = ViewSortKey | ExpressionSortKey;
export interface TableSort {
  key: SortKey;
  dir: SortDirection;
}

export interface TableColumn {
  key: SortKey;
  label: string;
  /** CSS grid track: fixed for ids, numbers and dates; the title takes what is left. */
  width: string;
  /** Numbers and dates: right-aligned with tabular figures, and sorted biggest/newest first on a first click. */
  numeric: boolean;
  /** The cell text ('' when the record does not say). */
  text: (row: MemoryTableRow, now: number) => string;
  /** The full value, shown on hover when the cell is shortened (dates: the exact time). */
  title?: (row: MemoryTableRow) => string | undefined;
}

const fixed = (digits: number) => (v: number | null) => (v === null ? '' : v.toFixed(digits));
const plain = (v: string | null) => v ?? '';

const ID: TableColumn = { key: 'id', label: 'ID', width: '60px', numeric: false, text: (r) => r.id };
// The title is what a PM reads a row by: it takes twice the share of any other flexible column.
const TITLE: TableColumn = { key: 'title', label: 'Title', width: 'minmax(160px, 2fr)', numeric: false, text: (r) => r.title, title: (r) => r.title };
// Wide enough for the longest status a record carries (review_required) as a whole chip.
const STATUS: TableColumn = { key: 'status', label: 'Status', width: '112px', numeric: false, text: (r) => plain(r.status), title: (r) => plain(r.status) };
const CONFIDENCE: TableColumn = { key: 'confidence', label: 'Conf.', width: '44px', numeric: true, text: (r) => fixed(2)(r.confidence) };
const UPDATED: TableColumn = {
  key: 'updated',
  label: 'Updated',
  width: '72px',
  numeric: true,
  text: (r, now) => relativeTime(r.updatedAt, now),
  title: (r) => r.updatedAt,
};

export const tableColumns: Record<TableCategory, readonly TableColumn[]> = {
  views: [
    ID,
    TITLE,
    STATUS,
    CONFIDENCE,
    { key: 'horizon', label: 'Horizon', width: '80px', numeric: true, text: (r) => plain(r.horizon) },
    { key: 'category', label: 'Category', width: '100px', numeric: false, text: (r) => plain(r.category), title: (r) => plain(r.category) },
    { key: 'scope', label: 'Scope', width: '84px', numeric: false, text: (r) => plain(r.scope), title: (r) => plain(r.scope) },
    UPDATED,
  ],
  expressions: [
    ID,
    TITLE,
    STATUS,
    {
      key: 'instrument',
      label: 'Instrument',
      width: 'minmax(110px, 1fr)',
      numeric: false,
      text: (r) => plain(r.instrument),
      title: (r) => plain(r.instrument),
    },
    { key: 'notional', label: 'Notional', width: '64px', numeric: true, text: (r) => fixed(1)(r.notional) },
    { key: 'max_loss', label: 'Max loss', width: '64px', numeric: true, text: (r) => (r.maxLossPct === null ? '' : `${r.maxLossPct.toFixed(2)}%`) },
    { key: 'view', label: 'View', width: '56px', numeric: false, text: (r) => plain(r.viewId) },
    CONFIDENCE,
    UPDATED,
  ],
};

/** The sort a table opens with: the most recently updated first (what changed is what a PM looks at). */
export const defaultSort: TableSort = { key: 'updated', dir: 'desc' };

/** One `grid-template-columns` for the header and every row, so they line up. */
export function gridTemplate(columns: readonly TableColumn[]): string {
  return columns.map((c) => c.width).join(' ');
}

/** Space between cells and at the row's ends (px); table.css draws with the same numbers. */
export const CELL_GAP = 8;
export const ROW_PADDING = 12 + 16;

/**
 * The narrowest the table can be without squeezing a column: fixed widths and the flexible
 * columns' minimums, plus the gaps. Narrower panes scroll sideways instead.
 */
export function minTableWidth(columns: readonly TableColumn[]): number {
  const px = columns.map((c) => Number(/(\d+)px/.exec(c.width)?.[1] ?? 0));
  return px.reduce((a, b) => a + b, 0) + CELL_GAP * (columns.length - 1) + ROW_PADDING;
}

/**
 * A header click: the same column reverses; another column starts descending for numbers and
 * dates (biggest, newest first) and ascending for text (A to Z).
 */
export function nextSort(current: TableSort, column: TableColumn): TableSort {
  if (current.key === column.key) return { key: column.key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key: column.key, dir: column.numeric ? 'desc' : 'asc' };
}

/** The header's aria-sort: only the sorted column says a direction. */
export function ariaSort(sort: TableSort, key: SortKey): 'ascending' | 'descending' | 'none' {
  if (sort.key !== key) return 'none';
  return sort.dir === 'asc' ? 'ascending' : 'descending';
}

/** Whether a saved or typed-in sort is one the table can use (a key of the other table is not). */
export function isSortOf(category: TableCategory, sort: TableSort): boolean {
  return tableColumns[category].some((c) => c.key === sort.key);
}

/**
 * The memory/table request for one page. A sort the table does not have (an Expressions column
 * carried over to Views) falls back to the default rather than asking the core for an error.
 */
export function tableRequest(category: TableCategory, sort: TableSort, query: string, offset: number, limit: number): MemoryTableInput {
  const { key, dir } = isSortOf(category, sort) ? sort : defaultSort;
  const page = { query: query || undefined, dir, offset, limit };
  return category === 'views' ? { category, sort: key as ViewSortKey, ...page } : { category, sort: key as ExpressionSortKey, ...page };
}

/**
 * Where a key moves the cursor among `count` loaded rows (`page`: rows in view), or null when the
 * key is not a movement. From no cursor, Down and Home start at the first row, Up and End at the last.
 */
export function moveCursor(key: string, cursor: number, count: number, page: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const step = Math.max(1, page);
  const from = cursor < 0 || cursor > last ? -1 : cursor;
  switch (key) {
    case 'ArrowDown':
      return from < 0 ? 0 : Math.min(last, from + 1);
    case 'ArrowUp':
      return from < 0 ? last : Math.max(0, from - 1);
    case 'PageDown':
      return from < 0 ? Math.min(last, step - 1) : Math.min(last, from + step);
    case 'PageUp':
      return from < 0 ? 0 : Math.max(0, from - step);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** Rows a PageUp/PageDown moves: those that fit in the scroller under the sticky header, less one kept for context. */
export function rowsPerPage(viewportPx: number, headerPx: number, rowPx: number): number {
  return Math.max(1, Math.floor((viewportPx - headerPx) / rowPx) - 1);
}

/** Fetch the next page when the last row drawn is within `margin` rows of the end of what is loaded. */
export function needsMore(lastDrawn: number, loaded: number, hasMore: boolean, margin: number): boolean {
  return hasMore && lastDrawn >= loaded - margin;
}
