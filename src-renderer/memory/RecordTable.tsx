import { type CSSProperties, type KeyboardEvent, memo, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MemoryTableRow } from '../../src-main/api/memory-table';
import {
  ariaSort,
  gridTemplate,
  minTableWidth,
  moveCursor,
  needsMore,
  nextSort,
  rowsPerPage,
  type TableCategory,
  type TableColumn,
  type TableSort,
  tableColumns,
} from './table-model';
import './table.css';

/** Fixed, so the virtualiser never measures a row (no layout reads while scrolling). */
export const ROW_HEIGHT = 28;
const HEADER_HEIGHT = 30;
/** Fetch the next page this many rows before the end of what is loaded comes into view. */
const PREFETCH_ROWS = 60;
/** More than the rows ever drawn at once (a screenful plus overscan), so slot keys never collide. */
const SLOTS = 128;

/**
 * The dense Views / Expressions table: a sticky header whose columns sort (a second click
 * reverses), virtualised fixed-height rows (only those in view exist in the DOM, so 10,000 records
 * scroll like ten), pages fetched as the end comes into view, and a keyboard cursor: Up/Down,
 * PageUp/PageDown, Home/End move it, Enter opens the record in the right pane; a click opens it.
 */
export function RecordTable(props: {
  category: TableCategory;
  rows: readonly MemoryTableRow[];
  /** Matches in all (rows may hold only the first pages). */
  total: number;
  sort: TableSort;
  onSort: (sort: TableSort) => void;
  /** The open record's file name (`V-001.md`), or null. */
  selected: string | null;
  onOpen: (name: string) => void;
  hasMore: boolean;
  loadMore: () => void;
  label: string;
  /** Changes when the filter or sort does: the table goes back to its first row. */
  resetKey: string;
}) {
  const { rows, hasMore, loadMore, onOpen } = props;
  const columns = tableColumns[props.category];
  const scroller = useRef<HTMLDivElement>(null);
  const openIndex = useMemo(() => (props.selected ? rows.findIndex((r) => `${r.id}.md` === props.selected) : -1), [rows, props.selected]);
  // The keyboard cursor: follows the open record until the PM moves it.
  const [cursor, setCursor] = useState(openIndex);
  useEffect(() => setCursor(openIndex), [openIndex]);

  const count = rows.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The header sits above the rows inside the same scroller.
    scrollPaddingStart: HEADER_HEIGHT,
    overscan: 1,
    // Scroll-driven renders need not be synchronous: a frame late is better than a long frame.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastDrawn = items.length ? items[items.length - 1].index : -1;

  const { resetKey } = props;
  useEffect(() => {
    if (scroller.current && resetKey !== undefined) scroller.current.scrollTop = 0;
  }, [resetKey]);
  // A record opened from elsewhere (a link, the palette, Back) is brought into view if it is loaded.
  useEffect(() => {
    if (openIndex >= 0) virtualizer.scrollToIndex(openIndex, { align: 'auto' });
  }, [openIndex, virtualizer]);

  useEffect(() => {
    if (needsMore(lastDrawn, rows.length, hasMore, PREFETCH_ROWS)) loadMore();
  }, [lastDrawn, rows.length, hasMore, loadMore]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return; // a header button handles its own keys
    if (e.key === 'Enter') {
      if (cursor >= 0 && cursor < rows.length) {
        e.preventDefault();
        onOpen(`${rows[cursor].id}.md`);
      }
      return;
    }
    const page = rowsPerPage(scroller.current?.clientHeight ?? ROW_HEIGHT * 20, HEADER_HEIGHT, ROW_HEIGHT);
    const next = moveCursor(e.key, cursor, rows.length, page);
    if (next === null) return;
    e.preventDefault();
    setCursor(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const style = useMemo(() => ({ '--rt-columns': gridTemplate(columns), '--rt-min': `${minTableWidth(columns)}px` }) as CSSProperties, [columns]);
  const activeId = cursor >= 0 && cursor < rows.length ? `rt-${props.category}-${cursor}` : undefined;

  return (
    <div
      className="memory-table"
      ref={scroller}
      style={style}
      data-testid="memory-list"
      role="grid"
      tabIndex={0}
      aria-label={props.label}
      aria-rowcount={props.total + 1}
      aria-colcount={columns.length}
      aria-activedescendant={activeId}
      onKeyDown={onKeyDown}
    >
      {/* biome-ignore lint/a11y/useFocusableInteractive: the grid holds focus (aria-activedescendant); the header row holds buttons, which are focusable. */}
      <div className="rt-head" role="row" aria-rowindex={1}>
        {columns.map((c) => (
          <HeaderCell key={c.key} column={c} sort={props.sort} onSort={props.onSort} />
        ))}
      </div>
      <div className="rt-body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) {
            return (
              <div key="more" className="rt-row rt-loading" style={{ transform: `translateY(${item.start}px)` }} aria-hidden="true">
                Loading more…
              </div>
            );
          }
          return (
            <TableRow
              // Rows are keyed by their slot, not their record: a row scrolled out is reused for the
              // one scrolled in (new text, same elements), so a fast scroll creates and removes nothing.
              key={item.index % SLOTS}
              row={row}
              index={item.index}
              start={item.start}
              columns={columns}
              domId={`rt-${props.category}-${item.index}`}
              open={item.index === openIndex}
              cursor={item.index === cursor}
              onOpen={onOpen}
            />
          );
        })}
      </div>
    </div>
  );
}

function HeaderCell(props: { column: TableColumn; sort: TableSort; onSort: (s: TableSort) => void }) {
  const { column, sort } = props;
  const state = ariaSort(sort, column.key);
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the sort button inside the header is what takes focus.
    <div role="columnheader" aria-sort={state} className={column.numeric ? 'rt-cell rt-num' : 'rt-cell'}>
      <button type="button" className="rt-sort" data-testid={`sort-${column.key}`} onClick={() => props.onSort(nextSort(sort, column))}>
        {column.label}
      </button>
    </div>
  );
}

/**
 * One row: plain cells, no hooks, memoised on its own props, so scrolling only mounts the rows
 * that come into view and re-renders none of the others. The status cell is itself the badge.
 */
const TableRow = memo(function TableRow(props: {
  row: MemoryTableRow;
  index: number;
  start: number;
  columns: readonly TableColumn[];
  domId: string;
  open: boolean;
  cursor: boolean;
  onOpen: (name: string) => void;
}) {
  const { row, columns } = props;
  const now = Date.now();
  let className = 'rt-row';
  if (props.open) className += ' open';
  if (props.cursor) className += ' cursor';
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the grid holds focus and handles the keys (aria-activedescendant); rows take only clicks.
    <div
      id={props.domId}
      role="row"
      aria-rowindex={props.index + 2}
      aria-selected={props.open}
      data-testid="memory-row"
      data-id={row.id}
      className={className}
      style={{ transform: `translateY(${props.start}px)` }}
      onClick={() => props.onOpen(`${row.id}.md`)}
    >
      {columns.map((c) => {
        let cls = c.numeric ? 'rt-cell rt-num' : 'rt-cell';
        if (c.key === 'id') cls += ' rt-id';
        else if (c.key === 'status' && row.status) cls += ` chip status status-${row.status}`;
        return (
          // biome-ignore lint/a11y/useFocusableInteractive: the grid holds focus and points at rows with aria-activedescendant; cells are read, not focused.
          <span key={c.key} role="gridcell" className={cls} title={c.title?.(row)}>
            {c.text(row, now)}
          </span>
        );
      })}
    </div>
  );
});
