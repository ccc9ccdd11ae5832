import type { ReviewReportView } from '../../src-main/api/schedule';
import { useProcedure } from '../api/hooks';
import { isApiError } from '../api/errors';
import { ErrorPanel } from '../app/ErrorPanel';
import { actionLabel, changeDirection, formatChange, formatLevel, headline, localMinute, type ReportRow, totals } from './model';
import './reports.css';

/**
 * The morning review's structured report: per live View, what moved since the previous review
 * (from market data), which of its invalidation conditions the analyst said fired, its action and
 * note; then anything the report could not read.
 */
export function ReviewReport(props: { report: ReviewReportView }) {
  const r = props.report;
  const t = totals(r);
  return (
    <section className="review-report" aria-label="Morning review report" data-testid="review-report" data-fired={t.fired}>
      <header className="rr-head">
        <strong className={t.fired ? 'rr-headline is-fired' : 'rr-headline'} data-testid="review-report-headline">
          {headline(r)}
        </strong>
        <span className="muted small">
          Moves since {localMinute(r.since)} ({r.sinceSource === 'previous_review' ? 'the previous morning review' : 'no earlier review: the last 24 hours'}) ·{' '}
          {t.measured} of {r.views.length} Views measured
        </span>
      </header>
      {r.views.length === 0 ? (
        <p className="muted">No live View at the time of this review.</p>
      ) : (
        <div className="rr-table-wrap">
          <table className="rr-table">
            <thead>
              <tr>
                <th scope="col">View</th>
                <th scope="col">Moves</th>
                <th scope="col">Invalidation conditions fired</th>
                <th scope="col">Action</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {r.views.map((v) => (
                <ViewRow key={v.id} row={v} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {r.warnings.length > 0 && (
        <div className="rr-warnings" data-testid="review-report-warnings">
          <h4>Warnings</h4>
          <ul>
            {r.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function ViewRow({ row: v }: { row: ReportRow }) {
  const fired = v.invalidationsFired.length > 0;
  return (
    <tr data-testid="review-report-row" data-view={v.id} data-fired={fired} className={fired ? 'is-fired' : undefined}>
      <th scope="row" className="rr-view">
        <span className="rr-view-id">{v.id}</span>
        <span className="rr-view-title">{v.title}</span>
        {v.status !== 'active' && <span className="muted small">{v.status}</span>}
      </th>
      <td>
        {v.moves.length === 0 && v.missing.length === 0 && <span className="muted">—</span>}
        <ul className="rr-list">
          {v.moves.map((m) => (
            <li key={m.instrument} className="rr-move" data-testid="review-report-move">
              <span className="rr-instrument">{m.instrument}</span> {formatLevel(m.kind, m.from.value)} → {formatLevel(m.kind, m.to.value)}{' '}
              <span className={`rr-change is-${changeDirection(m)}`}>{formatChange(m)}</span> <span className="muted small">as of {m.asOf}</span>
            </li>
          ))}
          {v.missing.map((m) => (
            <li key={`${m.expression ?? 'view'}:${m.why}`} className="rr-missing muted small">
              {m.expression ? `${m.expression}: ` : ''}not measured — {m.why}
            </li>
          ))}
        </ul>
      </td>
      <td>
        {fired ? (
          <ul className="rr-list">
            {v.invalidationsFired.map((f) => (
              <li key={f.text} className={f.matched ? 'rr-fired' : 'rr-fired is-unmatched'} data-testid="review-report-fired" data-matched={f.matched}>
                {f.text}
                {!f.matched && <span className="rr-tag">not in the View's conditions</span>}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
      <td>{v.action ? <span className={`rr-action is-${v.action}`}>{actionLabel[v.action]}</span> : <span className="muted">—</span>}</td>
      <td className="rr-note">{v.note ?? <span className="muted">—</span>}</td>
    </tr>
  );
}

/** The report of one schedule run, fetched; for the Schedule screen's history row detail. */
export function RunReviewReport(props: { runId: number }) {
  const q = useProcedure('schedule/report', { runId: props.runId }, { staleTime: 60_000 });
  if (q.isPending) return <p className="muted">Loading the report…</p>;
  if (q.isError) {
    if (isApiError(q.error) && q.error.code === 'not_found') return <p className="muted">This run has no morning review report.</p>;
    return <ErrorPanel error={q.error} onRetry={() => void q.refetch()} inline />;
  }
  return <ReviewReport report={q.data.report} />;
}
