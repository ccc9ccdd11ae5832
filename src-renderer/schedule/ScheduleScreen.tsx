import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ScheduleJobView } from '../../src-main/api/schedule';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { formatCost } from '../tasks/model';
import { HistoryTable } from './HistoryTable';
import { ReplayPanel, type ReplayRequest } from './ReplayPanel';
import { budgetLine, cronInWords, jobState, localTime, runStatusLabel } from './model';
import './schedule.css';

/** The PM's own clock, to say when a run is in their time as well as the schedule's zone. */
const browserZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
})();

/**
 * The scheduled jobs with their next run in the configured time zone, Pause / Resume and Run now,
 * and the history of every run. `schedule/changed` events keep it current (see live.ts).
 */
export function ScheduleScreen() {
  const info = screenInfo.schedule;
  const list = useProcedure('schedule/list', {}, { staleTime: 30_000 });
  // A new object per press, so replaying the same run twice runs it twice.
  const [replay, setReplay] = useState<ReplayRequest | null>(null);
  return (
    <section className="screen screen-scroll schedule-screen" data-testid="screen-schedule" aria-labelledby="title-schedule">
      <header className="screen-header">
        <h1 id="title-schedule">{info.label}</h1>
        <p className="screen-purpose">{info.purpose}</p>
      </header>
      {list.isPending && <p className="muted">Loading the schedule…</p>}
      {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && (
        <>
          <p className="schedule-zone" data-testid="schedule-zone">
            Times are in <strong>{list.data.timeZone}</strong>
            {browserZone && browserZone !== list.data.timeZone ? ` (your computer is on ${browserZone})` : ''}. Change the zone in{' '}
            <a href="#/settings">Settings</a>. Runs missed while Forge was closed or the computer slept are caught up once on start.
          </p>
          {list.data.timeZoneNote && (
            <p className="proposal-note schedule-note" role="status">
              {list.data.timeZoneNote}
            </p>
          )}
          <ul className="schedule-jobs" aria-label="Scheduled jobs">
            {list.data.jobs.map((job) => (
              <li key={job.job}>
                <JobCard job={job} />
              </li>
            ))}
          </ul>
          <ReplayPanel request={replay} today={new Date().toISOString().slice(0, 10)} />
          <HistoryTable jobs={list.data.jobs} onReplay={(runId) => setReplay({ runId })} />
        </>
      )}
    </section>
  );
}

function JobCard(props: { job: ScheduleJobView }) {
  const { job } = props;
  const queryClient = useQueryClient();
  const pause = useProcedureMutation('schedule/pause');
  const resume = useProcedureMutation('schedule/resume');
  const runNow = useProcedureMutation('schedule/run-now');
  const [started, setStarted] = useState<string | null>(null);
  const busy = pause.isPending || resume.isPending || runNow.isPending;
  const state = jobState(job);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['schedule/list'] });
    void queryClient.invalidateQueries({ queryKey: ['schedule/history'] });
  };
  // One message at a time: a new action clears what the last one said.
  const clear = () => {
    pause.reset();
    resume.reset();
    runNow.reset();
    setStarted(null);
  };
  const error = pause.error ?? resume.error ?? runNow.error;
  const last = job.lastRun;
  return (
    <article className="card schedule-job" data-testid="schedule-job" data-job={job.job} aria-labelledby={`job-${job.job}`}>
      <div className="schedule-job-head">
        <h2 id={`job-${job.job}`}>{job.title}</h2>
        <span className={`chip schedule-state is-${state.tone}`} data-testid="schedule-state">
          {state.label}
        </span>
      </div>
      <p className="hint schedule-job-description">{job.description}</p>
      <dl className="facts schedule-facts">
        <dt>When</dt>
        <dd data-testid="schedule-when" title={`cron ${job.cron}, in ${job.timeZone}`}>
          {cronInWords(job.cron)}
        </dd>
        <dt>Next run</dt>
        <dd data-testid="schedule-next">
          {job.paused ? (
            <span className="muted">none while paused</span>
          ) : (
            <>
              {job.nextRunLocal ?? localTime(job.nextRun, job.timeZone)}
              {browserZone && browserZone !== job.timeZone && job.nextRun && <span className="muted"> · your time {localTime(job.nextRun)}</span>}
            </>
          )}
        </dd>
        <dt>Last run</dt>
        <dd data-testid="schedule-last">
          {last ? (
            <>
              <span className={`run-status is-${last.status}`}>{runStatusLabel[last.status]}</span> {localTime(last.startedAt, job.timeZone)} ·{' '}
              {formatCost(last.costUsd)}
              {last.error && <span className="schedule-last-error"> — {last.error}</span>}
            </>
          ) : (
            <span className="muted">never run</span>
          )}
        </dd>
        <dt>Budget</dt>
        <dd>{budgetLine(job.budget)}</dd>
      </dl>
      <div className="schedule-actions">
        {job.paused ? (
          <button
            type="button"
            className="button"
            data-testid="schedule-resume"
            disabled={busy}
            onClick={() => {
              clear();
              resume.mutate({ job: job.job }, { onSettled: refresh });
            }}
          >
            {resume.isPending ? 'Resuming…' : 'Resume'}
          </button>
        ) : (
          <button
            type="button"
            className="button"
            data-testid="schedule-pause"
            disabled={busy}
            onClick={() => {
              clear();
              pause.mutate({ job: job.job }, { onSettled: refresh });
            }}
          >
            {pause.isPending ? 'Pausing…' : 'Pause'}
          </button>
        )}
        <button
          type="button"
          className="button primary"
          data-testid="schedule-run-now"
          disabled={busy || job.running}
          title={job.running ? 'It is running now' : job.paused ? 'Runs once now; the schedule stays paused' : undefined}
          onClick={() => {
            clear();
            runNow.mutate(
              { job: job.job },
              {
                onSuccess: (r) => setStarted(`Started at ${localTime(r.run.startedAt, job.timeZone)}; it appears in the history below.`),
                onSettled: refresh,
              },
            );
          }}
        >
          {runNow.isPending ? 'Starting…' : job.running ? 'Running…' : 'Run now'}
        </button>
        {started && !error && (
          <span className="muted" role="status">
            {started}
          </span>
        )}
      </div>
      {error && <ErrorPanel error={error} inline />}
    </article>
  );
}
