import { type FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BuildDetail, BuildSummary } from '../../src-main/api/builds';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { handleBuildChanged } from './live';
import { clock, controlsFor } from './model';

/** What each STOP code means, in the words of someone who has to answer it. */
const stopCodeHint: Record<NonNullable<BuildDetail['stop']>['code'], string> = {
  EVIDENCE_MISSING: 'The builder lacks evidence it needs (a file, a version, a fact) and will not guess.',
  AMBIGUOUS_INTENT: 'The contracts can be read more than one way; say which you mean.',
  CONTRACT_CONFLICT: 'Two contracts disagree; say which one wins.',
  RISK_EXCEEDS_SCOPE: 'The next step reaches beyond what this phase allows; confirm or narrow it.',
  NON_DETERMINISTIC_BEHAVIOR: 'Something behaves differently from run to run; tell it how to proceed.',
  ENVIRONMENT_LIMITATION: 'The environment lacks something (a program, access, a permission).',
};

/** Pause / Resume / Stop (Stop asks first), and the answer to a STOP code when the builder waits for one. */
export function BuildControls(props: { build: BuildSummary; stop: BuildDetail['stop'] }) {
  const queryClient = useQueryClient();
  const ref = { id: props.build.id };
  const pause = useProcedureMutation('builds/pause');
  const resume = useProcedureMutation('builds/resume');
  const stop = useProcedureMutation('builds/stop');
  const answer = useProcedureMutation('builds/answer');
  const [confirmStop, setConfirmStop] = useState(false);
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);
  const can = controlsFor(props.build.status);
  const busy = pause.isPending || resume.isPending || stop.isPending || answer.isPending;
  const done = { onSuccess: (r: { build: BuildSummary }) => handleBuildChanged(queryClient, r.build) };
  const actionError = pause.error ?? resume.error ?? stop.error ?? answer.error;

  const onAnswer = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setEmpty(true);
      return;
    }
    answer.mutate(
      { ...ref, answer: text.trim() },
      {
        onSuccess: (r) => {
          setText('');
          handleBuildChanged(queryClient, r.build);
        },
      },
    );
  };

  return (
    <div className="build-controls-wrap">
      <div className="build-controls" role="group" aria-label="Build controls">
        <button type="button" className="button" data-testid="build-pause" disabled={!can.pause || busy} onClick={() => pause.mutate(ref, done)}>
          {pause.isPending ? 'Pausing…' : 'Pause'}
        </button>
        <button
          type="button"
          className={can.resume ? 'button primary' : 'button'}
          data-testid="build-resume"
          disabled={!can.resume || busy}
          onClick={() => resume.mutate(ref, done)}
        >
          {resume.isPending ? 'Resuming…' : 'Resume'}
        </button>
        {!confirmStop ? (
          <button type="button" className="button danger" data-testid="build-stop" disabled={!can.stop || busy} onClick={() => setConfirmStop(true)}>
            Stop…
          </button>
        ) : (
          <span className="build-confirm" role="alert" data-testid="build-stop-confirm-box">
            Stop this build for good? It cannot be resumed afterwards.
            <button
              type="button"
              className="button danger small"
              data-testid="build-stop-confirm"
              disabled={busy}
              onClick={() =>
                stop.mutate(ref, {
                  onSuccess: (r) => {
                    setConfirmStop(false);
                    handleBuildChanged(queryClient, r.build);
                  },
                })
              }
            >
              {stop.isPending ? 'Stopping…' : 'Stop build'}
            </button>
            <button type="button" className="button small" data-testid="build-stop-cancel" onClick={() => setConfirmStop(false)}>
              Keep it
            </button>
          </span>
        )}
      </div>
      {actionError && <ErrorPanel error={actionError} inline testId="build-action-error" />}
      {can.answer && props.stop && (
        <form className="build-stop-form" onSubmit={onAnswer} noValidate aria-labelledby="build-stop-title" data-testid="build-stop-form">
          <h2 id="build-stop-title">
            The builder stopped: <code data-testid="build-stop-code">{props.stop.code}</code>
          </h2>
          <p className="hint">
            {stopCodeHint[props.stop.code]} Asked at {clock(props.stop.at)}.
          </p>
          <blockquote className="build-stop-reason" data-testid="build-stop-reason">
            {props.stop.reason || 'No reason was given.'}
          </blockquote>
          <label htmlFor="build-answer">Your answer</label>
          <textarea
            id="build-answer"
            data-testid="build-answer"
            rows={4}
            maxLength={8000}
            value={text}
            aria-invalid={empty ? true : undefined}
            aria-describedby={empty ? 'build-answer-error' : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setEmpty(false);
            }}
          />
          {empty && (
            <p className="field-error" id="build-answer-error">
              Write an answer for the builder first.
            </p>
          )}
          <div className="form-actions static">
            <button type="submit" className="button primary" data-testid="build-answer-send" disabled={answer.isPending}>
              {answer.isPending ? 'Sending…' : 'Answer and resume'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
