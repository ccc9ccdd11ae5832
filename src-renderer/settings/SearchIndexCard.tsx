import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { useClient, useProcedure } from '../api/hooks';
import { useReindexProgress } from '../api/events';
import { isApiError, readableMessage } from '../api/errors';
import { reindexSearch, searchIndexStatus } from '../memory/search';
import { useModelDownloadProgress } from './model-live';

type ModelStatus = ProcedureOutput<'search/model-status'>;
type EmbedderChoice = ModelStatus['choice'];

/** The embedder choices in the PM's words; the hashed one says plainly that it matches words, not meaning. */
const CHOICES: { value: EmbedderChoice; label: string }[] = [
  { value: 'auto', label: 'Automatic (the local model once installed)' },
  { value: 'local-semantic', label: 'Local model (by meaning, runs offline)' },
  { value: 'hash', label: 'Keyword-like (no download)' },
  { value: 'voyage', label: 'Voyage (needs its key)' },
  { value: 'openai', label: 'OpenAI-compatible (needs its key)' },
];

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

  const retry = useMutation({
    mutationFn: () => client.call('search/retry-parked', {}),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['search/status'] }),
  });

  // A build without the search procedures: say nothing rather than show an error card.
  if (status.isError && isApiError(status.error) && status.error.code === 'not_found') return null;

  const s = status.data;
  const running = rebuild.isPending;
  // A new embedder makes the old vectors stale: rebuild at once, with the usual progress.
  const rebuildIfSwitched = (m: ModelStatus) => {
    void queryClient.invalidateQueries({ queryKey: ['search/model-status'] });
    if (s && m.active !== s.embedder && !rebuild.isPending) rebuild.mutate();
    else void queryClient.invalidateQueries({ queryKey: ['search/status'] });
  };
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
            <dt>Keyword ranking</dt>
            <dd data-testid="search-index-ranking">{s.keywordRanking}</dd>
            <dt>Waiting</dt>
            <dd data-testid="search-index-queued">{s.queued === 0 ? 'none' : `${s.queued.toLocaleString()} notes wait to be re-embedded`}</dd>
            {s.lastError && (
              <>
                <dt>Last problem</dt>
                <dd className="field-error">{s.lastError}</dd>
              </>
            )}
          </dl>
          {s.modelStall && (
            <p className={s.modelStall.recovered ? 'muted' : 'degraded'} role="status" data-testid="search-model-stall">
              {s.modelStall.message}
            </p>
          )}
          {s.parked > 0 && (
            <div className="degraded" role="status" data-testid="search-parked">
              <p>
                {s.parked === 1 ? '1 note' : `${s.parked.toLocaleString()} notes`} could not be embedded after {s.parkedNotes[0]?.attempts ?? 3} tries each.
                They are saved and found by keywords, but not by meaning; the notes behind them were not held up.
              </p>
              <ul>
                {s.parkedNotes.map((n) => (
                  <li key={`${n.category}/${n.id}`}>
                    <code>{n.id}</code> ({n.category}){n.lastError ? ` — ${n.lastError}` : ''}
                  </li>
                ))}
              </ul>
              <div className="form-actions static">
                <button type="button" className="button secondary" onClick={() => retry.mutate()} disabled={retry.isPending} data-testid="search-parked-retry">
                  {retry.isPending ? 'Retrying…' : 'Retry'}
                </button>
                {retry.isSuccess && <span className="muted">{retry.data.retried} queued again; they are embedded in the background.</span>}
                {retry.isError && <span className="field-error">{readableMessage(retry.error)}</span>}
              </div>
            </div>
          )}
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
        {running && (
          <button type="button" className="button" data-testid="search-reindex-cancel" onClick={() => void client.call('search/reindex-cancel', {})}>
            Cancel
          </button>
        )}
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
      {s && <LocalModelSection onSwitched={rebuildIfSwitched} />}
    </section>
  );
}

/**
 * The local search model: installed or not, Download with progress and Cancel, a folder for desks
 * that cannot download, and which embedder the index uses. Nothing pretends: without a model the
 * status says "not installed" and search stays on the keyword-like embedder.
 */
function LocalModelSection({ onSwitched }: { onSwitched: (m: ModelStatus) => void }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const model = useQuery({ queryKey: ['search/model-status'], queryFn: () => client.call('search/model-status', {}), retry: false });
  const progress = useModelDownloadProgress();
  // The download's size, summed from the pinned manifest (app/info), so the PM knows what "Download" costs.
  const size = useProcedure('app/info', {}, { staleTime: Infinity }).data?.build?.modelDownload ?? null;
  const [folder, setFolder] = useState<string | null>(null);
  const settle = (m: ModelStatus) => {
    queryClient.setQueryData(['search/model-status'], m);
    onSwitched(m);
  };
  const download = useMutation({
    mutationFn: () => {
      useModelDownloadProgress.setState({ done: null }, true);
      return client.call('search/model-download', {});
    },
    onSuccess: settle,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['search/model-status'] }),
  });
  const cancel = useMutation({ mutationFn: () => client.call('search/model-cancel', {}) });
  const useFolder = useMutation({ mutationFn: (path: string) => client.call('search/model-folder', { path }), onSuccess: settle });
  const choose = useMutation({ mutationFn: (embedder: EmbedderChoice) => client.call('search/embedder', { embedder }), onSuccess: settle });

  const m = model.data;
  if (model.isError) return <p className="field-error">{readableMessage(model.error)}</p>;
  if (!m) return null;
  const downloading = download.isPending;
  const pct = downloading && progress.done !== null && progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : null;
  const cancelled = download.isError && isApiError(download.error) && download.error.code === 'cancelled';
  const folderValue = folder ?? m.folderSetting ?? '';

  return (
    <div data-testid="search-model">
      <h3>Search by meaning</h3>
      <dl className="facts">
        <dt>Local model</dt>
        <dd data-testid="search-model-status">
          {m.model} ({m.dims} dimensions, {m.licence}) — {m.installed ? (m.source === 'folder' ? `installed from ${m.folder}` : 'installed') : 'not installed'}
        </dd>
        <dt>In use</dt>
        <dd>
          <code data-testid="search-model-active">{m.active}</code>
          {m.active.startsWith('hash-') && ' — keyword-like (no download): finds shared words and word pieces, not synonyms'}
        </dd>
      </dl>
      <div className="form-actions static">
        {!m.installed && (
          <button
            type="button"
            className="button"
            onClick={() => download.mutate()}
            disabled={downloading || !m.downloadable}
            data-testid="search-model-download"
          >
            {downloading ? 'Downloading…' : 'Download the model'}
            {size && !downloading && <span data-testid="search-model-download-size"> ({size.label})</span>}
          </button>
        )}
        {downloading && (
          <button type="button" className="button secondary" onClick={() => cancel.mutate()} data-testid="search-model-cancel">
            Cancel
          </button>
        )}
        {pct !== null && (
          <span className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Model download progress">
            <span className="progress-bar" style={{ width: `${pct}%` }} />
          </span>
        )}
        {pct !== null && <span className="muted">{pct}%</span>}
        {cancelled && <span className="muted">Download cancelled; nothing was installed.</span>}
        {download.isError && !cancelled && <span className="field-error">{readableMessage(download.error)}</span>}
      </div>
      {!m.installed && !m.downloadable && (
        <p className="muted">This build cannot check a download of the model yet; put its files in a folder and use it below.</p>
      )}
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          useFolder.mutate(folderValue);
        }}
      >
        <label htmlFor="search-model-folder">Use a folder…</label>
        <div className="form-actions static">
          <input
            id="search-model-folder"
            type="text"
            value={folderValue}
            placeholder="/path/to/all-MiniLM-L6-v2"
            aria-describedby="search-model-folder-hint"
            onChange={(e) => setFolder(e.target.value)}
            data-testid="search-model-folder"
          />
          <button type="submit" className="button secondary" disabled={useFolder.isPending}>
            Use folder
          </button>
        </div>
        <p className="hint" id="search-model-folder-hint">
          For a desk that cannot download: a folder with config.json, tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx.
        </p>
        {useFolder.isError && <p className="field-error">{readableMessage(useFolder.error)}</p>}
        {m.folderProblem && <p className="field-error">{m.folderProblem}</p>}
      </form>
      <div className="field">
        <label htmlFor="search-embedder">Embedder</label>
        <select
          id="search-embedder"
          value={m.choice}
          onChange={(e) => choose.mutate(e.target.value as EmbedderChoice)}
          disabled={choose.isPending}
          data-testid="search-embedder"
        >
          {CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {choose.isError && <p className="field-error">{readableMessage(choose.error)}</p>}
      </div>
    </div>
  );
}
