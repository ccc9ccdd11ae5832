import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { BuildLogEntry } from '../../src-main/api/builds';
import { callArgs, firstLine, groupLog, isNearBottom, isProblem, type LogItem, logKindLabel } from './log';
import { clock } from './model';

/** Items drawn at once; earlier ones come back with "Show earlier" (the DOM stays small on long builds). */
const SHOWN = 300;

/**
 * The builder's log as it happens: its text, each tool call with its result (folded, errors
 * unfolded and marked), markers, gates, tests, audits, compactions. It follows new lines while
 * the user is at the bottom and stays put when they scroll up to read.
 */
export function LiveLog(props: { log: BuildLogEntry[] }) {
  const items = useMemo(() => groupLog(props.log), [props.log]);
  const [shown, setShown] = useState(SHOWN);
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [behind, setBehind] = useState(false);
  const visible = items.length > shown ? items.slice(items.length - shown) : items;
  const hidden = items.length - visible.length;
  const last = props.log[props.log.length - 1]?.seq ?? 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a new line arrives (`last`), reading the scroll box through its ref.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [last]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    stick.current = isNearBottom(el);
    if (stick.current) setBehind(false);
  };

  const jump = () => {
    const el = box.current;
    if (!el) return;
    stick.current = true;
    setBehind(false);
    el.scrollTop = el.scrollHeight;
  };

  return (
    <section className="builds-section build-log-section" aria-labelledby="build-log-title">
      <h2 id="build-log-title">
        Live log <span className="muted small">{props.log.length} lines</span>
      </h2>
      <div className="build-log-frame">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls on its own; keyboard users need to focus it to scroll it. */}
        <div className="build-log" ref={box} onScroll={onScroll} tabIndex={0} role="log" aria-label="Build log" data-testid="build-log">
          {hidden > 0 && (
            <button type="button" className="button small build-log-more" onClick={() => setShown((n) => n + SHOWN)}>
              Show {Math.min(SHOWN, hidden)} earlier ({hidden} hidden)
            </button>
          )}
          {items.length === 0 && <p className="muted small build-log-empty">Nothing logged yet.</p>}
          {visible.map((item) => (
            <LogLine key={item.key} item={item} />
          ))}
        </div>
        {behind && (
          <button type="button" className="button small build-log-jump" data-testid="build-log-jump" onClick={jump}>
            New lines below ↓
          </button>
        )}
      </div>
    </section>
  );
}

function LogLine({ item }: { item: LogItem }) {
  if (item.type === 'tool') {
    const failed = item.result?.isError ?? false;
    const result = item.result ? firstLine(item.result.text) : null;
    return (
      <div
        className={failed ? 'log-line is-tool is-problem' : 'log-line is-tool'}
        data-testid="build-log-entry"
        data-kind="tool_call"
        data-tool={item.call.tool ?? ''}
      >
        <time className="log-time" dateTime={item.call.at}>
          {clock(item.call.at)}
        </time>
        <span className="log-kind">{logKindLabel.tool_call}</span>
        <div className="log-body">
          <code className="log-tool">{item.call.tool}</code> <span className="log-args">{firstLine(callArgs(item.call), 200).head}</span>
          {item.result ? (
            <details className="log-result" open={failed} data-testid="build-log-result" data-error={failed}>
              <summary>
                {failed ? <strong className="log-error-word">error</strong> : 'result'}: {result!.head}
                {result!.more > 0 && <span className="muted"> (+{result!.more} lines)</span>}
              </summary>
              <pre>{item.result.text}</pre>
            </details>
          ) : (
            <span className="muted small"> · running…</span>
          )}
        </div>
      </div>
    );
  }
  const e = item.entry;
  const long = e.text.includes('\n') || e.text.length > 220;
  return (
    <div className={`log-line is-${e.kind}${isProblem(e) ? ' is-problem' : ''}`} data-testid="build-log-entry" data-kind={e.kind} data-tool={e.tool ?? ''}>
      <time className="log-time" dateTime={e.at}>
        {clock(e.at)}
      </time>
      <span className="log-kind">{logKindLabel[e.kind]}</span>
      <div className="log-body">
        {e.tool && <code className="log-tool">{e.tool}</code>}
        {e.tool && ' '}
        {long && e.kind === 'tool_result' ? (
          <details>
            <summary>{firstLine(e.text).head}</summary>
            <pre>{e.text}</pre>
          </details>
        ) : (
          <span className="log-text">{e.text}</span>
        )}
      </div>
    </div>
  );
}
