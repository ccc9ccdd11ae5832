import { useEffect, useRef, useState } from 'react';
import type { ScheduleReplayView } from '../../src-main/api/schedule';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { ReviewReport } from '../reports';
import { replayOutcomeLine, replayRequestLabel } from './model';

/** What the PM asked to replay: a morning by its date, or a morning review run from the history. */
export type ReplayRequest = { date: string } | { runId: number };

/**
 * Issue 29 §4: re-runs a past morning review as of its date and shows it in three columns — the
 * replay (labelled REPLAY: nothing in it reached live memory), what was said that morning, and
 * what happened since. A run's Replay button in the history fills `request`.
 */
export function ReplayPanel(props: { request: ReplayRequest | null; today: string }) {
  const replay = useProcedureMutation('schedule/replay');
  const [date, setDate] = useState('');
  const { mutate } = replay;
  const panel = useRef<HTMLElement>(null);
  // A Replay pressed in the history starts at once (and brings the panel into view); the date picker waits for its button.
  useEffect(() => {
    if (!props.request) return;
    mutate(props.request);
    panel.current?.scrollIntoView?.({ block: 'start' });
  }, [props.request, mutate]);
  const start = () => {
    if (date) replay.mutate({ date });
  };
  const asked = replay.variables;
  return (
    <section ref={panel} className="card schedule-replay" aria-labelledby="schedule-replay-title" data-testid="schedule-replay">
      <div className="schedule-history-head">
        <h2 id="schedule-replay-title">Replay a past morning</h2>
        <label className="schedule-filter">
          Morning of <input type="date" value={date} max={props.today} onChange={(e) => setDate(e.target.value)} data-testid="schedule-replay-date" />
        </label>
        <button type="button" className="button small" disabled={!date || replay.isPending} onClick={start} data-testid="schedule-replay-start">
          Replay
        </button>
      </div>
      <p className="hint">
        Re-runs that morning's review as of then: memory at its versions of that day, data and news up to it, FRED vintages where a key is set. It runs in a
        scratch copy — nothing it writes reaches your memory.
      </p>
      {replay.isPending && asked && (
        <p className="muted" role="status">
          Replaying {replayRequestLabel(asked)}… (the analyst is running; this can take a few minutes)
        </p>
      )}
      {replay.isError && <ErrorPanel error={replay.error} onRetry={asked ? () => replay.mutate(asked) : undefined} />}
      {replay.data && <ReplayColumns replay={replay.data.replay} />}
    </section>
  );
}

export function ReplayColumns(props: { replay: ScheduleReplayView }) {
  const r = props.replay;
  return (
    <div data-testid="schedule-replay-result">
      <p className="schedule-replay-banner" role="status" data-testid="schedule-replay-label">
        <strong>{r.label}</strong> of the morning of {r.date} — memory as of {r.cutoff.slice(0, 16).replace('T', ' ')} UTC. Not written to memory.
      </p>
      <ul className="schedule-replay-notes">
        {r.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
      <div className="schedule-replay-columns">
        <div className="schedule-replay-column" data-testid="schedule-replay-column-replay">
          <h3>
            <span className="chip schedule-replay-chip">REPLAY</span> Said now, as of then
          </h3>
          {r.replay.error ? <p className="schedule-run-error">{r.replay.error}</p> : <ReviewReport report={r.replay.report} />}
          {r.replay.toolCalls.some((c) => c.refusedAsOf) && (
            <p className="hint">
              Refused as after {r.date}:{' '}
              {r.replay.toolCalls
                .filter((c) => c.refusedAsOf)
                .map((c) => c.result)
                .join('; ')}
            </p>
          )}
        </div>
        <div className="schedule-replay-column" data-testid="schedule-replay-column-original">
          <h3>Said that morning</h3>
          {r.original ? <ReviewReport report={r.original.report} /> : <p className="muted">No morning review report was saved that day.</p>}
        </div>
        <div className="schedule-replay-column" data-testid="schedule-replay-column-since">
          <h3>What happened since</h3>
          {r.since.outcomes.length === 0 && r.since.fired.length === 0 && <p className="muted">No Outcome and no fired invalidation condition since.</p>}
          {r.since.outcomes.length > 0 && (
            <ul aria-label="Outcomes since">
              {r.since.outcomes.map((o) => (
                <li key={o.id}>
                  {o.id} on <a href={`#/expressions/${o.expression}`}>{o.expression}</a>: {replayOutcomeLine(o)}
                </li>
              ))}
            </ul>
          )}
          {r.since.fired.length > 0 && (
            <ul aria-label="Invalidation conditions fired since">
              {r.since.fired.map((f) => (
                <li key={`${f.runId}-${f.viewId}-${f.text}`}>
                  {f.reportedAt.slice(0, 10)} · {f.viewId}: {f.text}
                  {f.matched ? '' : ' (not one of the View’s own conditions)'}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}
