import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../api/hooks';
import { useReindexProgress } from '../api/events';
import { isApiError, readableMessage } from '../api/errors';
import { reindexSearch, searchIndexStatus } from '../memory/search';

/**
 * The state of the search index: which embedder made the vectors, whether they are stale, and
 * notes waiting to be re-embedded after a provider failure — with a rebuild that reports progress.
 * Broker-note passages (the research folder) are part of the index: counted here and rebuilt too.
 */
export function SearchIndexCard() {
  const client = useClient();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['search/status'], queryFn: () => searchIndexStatus(client), retry: false, refetchInterval: 30_000 });
  const progress = useReindexProgress();
  const rebuild = useMutation({
    mutationFn: () => reindexSearch(client),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['search/status'] }),
  });

  // A build without the search procedures: say nothing rather than show an error card.
  if (status.isError && isApiError(status.error) && status.error.code === 'not_found') return null;

  const s = status.data;
  const running = rebuild.isPending;
  const pct = running && progress.done !== null && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;

  return (
    <section className="card" aria-labelledby="index-title" data-testid="search-index">
      <h2 id="index-title">Search index</h2>
      {status.isPending && <p className="muted">Reading the index…</p>}
      {status.isError && <p className="field-error">{readableMessage(status.error)}</p>}
      {s && (
        <>
          <dl className="facts">
            <dt>Embedder</dt>
            <dd>
              <code>{s.embedder}</code> ({s.dims} dimensions)
            </dd>
            <dt>Indexed</dt>
            <dd>
              {s.indexed.toLocaleString()} of {s.records.toLocaleString()} notes
            </dd>
            <dt>Broker notes</dt>
            <dd data-testid="search-index-passages">
              {s.passages === 0
                ? 'none searched (no notes in the research folder, or research is off)'
                : `${s.passagesIndexed.toLocaleString()} of ${s.passages.toLocaleString()} passages embedded${s.passagesIndexed < s.passages ? ' (the rest are found by keyword until embedded)' : ''}`}
            </dd>
            <dt>Waiting</dt>
            <dd data-testid="search-index-queued">{s.queued === 0 ? 'none' : `${s.queued.toLocaleString()} notes wait to be re-embedded`}</dd>
            {s.lastError && (
              <>
                <dt>Last problem</dt>
                <dd className="field-error">{s.lastError}</dd>
              </>
            )}
          </dl>
          {s.stale && (
            <p className="degraded" role="status">
              The index is out of date (the embedder changed, or some notes or passages are missing). Rebuild it so search by meaning sees everything.
            </p>
          )}
        </>
      )}
      <div className="form-actions static">
        <button type="button" className="button" onClick={() => rebuild.mutate()} disabled={running || !s} data-testid="search-reindex">
          {running ? 'Rebuilding…' : 'Rebuild index'}
        </button>
        {pct !== null && (
          <span className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Rebuild progress">
            <span className="progress-bar" style={{ width: `${pct}%` }} />
          </span>
        )}
        {pct !== null && <span className="muted">{pct}%</span>}
        {rebuild.isSuccess && !running && (
          <span className="saved">
            ✓ Rebuilt {(rebuild.data.total - (rebuild.data.passages ?? 0)).toLocaleString()} notes
            {rebuild.data.passages ? ` and ${rebuild.data.passages.toLocaleString()} broker-note passages` : ''}
          </span>
        )}
        {rebuild.isError && <span className="field-error">{readableMessage(rebuild.error)}</span>}
      </div>
    </section>
  );
}
