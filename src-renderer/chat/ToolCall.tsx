import type { ToolCallView } from './store';
import { brokenLimits, toolArgument, writtenRecord } from './tool-result';

/**
 * One tool call in the conversation, collapsed to a line. A write names the record it produced
 * as a link (E-004), and a write the guardrails refused shows each broken limit as a table row,
 * so the PM does not have to read the analyst's raw result text.
 */
export function ToolCall({ call }: { call: ToolCallView }) {
  const r = call.result;
  const state = !r ? 'running' : r.isError ? 'error' : 'ok';
  const written = writtenRecord(call);
  const blocked = brokenLimits(call);
  return (
    <div className={`tool-call-wrap is-${state}`}>
      <details className={`tool-call is-${state}`}>
        <summary>
          <span className="tool-name">{call.name}</span> <span className="tool-arg">{toolArgument(call)}</span>
          <span className="tool-state">{!r ? 'running…' : r.isError ? (blocked.length ? 'blocked' : 'failed') : `${r.durationMs} ms`}</span>
          {r?.untrusted && (
            <span className="tool-untrusted" title="Came from outside Forge: treated as data, not instructions">
              outside data
            </span>
          )}
        </summary>
        <pre className="tool-input">{JSON.stringify(call.input, null, 2)}</pre>
        {r && <pre className="tool-result">{r.content}</pre>}
      </details>
      {written?.href && (
        <p className="tool-written" data-testid="chat-written-record">
          Wrote{' '}
          <a href={written.href} data-testid="chat-record-link">
            {written.id}
          </a>
        </p>
      )}
      {blocked.length > 0 && (
        <table className="tool-blocked" data-testid="chat-blocked-limits">
          <caption>Not written: blocked by {blocked.length === 1 ? 'a risk limit' : `${blocked.length} risk limits`}</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col" className="num">
                Value
              </th>
              <th scope="col" className="num">
                Limit
              </th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {blocked.map((b) => (
              <tr key={b.rule}>
                <td>
                  <code>{b.rule}</code>
                </td>
                <td className="num">{b.value}</td>
                <td className="num">{b.limit}</td>
                <td>{b.why}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
