import { useState } from 'react';
import { useClient, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { kindCounts, kindLabel, type LineageStep, pathHref, stepTime } from './model';
import './lineage.css';

/** Saves text as a file through the browser's own download (the desktop app asks where to save it). */
function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One Expression's decision lineage: everything that shaped it, in time order, exportable as Markdown. */
export function LineagePage(props: { id: string }) {
  const lineage = useProcedure('lineage/expression', { id: props.id });
  const client = useClient();
  const [exporting, setExporting] = useState<{ error?: Error; done?: string } | null>(null);
  if (lineage.isPending)
    return (
      <p className="muted pad" data-testid="lineage-loading">
        Tracing {props.id}…
      </p>
    );
  if (lineage.isError) return <ErrorPanel error={lineage.error} onRetry={() => void lineage.refetch()} testId="lineage-error" />;
  const v = lineage.data;
  const exportMd = async () => {
    setExporting({});
    try {
      const out = await client.call('lineage/export', { id: v.id });
      download(out.fileName, out.markdown);
      setExporting({ done: out.fileName });
    } catch (e) {
      setExporting({ error: e as Error });
    }
  };
  const gaps = v.steps.filter((s) => !s.recorded).length;
  return (
    <article className="record-page lineage-page" data-testid="lineage-page" aria-label={`Decision lineage of ${v.id}`}>
      <header className="record-page-head">
        <p className="muted">
          <a className="record-link" href={`#/expressions/${v.id}`}>
            ← {v.id}
          </a>
        </p>
        <h1 className="record-title">
          Decision lineage — {v.id}: {v.title}
        </h1>
        <p className="muted" data-testid="lineage-summary">
          Status {v.status || 'not recorded'} · {v.sessionId ? `proposed in session ${v.sessionId}` : 'no analyst session'} · {v.steps.length} steps
          {gaps ? `, ${gaps} not recorded` : ''} ·{' '}
          {kindCounts(v.steps)
            .map((c) => `${c.n} ${kindLabel[c.kind].toLowerCase()}`)
            .join(' · ')}
        </p>
        <p>
          <button
            type="button"
            className="button"
            onClick={() => void exportMd()}
            disabled={exporting !== null && !exporting.error && !exporting.done}
            data-testid="lineage-export"
          >
            Export as Markdown
          </button>{' '}
          {exporting?.done && (
            <span className="muted" role="status">
              Saved as {exporting.done}
            </span>
          )}
        </p>
        {exporting?.error && <ErrorPanel error={exporting.error} inline onRetry={() => void exportMd()} />}
      </header>
      <ol className="lineage-timeline" data-testid="lineage-steps">
        {/* Steps have no id of their own; their place in one trace is fixed, so it is their key. */}
        {v.steps
          .map((step, place) => ({ step, place }))
          .map((k) => (
            <Step key={k.place} step={k.step} />
          ))}
      </ol>
    </article>
  );
}

function Step(props: { step: LineageStep }) {
  const s = props.step;
  return (
    <li className={`lineage-step kind-${s.kind}${s.recorded ? '' : ' is-gap'}`} data-testid="lineage-step" data-kind={s.kind}>
      <div className="lineage-when">
        <time dateTime={s.at ?? undefined}>{stepTime(s.at)}</time>
        <span className={`chip lineage-kind kind-${s.kind}`}>{kindLabel[s.kind]}</span>
      </div>
      <div className="lineage-body">
        <h2 className="lineage-title">{s.title}</h2>
        {!s.recorded && <p className="lineage-gap">Not recorded.</p>}
        {s.summary && <p className="lineage-summary">{s.summary}</p>}
        {s.figures.length > 0 && (
          <dl className="lineage-figures">
            {s.figures.map((f) => (
              <div key={`${f.label}=${f.value}`}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {s.links.length > 0 && (
          <ul className="lineage-links">
            {s.links.map((l) => {
              const href = pathHref(l);
              return (
                <li key={l}>
                  {href ? (
                    <a className="record-link" href={href}>
                      {l}
                    </a>
                  ) : (
                    <code>{l}</code>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </li>
  );
}
