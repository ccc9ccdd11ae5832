import { ErrorPanel } from '../app/ErrorPanel';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useClient, useProcedure } from '../api/hooks';
import { CopyButton } from './CopyButton';
import {
  checkSnippet,
  clientLabel,
  clientOrder,
  parseAttachChoice,
  pickSnippet,
  transportNote,
  type McpSnippet,
  type SnippetClient,
  type SnippetTransport,
} from './model';

const CHOICE_KEY = 'forge.mcp.attach';

// Storage can be unavailable (privacy modes); the default choice is fine then.
function readChoice() {
  try {
    return parseAttachChoice(localStorage.getItem(CHOICE_KEY));
  } catch {
    return parseAttachChoice(null);
  }
}

function writeChoice(client: SnippetClient, transport: SnippetTransport) {
  try {
    localStorage.setItem(CHOICE_KEY, JSON.stringify({ client, transport }));
  } catch {
    /* not remembered; nothing else depends on it */
  }
}

/**
 * Copy-ready configuration per IDE, stdio and HTTP. HTTP variants carry the bearer token: the
 * screen shows only its preview until the PM clicks Reveal, and Copy always copies the real one.
 */
export function AttachCard(props: { snippets: McpSnippet[]; httpRunning: boolean; loading: boolean; error: unknown; onRetry: () => void }) {
  const client = useClient();
  const [initial] = useState(readChoice);
  const [selected, setSelected] = useState<SnippetClient>(initial.client);
  const [transport, setTransport] = useState<SnippetTransport>(initial.transport);
  useEffect(() => writeChoice(selected, transport), [selected, transport]);
  const [revealed, setRevealed] = useState(false);
  const tabs = useRef<HTMLDivElement>(null);
  // The revealed form is fetched only on request and never kept in the cache after it leaves the screen.
  const full = useProcedure('mcp/config-snippets', { revealToken: true }, { enabled: revealed && transport === 'http', gcTime: 0, staleTime: 0 });

  const available = clientOrder.filter((c) => props.snippets.some((s) => s.client === c));
  const shownTransport: SnippetTransport = transport === 'http' && !props.httpRunning ? 'stdio' : transport;
  const preview = pickSnippet(props.snippets, selected, shownTransport);
  const secret = revealed && shownTransport === 'http' ? pickSnippet(full.data?.snippets ?? [], selected, 'http') : null;
  const snippet = secret ?? preview;
  const check = snippet ? checkSnippet(snippet.text) : null;

  const copyReal = async (): Promise<string> => {
    if (!preview) return '';
    if (preview.transport === 'stdio') return preview.text;
    if (secret) return secret.text;
    const r = await client.call('mcp/config-snippets', { revealToken: true });
    return pickSnippet(r.snippets, selected, 'http')?.text ?? preview.text;
  };

  const onTabKey = (e: KeyboardEvent) => {
    const at = available.indexOf(selected);
    let next = at;
    if (e.key === 'ArrowRight') next = (at + 1) % available.length;
    else if (e.key === 'ArrowLeft') next = (at - 1 + available.length) % available.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = available.length - 1;
    else return;
    e.preventDefault();
    setSelected(available[next]!);
    tabs.current?.querySelector<HTMLButtonElement>(`[data-client="${available[next]}"]`)?.focus();
  };

  return (
    <article className="card mcp-attach" data-testid="mcp-attach" aria-labelledby="mcp-attach-title">
      <header className="mcp-card-head">
        <h2 id="mcp-attach-title">Attach an IDE</h2>
      </header>
      <p className="muted mcp-lead">Pick your client and how it connects, then paste the configuration where it says.</p>
      {props.error != null && <ErrorPanel error={props.error} onRetry={props.onRetry} inline />}
      {props.loading && <p className="muted">Loading…</p>}
      {available.length > 0 && (
        <>
          <div className="mcp-attach-bar">
            <div className="mcp-tabs" role="tablist" aria-label="Client" ref={tabs} onKeyDown={onTabKey}>
              {available.map((c) => (
                <button
                  key={c}
                  type="button"
                  role="tab"
                  id={`mcp-tab-${c}`}
                  data-client={c}
                  data-testid={`mcp-client-${c}`}
                  aria-selected={selected === c}
                  aria-controls="mcp-snippet-panel"
                  tabIndex={selected === c ? 0 : -1}
                  className="mcp-tab"
                  onClick={() => setSelected(c)}
                >
                  {clientLabel(props.snippets, c)}
                </button>
              ))}
            </div>
            <div className="chip-row mcp-transport" role="group" aria-label="Transport">
              <button
                type="button"
                className="chip"
                data-testid="mcp-transport-stdio"
                aria-pressed={shownTransport === 'stdio'}
                onClick={() => setTransport('stdio')}
              >
                stdio
              </button>
              <button
                type="button"
                className="chip"
                data-testid="mcp-transport-http"
                aria-pressed={shownTransport === 'http'}
                onClick={() => setTransport('http')}
                disabled={!props.httpRunning}
                title={props.httpRunning ? undefined : 'The HTTP server is not running in this window'}
              >
                HTTP
              </button>
            </div>
          </div>
          <p className="hint mcp-transport-note">{transportNote(shownTransport, props.httpRunning)}</p>

          <div
            className="mcp-snippet"
            id="mcp-snippet-panel"
            role="tabpanel"
            aria-labelledby={`mcp-tab-${selected}`}
            data-testid="mcp-snippet"
            data-client={selected}
            data-transport={shownTransport}
          >
            {snippet ? (
              <>
                <div className="mcp-snippet-bar">
                  <span className="mcp-where">
                    <span className="muted">Paste into</span> <strong data-testid="mcp-snippet-where">{snippet.where}</strong>
                  </span>
                  {check?.kind === 'json' && (
                    <span className={`chip ${check.ok ? 'mcp-json-ok' : 'mcp-json-bad'}`} title={check.ok ? 'Parses as JSON' : check.message}>
                      {check.ok ? 'valid JSON' : 'not valid JSON'}
                    </span>
                  )}
                  {check?.kind === 'command' && <span className="chip subtle">terminal command</span>}
                  <span className="mcp-snippet-actions">
                    {shownTransport === 'http' && (
                      <button type="button" className="button small" data-testid="mcp-reveal" aria-pressed={revealed} onClick={() => setRevealed((r) => !r)}>
                        {revealed ? 'Hide token' : 'Reveal token'}
                      </button>
                    )}
                    <CopyButton text={copyReal} what={`the ${clientLabel(props.snippets, selected)} configuration`} testId="mcp-copy-snippet" />
                  </span>
                </div>
                <pre
                  className="mcp-snippet-text"
                  data-testid="mcp-snippet-text"
                  data-revealed={secret ? 'true' : 'false'}
                  role="region"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1).
                  tabIndex={0}
                  aria-label="Configuration"
                >
                  {snippet.text}
                </pre>
                {shownTransport === 'http' && !secret && (
                  <p className="hint">
                    The token is shortened here; <strong>Copy</strong> copies the full one.
                    {revealed && full.isFetching && ' Revealing…'}
                  </p>
                )}
                {secret && (
                  <p className="hint mcp-secret-warning" role="note">
                    This is the live token: anyone who has it can use Forge’s MCP server on this machine. Keep it out of shared repositories; rotate it if it
                    leaks.
                  </p>
                )}
                {revealed && full.isError && <ErrorPanel error={full.error} inline />}
              </>
            ) : (
              <p className="muted">No {shownTransport} configuration for this client.</p>
            )}
          </div>
        </>
      )}
    </article>
  );
}
