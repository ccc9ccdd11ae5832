import { Fragment, useState } from 'react';
import type { ScheduleJobView, ScheduleRunView } from '../../src-main/api/schedule';
import { useClient, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { RunReviewReport } from '../reports';
import { formatCost, formatDuration } from '../tasks/model';
import { localTime, runStatusLabel, triggerLabel } from './model';

const PAGE = 50;

/**
 * Every run, newest first: which job, why it ran (on time, caught up, Run now), the slot it was
 * for, how it ended, the session it started, its cost and what it found or why it failed.
 */
export function HistoryTable(props: { jobs: ScheduleJobView[]; onReplay?: (runId: number) => void }) {
  const client = useClient();
  const [job, setJob] = useState<ScheduleJobView['job'] | ''>('');
  // The morning review whose structured report (what moved, which invalidation conditions fired) is open.
  const [openReport, setOpenReport] = useState<number | null>(null);
  const input = job ? { job, limit: PAGE } : { limit: PAGE };
  const history = useProcedure('schedule/history', input, { staleTime: 10_000 });
  // Older pages, fetched on request and kept until the filter changes.
  const [older, setOlder] = useState<{ key: string; runs: ScheduleRunView[]; done: boolean }>({ key: '', runs: [], done: false });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<unknown>(null);
  const key = job || 'all';
  const olderRuns = older.key === key ? older.runs : [];
  // A refetch after new runs shifts the first page; an older page may then repeat a run.
  const seen = new Set<number>();
  const runs = [...(history.data?.runs ?? []), ...olderRuns].filter((r) => !seen.has(r.id) && seen.add(r.id));
  const exhausted = (history.data && history.data.runs.length < PAGE) || (older.key === key && older.done);
  const titleOf = new Map(props.jobs.map((j) => [j.job, j.title]));
  const zone = props.jobs[0]?.timeZone;

  const loadMore = async () => {
    const last = runs[runs.length - 1];
    if (!last) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const r = await client.call('schedule/history', { ...input, before: last.id });
      setOlder({ key, runs: [...olderRuns, ...r.runs], done: r.runs.length < PAGE });
    } catch (e) {
      setMoreError(e);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="card schedule-history" aria-labelledby="schedule-history-title" data-testid="schedule-history">
      <div className="schedule-history-head">
        <h2 id="schedule-history-title">History</h2>
        <label className="schedule-filter">
          Job{' '}
          <select value={job} onChange={(e) => setJob(e.target.value as ScheduleJobView['job'] | '')} data-testid="schedule-history-job">
            <option value="">All jobs</option>
            {props.jobs.map((j) => (
              <option key={j.job} value={j.job}>
                {j.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      {history.isPending && <p className="muted">Loading runs…</p>}
      {history.isError && <ErrorPanel error={history.error} onRetry={() => void history.refetch()} />}
      {history.data && runs.length === 0 && <p className="muted">No runs yet{job ? ' for this job' : ''}. Run now starts one at once.</p>}
      {runs.length > 0 && (
        <div className="schedule-table-wrap">
          <table className="schedule-table">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Trigger</th>
                <th scope="col">Scheduled for</th>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Session</th>
                <th scope="col" className="num">
                  Cost
                </th>
                <th scope="col">Summary or error</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <Fragment key={r.id}>
                  <tr data-testid="schedule-run" data-status={r.status} data-trigger={r.trigger}>
                    <td>{titleOf.get(r.job) ?? r.job}</td>
                    <td>{triggerLabel[r.trigger]}</td>
                    <td>{r.scheduledFor ? localTime(r.scheduledFor, zone) : <span className="muted">—</span>}</td>
                    <td>
                      {localTime(r.startedAt, zone)}
                      {r.durationMs !== null && <div className="muted">{formatDuration(r.durationMs)}</div>}
                    </td>
                    <td>
                      <span className={`run-status is-${r.status}`}>{runStatusLabel[r.status]}</span>
                    </td>
                    <td>{r.sessionId ? <code title="Open it from the Chat screen's history">{r.sessionId}</code> : <span className="muted">—</span>}</td>
                    <td className="num">{formatCost(r.costUsd)}</td>
                    <td className={r.error ? 'schedule-run-error' : undefined}>
                      {r.error ?? r.summary ?? <span className="muted">—</span>}
                      {r.job === 'morning_review' && r.status === 'ok' && (
                        <div>
                          <button
                            type="button"
                            className="button small"
                            aria-expanded={openReport === r.id}
                            onClick={() => setOpenReport(openReport === r.id ? null : r.id)}
                          >
                            {openReport === r.id ? 'Hide report' : 'What changed'}
                          </button>
                          {props.onReplay && (
                            <button
                              type="button"
                              className="button small"
                              title="Re-run this morning as of its date, beside what was said and what happened since"
                              onClick={() => props.onReplay?.(r.id)}
                              data-testid="schedule-run-replay"
                            >
                              Replay
                            </button>
                          )}
                        </div>
                      )}
                    </td>
                  </tr>
                  {openReport === r.id && (
                    <tr data-testid="schedule-run-report">
                      <td colSpan={8}>
                        <RunReviewReport runId={r.id} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {moreError !== null && <ErrorPanel error={moreError} inline />}
      {runs.length > 0 && !exhausted && (
        <button type="button" className="button small" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Show older runs'}
        </button>
      )}
    </section>
  );
}
