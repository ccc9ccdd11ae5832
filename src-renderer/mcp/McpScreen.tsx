import { useProcedure } from '../api/hooks';
import { screenInfo } from '../app/screens';
import { AttachCard } from './AttachCard';
import { CallLog } from './CallLog';
import { bearerOf } from './model';
import { OptionsCard } from './OptionsCard';
import { StatusCard } from './StatusCard';
import { ToolCatalogue } from './ToolCatalogue';
import './mcp.css';
import { ErrorPanel } from '../app/ErrorPanel';

/** How often the screen re-reads status and calls while it is open: the core pushes no MCP events. */
const STATUS_EVERY_MS = 3_000;
const CALLS_EVERY_MS = 2_000;

/**
 * The governance MCP server: whether it runs and who is attached, the tools it offers, the calls
 * it served, its token, and ready-made configuration for attaching an IDE.
 */
export function McpScreen() {
  const info = screenInfo.mcp;
  const status = useProcedure('mcp/status', {}, { refetchInterval: STATUS_EVERY_MS, staleTime: 1_000 });
  const calls = useProcedure('mcp/calls', { limit: 100 }, { refetchInterval: CALLS_EVERY_MS, staleTime: 1_000 });
  const snippets = useProcedure('mcp/config-snippets', {}, { staleTime: 60_000 });
  const http = status.data?.transports.http;

  return (
    <section className="screen" data-testid="screen-mcp" aria-labelledby="title-mcp">
      <div className="screen-scroll mcp-scroll">
        <header className="screen-header">
          <h1 id="title-mcp">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>

        {status.isPending && <p className="muted">Loading…</p>}
        {status.isError && <ErrorPanel error={status.error} onRetry={() => void status.refetch()} inline testId="mcp-status-error" />}

        {status.data && (
          <div className="mcp-grid">
            <StatusCard status={status.data} tokenPreview={bearerOf(snippets.data?.snippets ?? [])} />
            <AttachCard
              snippets={snippets.data?.snippets ?? []}
              httpRunning={Boolean(http?.running && http.url)}
              loading={snippets.isPending}
              error={snippets.isError ? snippets.error : null}
              onRetry={() => void snippets.refetch()}
            />
            <CallLog calls={calls.data?.calls} error={calls.isError ? calls.error : null} fetching={calls.isFetching} onRetry={() => void calls.refetch()} />
            <ToolCatalogue tools={status.data.tools} />
            <OptionsCard status={status.data} />
          </div>
        )}
      </div>
    </section>
  );
}
