import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useClient } from '../api/hooks';
import { isApiError } from '../api/errors';
import { Icon } from '../app/Icon';
import { screenInfo } from '../app/screens';
import { RecordTable } from './RecordTable';
import { defaultSort, type TableSort, tableRequest } from './table-model';
import { RecordView } from './RecordView';
import { SearchResults } from './SearchResults';
import { PassageView } from './PassageView';
import { hasToken, quickFilters, type SearchHitView, searchMemory, toggleToken } from './search';
import { useDebounced } from './useDebounced';
import { ErrorPanel } from '../app/ErrorPanel';
import { inputLimits, TextInput } from '../app/TextField';
import { RecordEditor } from './RecordEditor';
import { fileOf } from './draft';

/**
 * Rows per memory/table page: the first page small, for a quick first paint; then large ones, so a
 * PM flinging through 10,000 Views waits on ten round trips, not fifty (each costs a frame).
 * Either is cheap for SQL (an index walk).
 */
const FIRST_PAGE = 200;
const NEXT_PAGE = 1000;
const SEARCH_RESULTS = 20;

const examples: Record<'views' | 'expressions', string> = {
  views: 'status:active confidence>=0.6',
  expressions: 'status:active',
};

/**
 * Views and Expressions: a dense, sortable, virtualised table (memory/table + the query language), a
 * search by meaning across a chosen scope (memory/search), the selected record in full, and the
 * PM's own New / Edit (memory/write).
 */
export function MemoryScreen(props: {
  screen: 'views' | 'expressions';
  folder: string;
  /** A file name inside `folder` (`V-001.md`) or, for search hits elsewhere, a full path. */
  selected: string | null;
  onSelect: (nameOrPath: string | null) => void;
}) {
  const client = useClient();
  const info = screenInfo[props.screen];
  const noun = info.label.toLowerCase();
  const [text, setText] = useState('');
  const [searchText, setSearchText] = useState('');
  const [scope, setScope] = useState(props.folder);
  const query = useDebounced(text.trim(), 250);
  const searchQuery = useDebounced(searchText.trim(), 300);
  const searching = searchQuery.length > 0;
  const searchInput = useRef<HTMLInputElement>(null);
  /** The editor, when open: on a record (`path`) or on a new one (`path: null`). */
  const [editing, setEditing] = useState<{ path: string | null } | null>(null);
  /** A broker-note passage opened from a Research search (it has no record to read). */
  const [passage, setPassage] = useState<SearchHitView | null>(null);
  const unsaved = useRef(false);
  const noteDirty = useCallback((dirty: boolean) => {
    unsaved.current = dirty;
  }, []);

  // "/" jumps to the search box from anywhere on the screen, as in most mail and chat apps.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        searchInput.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const [sort, setSort] = useState<TableSort>(defaultSort);
  const list = useInfiniteQuery({
    // Filed under memory/list so every place that refreshes the listings after a write (the
    // analyst, an approval, the editor) refreshes the table too.
    queryKey: ['memory/list', { table: props.screen, query, sort: sort.key, dir: sort.dir }],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => client.call('memory/table', tableRequest(props.screen, sort, query, pageParam, pageParam === 0 ? FIRST_PAGE : NEXT_PAGE)),
    getNextPageParam: (last) => {
      const next = last.offset + last.rows.length;
      return last.rows.length > 0 && next < last.total ? next : undefined;
    },
    placeholderData: keepPreviousData,
    // Pages only ever append: comparing 10,000 loaded rows with the previous data on every page buys nothing.
    structuralSharing: false,
    enabled: !searching,
    retry: (n, err) => n < 2 && isApiError(err) && err.code === 'unavailable',
  });

  const search = useQuery({
    queryKey: ['memory/search', { scope, query: searchQuery, filters: query }],
    queryFn: () => searchMemory(client, { scope, query: searchQuery, filters: query || undefined, max_results: SEARCH_RESULTS }),
    enabled: searching,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const rows = useMemo(() => (list.data?.pages ?? []).flatMap((p) => p.rows), [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const active = searching ? search : list;
  const queryError = active.isError && isApiError(active.error) && active.error.code === 'invalid_input' ? active.error.message : null;
  const searchMissing = searching && search.isError && isApiError(search.error) && search.error.code === 'not_found';
  const otherError = active.isError && !queryError && !searchMissing ? active.error : null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const selectedPath = props.selected ? (props.selected.startsWith('/') ? props.selected : props.folder + props.selected) : null;
  // Leaving the editor for another record asks first when there are unsaved changes.
  const select = (nameOrPath: string | null) => {
    if (editing && unsaved.current && !window.confirm('Discard your unsaved changes?')) return;
    unsaved.current = false;
    setEditing(null);
    setPassage(null);
    props.onSelect(nameOrPath);
  };
  const selectPath = (path: string) =>
    select(path.startsWith(props.folder) && !path.slice(props.folder.length).includes('/') ? path.slice(props.folder.length) : path);
  const openHit = (hit: SearchHitView) => {
    if (!hit.passage) return selectPath(hit.path);
    if (editing && unsaved.current && !window.confirm('Discard your unsaved changes?')) return;
    unsaved.current = false;
    setEditing(null);
    setPassage(hit);
  };
  // Back/forward to another record closes the editor too.
  const shownPath = useRef(selectedPath);
  useEffect(() => {
    if (shownPath.current === selectedPath) return;
    shownPath.current = selectedPath;
    unsaved.current = false;
    setEditing(null);
    setPassage(null);
  }, [selectedPath]);
  const kindNoun = props.screen === 'views' ? 'View' : 'Expression';

  let summary = '';
  if (searching) {
    if (search.data && !search.isError) summary = `${search.data.results.length} best ${search.data.results.length === 1 ? 'match' : 'matches'} by meaning`;
    else if (search.isPending) summary = 'Searching…';
  } else if (list.isPending) summary = 'Loading…';
  else if (!list.isError) summary = query ? `${total.toLocaleString()} ${total === 1 ? 'match' : 'matches'}` : `${total.toLocaleString()} ${noun}`;

  return (
    <section
      className={editing || passage || selectedPath ? 'screen memory-screen has-table' : 'screen memory-screen has-table nothing-open'}
      data-testid={`screen-${props.screen}`}
      aria-labelledby={`title-${props.screen}`}
    >
      <div className="list-pane">
        <header className="screen-header compact memory-header">
          <div className="memory-header-line">
            <h1 id={`title-${props.screen}`}>{info.label}</h1>
            <button
              type="button"
              className="button small"
              data-testid="memory-new"
              disabled={editing?.path === null}
              onClick={() => {
                if (editing && unsaved.current && !window.confirm('Discard your unsaved changes?')) return;
                setEditing({ path: null });
              }}
            >
              New {kindNoun}
            </button>
          </div>
          <p className="screen-purpose">{info.purpose}</p>
        </header>

        <div className="query-box" role="search" aria-label={`Search ${noun}`}>
          <label className="query-input" htmlFor={`s-${props.screen}`}>
            <Icon name="search" size={16} />
            <span className="visually-hidden">Search by meaning</span>
            <input
              id={`s-${props.screen}`}
              data-testid="memory-search"
              ref={searchInput}
              aria-keyshortcuts="/"
              type="search"
              className="search-input"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              placeholder="Search by meaning…  ( / )"
              autoComplete="off"
            />
          </label>
          {searchText.trim() && (
            <div className="chip-row" role="group" aria-label="Search scope">
              <span>In</span>
              {[
                { path: props.folder, label: info.label, key: props.screen },
                { path: '/memory/', label: 'All memory', key: 'all' },
                { path: '/research/', label: 'Research', key: 'research' },
              ].map((s) => (
                <button
                  key={s.key}
                  type="button"
                  className="chip"
                  data-testid={`search-scope-${s.key}`}
                  aria-pressed={scope === s.path}
                  onClick={() => setScope(s.path)}
                >
                  {s.label}
                </button>
              ))}
            </div>
          )}
        </div>

        <div className="query-box">
          <label className="query-input" htmlFor={`q-${props.screen}`}>
            <span className="filter-glyph" aria-hidden="true">
              ƒ
            </span>
            <span className="visually-hidden">Filter {noun}</span>
            <TextInput
              label="The filter"
              limit={inputLimits.filter}
              sayOverLimit={false}
              id={`q-${props.screen}`}
              data-testid="memory-query"
              type="search"
              value={text}
              onChange={setText}
              placeholder={`Filter, e.g. ${examples[props.screen]}`}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={queryError ? true : undefined}
              aria-describedby={queryError ? `qe-${props.screen}` : `qh-${props.screen}`}
            />
          </label>
          <div className="chip-row" role="group" aria-label="Quick filters">
            {quickFilters(props.screen).map((f) => (
              <button
                key={f.token}
                type="button"
                className="chip"
                data-testid="filter-chip"
                aria-pressed={hasToken(text, f.token)}
                title={f.token}
                onClick={() => setText((t) => toggleToken(t, f.token))}
              >
                {f.label}
              </button>
            ))}
          </div>
          {queryError ? (
            <p className="query-error" id={`qe-${props.screen}`} data-testid="memory-query-error" role="alert">
              {queryError}
            </p>
          ) : (
            <p className="hint" id={`qh-${props.screen}`}>
              Words match the text; also <code>key:value</code>, <code>key&gt;=N</code>, <code>since:YYYY-MM-DD</code>, <code>"exact phrase"</code>.
            </p>
          )}
        </div>

        <div className="list-summary" aria-live="polite">
          {summary}
          {active.isFetching && !active.isPending && <span className="spinner" role="img" aria-label="Updating" />}
        </div>
        {searching && search.data?.degraded && !search.isError && <p className="degraded">{search.data.degraded}</p>}
        {otherError && <ErrorPanel error={otherError} />}
        {searchMissing && (
          <div className="empty-list">
            <p>Search by meaning is not available in this version of Forge yet. Use the filter to narrow the list.</p>
          </div>
        )}
        {queryError ? (
          <div className="empty-list" data-testid="memory-list">
            <p>Fix the filter above to see {noun}; clear it to see them all.</p>
          </div>
        ) : searching ? (
          search.data && !search.isError ? (
            search.data.results.length === 0 ? (
              <div className="empty-list">
                <p>
                  Nothing in {scope === '/memory/' ? 'memory' : scope === '/research/' ? 'the broker notes' : noun} matches “{searchQuery}”.
                </p>
              </div>
            ) : (
              <div className={search.isPlaceholderData ? 'list-wrap stale' : 'list-wrap'}>
                <SearchResults
                  hits={search.data.results}
                  selectedPath={passage ? null : selectedPath}
                  selectedPassage={passage?.id ?? null}
                  onSelect={openHit}
                  showCategory={scope === '/memory/'}
                />
              </div>
            )
          ) : null
        ) : !list.isPending && !list.isError && rows.length === 0 ? (
          <div className="empty-list" data-testid="memory-list">
            {query ? (
              <p>
                No {noun} match <code>{query}</code>.
              </p>
            ) : (
              <p>
                No {noun} yet. The analyst writes them as it works with you; you can also write one with New {kindNoun}.
              </p>
            )}
          </div>
        ) : (
          <div className={list.isPlaceholderData || list.isError ? 'list-wrap stale' : 'list-wrap'}>
            <RecordTable
              category={props.screen}
              rows={list.isError ? [] : rows}
              total={list.isError ? 0 : total}
              sort={sort}
              onSort={setSort}
              selected={props.selected}
              onOpen={select}
              hasMore={Boolean(hasNextPage) && !list.isError}
              loadMore={loadMore}
              label={`${info.label} table`}
              resetKey={`${query}|${sort.key}|${sort.dir}`}
            />
          </div>
        )}
      </div>
      <div className="detail-pane">
        {editing ? (
          <RecordEditor
            key={editing.path ?? 'new'}
            kind={props.screen}
            folder={props.folder}
            path={editing.path}
            onDirty={noteDirty}
            onCancel={() => {
              if (unsaved.current && !window.confirm('Discard your unsaved changes?')) return;
              unsaved.current = false;
              setEditing(null);
            }}
            onSaved={(path) => {
              unsaved.current = false;
              setEditing(null);
              props.onSelect(fileOf(path));
            }}
          />
        ) : passage ? (
          <PassageView key={passage.id} hit={passage} onClose={() => setPassage(null)} />
        ) : selectedPath ? (
          <RecordView
            key={selectedPath}
            path={selectedPath}
            onClose={() => select(null)}
            onEdit={selectedPath.startsWith(props.folder) ? () => setEditing({ path: selectedPath }) : undefined}
          />
        ) : (
          <div className="empty-state subtle">
            <div className="empty-icon">
              <Icon name={props.screen} size={30} />
            </div>
            <h2>Select {props.screen === 'views' ? 'a View' : 'an Expression'}</h2>
            <p>Pick one from the list to read it in full, with its version history.</p>
          </div>
        )}
      </div>
    </section>
  );
}
