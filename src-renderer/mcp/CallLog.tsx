import { useState } from 'react';
import { formatClock, formatMs, type McpCall } from './model';
import { ErrorPanel } from '../app/ErrorPanel';

/** The most recent tool calls from every attached client, newest first, with how long each took and why it failed. */
export function CallLog(props: { calls: McpCall[] | undefined; error: unknown; fetching: boolean; onRetry: () => void }) {
  const [errorsOnly, setErrorsOnly] = useState(false);
  const all = props.calls ?? [];
  const shown = errorsOnly ? all.filter((c) => !c.ok) : all;
  const failed = all.filter((c) => !c.ok).length;

  return (
    <article className="card mcp-calls" data-testid="mcp-calls" aria-labelledby="mcp-calls-title">
      <header className="mcp-card-head">
        <h2 id="mcp-calls-title">Recent calls</h2>
        <span className="muted" aria-live="polite">
          {props.calls ? `${all.length} shown${failed ? ` · ${failed} failed` : ''}` : 'Loading…'}
          {props.fetching && props.calls && <span className="spinner" role="img" aria-label="Updating" />}
        </span>
        <div className="chip-row mcp-calls-filter" role="group" aria-label="Show calls">
          <button type="button" className="chip" aria-pressed={!errorsOnly} onClick={() => setErrorsOnly(false)} data-testid="mcp-calls-all">
            All
          </button>
          <button type="button" className="chip" aria-pressed={errorsOnly} onClick={() => setErrorsOnly(true)} data-testid="mcp-calls-errors-only">
            Failed only
          </button>
        </div>
      </header>
      {props.error != null && <ErrorPanel error={props.error} onRetry={props.onRetry} inline />}
      {props.calls && all.length === 0 && (
        <p className="muted" data-testid="mcp-calls-empty">
          No tool calls since Forge started. They appear here within a couple of seconds of an IDE making them.
        </p>
      )}
      {props.calls && all.length > 0 && shown.length === 0 && <p className="muted">No failed calls among the recent ones.</p>}
      {shown.length > 0 && (
        <div
          className="mcp-calls-scroll"
          role="region"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1).
          tabIndex={0}
          aria-label="Recent calls, newest first"
          data-testid="mcp-calls-scroll"
        >
          <table className="mcp-table mcp-call-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Tool</th>
                <th scope="col">Project</th>
                <th scope="col">Transport</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c, i) => (
                <tr
                  // biome-ignore lint/suspicious/noArrayIndexKey: calls have no id; two calls of one tool can share a millisecond, and the rows hold no state.
                  key={`${c.at}-${c.tool}-${i}`}
                  data-testid="mcp-call"
                  data-tool={c.tool}
                  data-ok={c.ok ? 'true' : 'false'}
                  className={c.ok ? undefined : 'is-failed'}
                >
                  <td className="mcp-time" title={c.at}>
                    {formatClock(c.at)}
                  </td>
                  <td>
                    <code>{c.tool}</code>
                  </td>
                  <td className="mcp-call-project" data-testid="mcp-call-project">
                    {c.project ?? <span className="muted">—</span>}
                  </td>
                  <td>
                    <span className="chip subtle">{c.transport}</span>
                  </td>
                  <td className="num" data-testid="mcp-call-duration">
                    {formatMs(c.durationMs)}
                  </td>
                  <td className="mcp-call-result">
                    {c.ok ? <span className="mcp-ok">ok</span> : <span className="mcp-error">{c.error ?? 'failed (no message)'}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
