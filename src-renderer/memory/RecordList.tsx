import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MemoryEntry } from '../../src-main/api/memory';
import { metaParts, relativeTime } from './format';

const ROW_HEIGHT = 62;

/**
 * A virtualised listing: only the rows on screen exist in the DOM, so a category with 100,000
 * records scrolls as smoothly as one with six. More rows are fetched as the end comes into view.
 */
export function RecordList(props: {
  entries: MemoryEntry[];
  selected: string | null;
  onSelect: (name: string) => void;
  hasMore: boolean;
  loadMore: () => void;
  label: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const { entries, hasMore, loadMore } = props;
  const count = entries.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  useEffect(() => {
    if (hasMore && last && last.index >= entries.length - 20) loadMore();
  }, [hasMore, last, entries.length, loadMore]);

  const selectedIndex = entries.findIndex((e) => e.name === props.selected);

  const onKeyDown = (e: KeyboardEvent) => {
    if (entries.length === 0) return;
    let next = -1;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    if (e.key === 'ArrowDown') next = Math.min(entries.length - 1, selectedIndex + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, selectedIndex < 0 ? 0 : selectedIndex - 1);
    else if (e.key === 'PageDown') next = Math.min(entries.length - 1, selectedIndex + page);
    else if (e.key === 'PageUp') next = Math.max(0, selectedIndex - page);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = entries.length - 1;
    if (next >= 0) {
      e.preventDefault();
      virtualizer.scrollToIndex(next, { align: 'auto' });
      props.onSelect(entries[next].name);
    }
  };

  return (
    <div
      className="record-list"
      ref={scroller}
      data-testid="memory-list"
      role="listbox"
      tabIndex={0}
      aria-label={props.label}
      aria-activedescendant={selectedIndex >= 0 ? `row-${selectedIndex}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const entry = entries[item.index];
          const style = { position: 'absolute' as const, top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` };
          if (!entry) {
            return (
              <div key="more" className="record-row loading" style={style} aria-hidden="true">
                Loading more…
              </div>
            );
          }
          const selected = entry.name === props.selected;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the listbox holds focus and handles the keys (aria-activedescendant); options take only clicks.
            <div
              key={entry.path}
              id={`row-${item.index}`}
              role="option"
              aria-selected={selected}
              data-testid="memory-row"
              data-id={entry.id ?? entry.name}
              className={selected ? 'record-row selected' : 'record-row'}
              style={style}
              onClick={() => props.onSelect(entry.name)}
            >
              <div className="row-line">
                <span className="row-id">{entry.id ?? entry.name}</span>
                <span className="row-title">{entry.title || entry.name}</span>
                <span className="row-updated" title={entry.updatedAt ?? undefined}>
                  {relativeTime(entry.updatedAt)}
                </span>
              </div>
              <div className="row-meta">
                {metaParts(entry.meta).map((m, n) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the meta chips of one row may repeat a value and hold no state.
                  <span key={n} className={m === entry.status ? `chip status status-${m}` : 'chip'}>
                    {m}
                  </span>
                ))}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
