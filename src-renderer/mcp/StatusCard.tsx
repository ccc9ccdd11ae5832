import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { McpStatus } from '../../src-main/api/mcp';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { relativeTime } from '../memory/format';
import { CopyButton } from './CopyButton';
import { callTotals, clientProjectLine, formatClock } from './model';
import { ErrorPanel } from '../app/ErrorPanel';

/** The server as it runs now: transports, who is attached, how busy it is, and the token HTTP clients present. */
export function StatusCard(props: { status: McpStatus; tokenPreview: string | null }) {
  const s = props.status;
  const http = s.transports.http;
  const totals = callTotals(s.tools);

  return (
    <article className="card mcp-status" data-testid="mcp-status" aria-labelledby="mcp-status-title">
      <header className="mcp-card-head">
        <h2 id="mcp-status-title">Server</h2>
        <span className={`mcp-state ${http.running ? 'is-on' : 'is-off'}`} data-testid="mcp-http-state">
          {http.running ? 'HTTP running' : 'HTTP not running'}
        </span>
      </header>

      <dl className="key-figures mcp-figures">
        <Figure label="HTTP port" value={http.port === null ? '—' : String(http.port)} testId="mcp-port" />
        <Figure label="HTTP sessions" value={String(http.sessions)} testId="mcp-sessions" />
        <Figure label="Tool calls" value={String(totals.calls)} testId="mcp-total-calls" />
        <Figure label="Failed calls" value={String(totals.errors)} tone={totals.errors > 0 ? 'danger' : undefined} testId="mcp-total-errors" />
      </dl>

      <dl className="facts mcp-facts">
        <dt>HTTP endpoint</dt>
        <dd>
          {http.url ? (
            <span className="mcp-inline">
              <code data-testid="mcp-http-url">{http.url}</code>
              <CopyButton text={http.url} what="the HTTP endpoint" testId="mcp-copy-url" />
            </span>
          ) : (
            <span className="muted" data-testid="mcp-http-url-missing">
              Not running in this window. IDEs can still attach over stdio (below).
            </span>
          )}
        </dd>
        <dt>stdio command</dt>
        <dd>
          <span className="mcp-inline">
            <code data-testid="mcp-stdio-command">{s.transports.stdio.command}</code>
            <CopyButton text={s.transports.stdio.command} what="the stdio command" testId="mcp-copy-stdio" />
          </span>
        </dd>
        <dt>Contracts</dt>
        <dd>
          <span data-testid="mcp-mode">{s.mode === 'local' ? 'Local folder' : 'Proxied to a running Forge'}</span>{' '}
          <code data-testid="mcp-source">{s.source}</code>
        </dd>
        <dt>Busiest tool</dt>
        <dd>
          {totals.busiest ? (
            `${totals.busiest.name} (${totals.busiest.calls} ${totals.busiest.calls === 1 ? 'call' : 'calls'})`
          ) : (
            <span className="muted">No calls yet</span>
          )}
        </dd>
      </dl>

      <h3 className="mcp-subhead">Connected clients</h3>
      <p className="hint mcp-clients-note">
        Clients attached over HTTP to this window. An IDE using the stdio command runs its own Forge process, so its calls are not counted here.
      </p>
      {s.clients.length === 0 ? (
        <p className="muted" data-testid="mcp-no-clients">
          No client is attached right now. Paste one of the configurations below into your IDE; it appears here as soon as it connects.
        </p>
      ) : (
        <ul className="mcp-clients" data-testid="mcp-clients">
          {s.clients.map((c, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: clients have no id; two can attach in the same second, and the items hold no state.
              key={`${c.transport}-${c.since}-${i}`}
              data-testid="mcp-client"
            >
              <strong>{c.client ?? 'Unnamed client'}</strong>
              <span className="chip subtle">{c.transport}</span>
              <span className="muted" title={c.since}>
                connected {relativeTime(c.since)}
              </span>
              <ClientProject client={c} />
            </li>
          ))}
        </ul>
      )}

      <TokenRow preview={props.tokenPreview} httpRunning={http.running} />
    </article>
  );
}

/** Which project the client is on, so the PM sees which repository an IDE's calls are about. */
function ClientProject(props: { client: McpStatus['clients'][number] }) {
  const line = clientProjectLine(props.client);
  return (
    <span className={`mcp-client-project${line.tone === 'warn' ? ' is-warn' : ''}`} data-testid="mcp-client-project" title={line.text}>
      {line.text}
    </span>
  );
}

function Figure(props: { label: string; value: string; tone?: 'danger'; testId: string }) {
  return (
    <div className={`key-figure${props.tone ? ` is-${props.tone}` : ''}`}>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.value}</dd>
    </div>
  );
}

/** Rotating locks out every copy of the old token at once, so it asks first. */
function TokenRow(props: { preview: string | null; httpRunning: boolean }) {
  const queryClient = useQueryClient();
  const rotate = useProcedureMutation('mcp/rotate-token');
  const [confirming, setConfirming] = useState(false);

  const onRotate = () => {
    rotate.mutate(
      {},
      {
        onSuccess: () => {
          setConfirming(false);
          void queryClient.invalidateQueries({ queryKey: procedureKey('mcp/config-snippets') });
        },
      },
    );
  };

  return (
    <section className="mcp-token" aria-labelledby="mcp-token-title" data-testid="mcp-token">
      <h3 className="mcp-subhead" id="mcp-token-title">
        Access token
      </h3>
      <p className="hint">
        HTTP clients send it as <code>Authorization: Bearer …</code>. It is kept in the workspace folder (readable by you only) and survives restarts.
      </p>
      <div className="mcp-inline">
        <code className="mcp-token-preview" data-testid="mcp-token-preview" role="group" aria-label="Token preview (first and last four characters)">
          {props.preview ?? (props.httpRunning ? '…' : 'not used while HTTP is off')}
        </code>
        {!confirming ? (
          <button type="button" className="button small" data-testid="mcp-rotate" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
            Rotate token…
          </button>
        ) : (
          <span className="mcp-confirm" role="group" aria-label="Confirm token rotation">
            <span>Every HTTP client using the current token will be refused until you paste the new configuration.</span>
            <button
              type="button"
              className="button small danger"
              data-testid="mcp-rotate-confirm"
              onClick={onRotate}
              disabled={rotate.isPending}
              // biome-ignore lint/a11y/noAutofocus: the control appears only because the user just asked for it, so focus follows their action.
              autoFocus
            >
              Rotate now
            </button>
            <button type="button" className="button small" onClick={() => setConfirming(false)} disabled={rotate.isPending}>
              Keep current token
            </button>
          </span>
        )}
      </div>
      <p className="form-status" role="status" aria-live="polite">
        {rotate.isSuccess && !confirming && (
          <span className="saved" data-testid="mcp-rotated">
            New token issued at {formatClock(rotate.data.rotatedAt)} ({rotate.data.tokenPreview}). Update the HTTP configurations in your IDEs.
          </span>
        )}
      </p>
      {rotate.isError && <ErrorPanel error={rotate.error} inline />}
    </section>
  );
}
