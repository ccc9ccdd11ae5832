import { useCallback, useState } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useClient } from '../api/hooks';
import { errorHeadline, isApiError, readableMessage } from '../api/errors';
import { Icon } from '../app/Icon';
import { screenInfo } from '../app/screens';
import { RecordList } from './RecordList';
import { RecordView } from './RecordView';
import { useDebounced } from './useDebounced';

const PAGE = 200;

const examples: Record<'views' | 'expressions', string> = {
  views: 'status:active confidence>=0.6 since:2026-01-01 inflation',
  expressions: 'view:V-001 status:active',
};

export function MemoryScreen(props: {
  screen: 'views' | 'expressions';
  folder: string;
  selected: string | null;
  onSelect: (name: string | null) => void;
}) {
  const client = useClient();
  const info = screenInfo[props.screen];
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 250);

  const list = useInfiniteQuery({
    queryKey: ['memory/list', { path: props.folder, query }],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      client.call('memory/list', { path: props.folder, query: query || undefined, limit: PAGE, offset: pageParam }),
    getNextPageParam: (last) => {
      const next = last.offset + last.entries.length;
      return last.entries.length > 0 && next < last.total ? next : undefined;
    },
    placeholderData: keepPreviousData,
    retry: (n, err) => n < 2 && isApiError(err) && err.code === 'unavailable',
  });

  const entries = (list.data?.pages ?? []).flatMap((p) => p.entries).filter((e) => !e.isDir);
  const total = list.data?.pages[0]?.total ?? 0;
  const queryError = list.isError && isApiError(list.error) && list.error.code === 'invalid_input' ? list.error.message : null;
  const otherError = list.isError && !queryError ? list.error : null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const noun = info.label.toLowerCase();
  const showingStale = list.isPlaceholderData || list.isError;

  return (
    <section className="screen memory-screen" data-testid={`screen-${props.screen}`} aria-labelledby={`title-${props.screen}`}>
      <div className="list-pane">
        <header className="screen-header compact">
          <h1 id={`title-${props.screen}`}>{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>
        <div className="query-box">
          <label className="query-input" htmlFor={`q-${props.screen}`}>
            <Icon name="search" size={16} />
            <span className="visually-hidden">Filter {noun}</span>
            <input
              id={`q-${props.screen}`}
              data-testid="memory-query"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={`Filter ${noun}, e.g. ${examples[props.screen]}`}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={queryError ? true : undefined}
              aria-describedby={queryError ? `qe-${props.screen}` : `qh-${props.screen}`}
            />
          </label>
          {queryError ? (
            <p className="query-error" id={`qe-${props.screen}`} data-testid="memory-query-error" role="alert">
              {queryError}
            </p>
          ) : (
            <p className="hint" id={`qh-${props.screen}`}>
              Words search the text; also <code>key:value</code>, <code>key&gt;=N</code>, <code>since:YYYY-MM-DD</code>,{' '}
              <code>"exact phrase"</code>.
            </p>
          )}
        </div>
        <div className="list-summary" aria-live="polite">
          {list.isPending
            ? 'Loading…'
            : list.isError
              ? ''
              : query
                ? `${total.toLocaleString()} ${total === 1 ? 'match' : 'matches'}`
                : `${total.toLocaleString()} ${noun}`}
          {list.isFetching && !list.isPending && <span className="spinner" aria-label="Updating" />}
        </div>
        {otherError && (
          <div className="error-panel" role="alert">
            <strong>{errorHeadline(otherError)}.</strong> {readableMessage(otherError)}
          </div>
        )}
        {!list.isPending && !list.isError && entries.length === 0 ? (
          <div className="empty-list" data-testid="memory-list">
            {query ? (
              <p>
                No {noun} match <code>{query}</code>.
              </p>
            ) : (
              <p>No {noun} yet. The analyst writes them as it works with you.</p>
            )}
          </div>
        ) : (
          <div className={showingStale ? 'list-wrap stale' : 'list-wrap'}>
            <RecordList
              entries={list.isError ? [] : entries}
              selected={props.selected}
              onSelect={props.onSelect}
              hasMore={Boolean(hasNextPage) && !list.isError}
              loadMore={loadMore}
              label={`${info.label} list`}
            />
          </div>
        )}
      </div>
      <div className="detail-pane">
        {props.selected ? (
          <RecordView key={props.selected} path={props.folder + props.selected} onClose={() => props.onSelect(null)} />
        ) : (
          <div className="empty-state subtle">
            <div className="empty-icon">
              <Icon name={props.screen} size={30} />
            </div>
            <h2>Select a {noun.replace(/s$/, '')}</h2>
            <p>Pick one from the list to read it in full, with its version history.</p>
          </div>
        )}
      </div>
    </section>
  );
}
