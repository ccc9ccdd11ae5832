import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TaskView } from '../../src-main/api/tasks';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { Icon } from '../app/Icon';
import { Markdown } from '../markdown';
import { handleTaskEvent } from './live';
import { canRetry, failureLabel, formatCost, formatDuration, formatTokens, isLive, statusLabel, verdictLabel } from './model';
import { ErrorPanel } from '../app/ErrorPanel';

/** One task in full: what it was asked, where it stands, its validation, its output and its event trail. */
export function TaskDetail(props: { sessionId: string; id: string; onClose: () => void; onOpen: (t: { sessionId: string; id: string }) => void }) {
  const queryClient = useQueryClient();
  const ref = { sessionId: props.sessionId, id: props.id };
  const got = useProcedure('tasks/get', ref);
  const cancel = useProcedureMutation('tasks/cancel');
  const retry = useProcedureMutation('tasks/retry');
  const [feedback, setFeedback] = useState('');
  const [askFeedback, setAskFeedback] = useState(false);
  const task = got.data?.task ?? null;

  const doCancel = () => cancel.mutate(ref, { onSuccess: (r) => handleTaskEvent(queryClient, r.task) });
  const doRetry = () =>
    retry.mutate(
      { ...ref, ...(feedback.trim() ? { feedback: feedback.trim() } : {}) },
      {
        onSuccess: (r) => {
          handleTaskEvent(queryClient, r.task);
          setAskFeedback(false);
          setFeedback('');
          props.onOpen({ sessionId: r.task.sessionId, id: r.task.id });
        },
      },
    );
  const actionError = cancel.error ?? retry.error;

  return (
    <article className="record-view" data-testid="task-detail" aria-label={`Task ${props.id}`}>
      <div className="record-toolbar">
        <code className="record-path">
          {props.sessionId} / {props.id}
        </code>
        <button type="button" className="icon-button" aria-label="Close task" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <div className="record-scroll">
        {got.isPending && <p className="muted pad">Opening…</p>}
        {got.isError && <ErrorPanel error={got.error} />}
        {task && (
          <div className="pad">
            <header className="record-head">
              <div className="record-id">{task.id}</div>
              <h1 className="record-title">{task.objective}</h1>
              <div className="record-chips">
                <span className={`task-status is-${task.status}`} data-testid="task-status">
                  {statusLabel[task.status]}
                </span>
                <span className="chip">skill {task.skill}</span>
                {task.retryOf && (
                  <button type="button" className="chip link" onClick={() => props.onOpen({ sessionId: task.sessionId, id: task.retryOf! })}>
                    retry of {task.retryOf}
                  </button>
                )}
              </div>
              <div className="task-actions">
                {isLive(task) && (
                  <button type="button" className="button danger" data-testid="task-cancel" disabled={cancel.isPending} onClick={doCancel}>
                    {cancel.isPending ? 'Cancelling…' : 'Cancel task'}
                  </button>
                )}
                {canRetry(task) && !askFeedback && (
                  <>
                    <button type="button" className="button primary" data-testid="task-retry" disabled={retry.isPending} onClick={doRetry}>
                      {retry.isPending ? 'Retrying…' : 'Retry'}
                    </button>
                    <button type="button" className="button" onClick={() => setAskFeedback(true)}>
                      Retry with a note…
                    </button>
                  </>
                )}
              </div>
              {canRetry(task) && askFeedback && (
                <form
                  className="task-retry-form"
                  onSubmit={(e) => {
                    e.preventDefault();
                    doRetry();
                  }}
                >
                  <label htmlFor="retry-feedback">What should the sub-agent do differently?</label>
                  <textarea
                    id="retry-feedback"
                    rows={3}
                    maxLength={8000}
                    value={feedback}
                    onChange={(e) => setFeedback(e.target.value)}
                    // biome-ignore lint/a11y/noAutofocus: the control appears only because the user just asked for it, so focus follows their action.
                    autoFocus
                  />
                  <div className="form-actions static">
                    <button type="submit" className="button primary" disabled={retry.isPending}>
                      {retry.isPending ? 'Retrying…' : 'Retry with this note'}
                    </button>
                    <button type="button" className="button" onClick={() => setAskFeedback(false)}>
                      Never mind
                    </button>
                  </div>
                </form>
              )}
              {actionError && <ErrorPanel error={actionError} />}
            </header>
            {task.status === 'failed' && (
              <div className="task-failure" role="status" data-testid="task-failure">
                <strong>Failed{task.failure ? `: ${failureLabel[task.failure]}` : ''}.</strong> {task.error ?? 'No reason was recorded.'}
              </div>
            )}
            <Facts task={task} onOpen={props.onOpen} />
            {task.validation && <Validation v={task.validation} />}
            <Output task={task} fallback={got.data?.output ?? null} />
          </div>
        )}
        {task && (
          <section className="record-history" aria-labelledby="task-events-title">
            <h2 id="task-events-title">
              <Icon name="history" size={16} /> What happened
            </h2>
            {got.data && got.data.events.length === 0 && <p className="muted">No events recorded yet.</p>}
            {got.data && got.data.events.length > 0 && (
              <ol className="audit" data-testid="task-events">
                {got.data.events.map((e) => (
                  <li key={e.seq}>
                    <span title={e.at}>{new Date(e.at).toLocaleTimeString()}</span>
                    <span className="audit-actor">{e.kind}</span>
                    <span className="audit-op">{e.detail}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        )}
      </div>
    </article>
  );
}

function Facts({ task, onOpen }: { task: TaskView; onOpen: (t: { sessionId: string; id: string }) => void }) {
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
  return (
    <dl className="facts record-facts" data-testid="task-facts">
      <div className="fact">
        <dt>depends on</dt>
        <dd>
          {task.dependsOn.length === 0
            ? 'nothing'
            : task.dependsOn.map((d) => (
                <button key={d} type="button" className="chip link" onClick={() => onOpen({ sessionId: task.sessionId, id: d })}>
                  {d}
                </button>
              ))}
        </dd>
      </div>
      {task.context.length > 0 && (
        <div className="fact">
          <dt>context</dt>
          <dd>{task.context.join(', ')}</dd>
        </div>
      )}
      {task.notes && (
        <div className="fact">
          <dt>notes</dt>
          <dd>{task.notes}</dd>
        </div>
      )}
      <div className="fact">
        <dt>dispatched</dt>
        <dd>{when(task.createdAt)}</dd>
      </div>
      <div className="fact">
        <dt>started</dt>
        <dd>{when(task.startedAt)}</dd>
      </div>
      <div className="fact">
        <dt>finished</dt>
        <dd>{when(task.finishedAt)}</dd>
      </div>
      <div className="fact">
        <dt>duration</dt>
        <dd>{formatDuration(task.durationMs)}</dd>
      </div>
      <div className="fact">
        <dt>steps</dt>
        <dd>{task.rounds}</dd>
      </div>
      <div className="fact">
        <dt>tokens</dt>
        <dd>
          {formatTokens(task.inputTokens)} in · {formatTokens(task.outputTokens)} out
        </dd>
      </div>
      <div className="fact">
        <dt>cost</dt>
        <dd>{formatCost(task.costUsd)}</dd>
      </div>
      <div className="fact">
        <dt>validation</dt>
        <dd>
          {task.validate || task.validateContrastive
            ? [task.validate && 'standard', task.validateContrastive && 'contrastive'].filter(Boolean).join(' + ')
            : 'not asked for'}
        </dd>
      </div>
    </dl>
  );
}

function Validation({ v }: { v: NonNullable<TaskView['validation']> }) {
  return (
    <section className={`task-validation verdict-${v.verdict}`} data-testid="task-validation" aria-label="Validation">
      <h2>
        {v.contrastive ? 'Contrastive check' : 'Validation'}: {verdictLabel[v.verdict]}
      </h2>
      {v.feedback && <p>{v.feedback}</p>}
      {v.counterargument && (
        <p>
          <strong>Strongest counterargument:</strong> {v.counterargument}
        </p>
      )}
    </section>
  );
}

/** The full output, read at full depth from its /session/ path; the copy tasks/get returned if that read fails. */
function Output({ task, fallback }: { task: TaskView; fallback: string | null }) {
  const read = useProcedure('memory/read', { path: task.resultPath ?? '', depth: 'full' }, { enabled: Boolean(task.resultPath), retry: false });
  const text = read.data?.content ?? (read.isError || !task.resultPath ? fallback : null);
  return (
    <section className="task-output" data-testid="task-output" aria-labelledby="task-output-title">
      <h2 id="task-output-title">Output</h2>
      {task.summary && !text && <p>{task.summary}</p>}
      {task.resultPath && read.isPending && <p className="muted">Opening {task.resultPath}…</p>}
      {text ? (
        <Markdown source={text} />
      ) : !task.resultPath || read.isError ? (
        <p className="muted">{isLive(task) ? 'The full output appears here when the sub-agent finishes.' : 'This task left no output.'}</p>
      ) : null}
      {task.resultPath && <code className="task-result-path">{task.resultPath}</code>}
    </section>
  );
}
