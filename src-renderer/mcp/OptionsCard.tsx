import { useQueryClient } from '@tanstack/react-query';
import type { McpStatus } from '../../src-main/api/mcp';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { analystToolsOffered } from './model';
import { ErrorPanel } from '../app/ErrorPanel';

/** What attached clients may see beyond the governance tools, and the contract cache. */
export function OptionsCard(props: { status: McpStatus }) {
  const queryClient = useQueryClient();
  const setOptions = useProcedureMutation('mcp/set-options');
  const clearCache = useProcedureMutation('mcp/clear-cache');
  const on = setOptions.isPending ? Boolean(setOptions.variables?.exposeAnalystTools) : props.status.exposeAnalystTools;
  const offered = analystToolsOffered(props.status.tools);
  const cache = props.status.cache;
  const lookups = cache.hits + cache.misses;

  const refreshStatus = () => queryClient.invalidateQueries({ queryKey: procedureKey('mcp/status') });

  return (
    <article className="card mcp-options" data-testid="mcp-options" aria-labelledby="mcp-options-title">
      <header className="mcp-card-head">
        <h2 id="mcp-options-title">Options</h2>
      </header>

      <div className="mcp-toggle-row">
        <label className="mcp-switch">
          <input
            type="checkbox"
            role="switch"
            checked={on}
            aria-checked={on}
            disabled={setOptions.isPending}
            data-testid="mcp-expose-analyst"
            onChange={(e) => setOptions.mutate({ exposeAnalystTools: e.target.checked }, { onSettled: () => void refreshStatus() })}
          />
          <span className="mcp-switch-track" aria-hidden="true" />
          <span>
            <strong>Offer the analyst’s read and search to attached clients</strong>
            <span className="hint">
              Read-only: an IDE could read and search your Views, Expressions and Process Knowledge, but never write them. Off unless you turn it on.
            </span>
          </span>
        </label>
        {on && !setOptions.isPending && offered.length > 0 && (
          <p className="hint" data-testid="mcp-analyst-offered">
            Offered now:{' '}
            {offered.map((n) => (
              <code key={n}>{n}</code>
            ))}
            . Clients that cached the tool list may need to reconnect to see them.
          </p>
        )}
        {on && !setOptions.isPending && offered.length === 0 && (
          <p className="hint mcp-warn-text" data-testid="mcp-analyst-unavailable">
            Turned on, but this Forge has not connected the analyst’s tools to the MCP server, so nothing extra is offered yet.
          </p>
        )}
        {setOptions.isError && <ErrorPanel error={setOptions.error} inline />}
      </div>

      <div className="mcp-cache-row">
        <div>
          <strong>Contract cache</strong>
          <p className="hint" data-testid="mcp-cache">
            {cache.size} {cache.size === 1 ? 'entry' : 'entries'} · {lookups > 0 ? `${Math.round((cache.hits / lookups) * 100)}% hits` : 'no lookups yet'} (
            {cache.hits} hits, {cache.misses} misses, {cache.evictions} evicted). Contracts are re-read when their file changes; clear it if an edit does not
            show.
          </p>
        </div>
        <button
          type="button"
          className="button small"
          data-testid="mcp-clear-cache"
          disabled={clearCache.isPending}
          onClick={() => clearCache.mutate({}, { onSettled: () => void refreshStatus() })}
        >
          Clear cache
        </button>
      </div>
      <p className="form-status" role="status" aria-live="polite">
        {clearCache.isSuccess && (
          <span className="saved">
            Cleared {clearCache.data.cleared} {clearCache.data.cleared === 1 ? 'entry' : 'entries'}.
          </span>
        )}
      </p>
      {clearCache.isError && <ErrorPanel error={clearCache.error} inline />}
    </article>
  );
}
