import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProposalDetail as ProposalDetailView } from '../../src-main/api/proposals';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { inputLimits, TextArea } from '../app/TextField';
import { Icon } from '../app/Icon';
import { formatHash } from '../app/routes';
import { languageFor, skillRoute } from '../skills/model';
import { CitedPk } from './CitedPk';
import { DiffViewer } from './DiffViewer';
import { decisionLine, diffOf, formatWhen, rejectReasonError, statusLabel, targetLabel } from './model';

/** What an approval or rejection makes stale besides the proposal itself. */
const decidedKeys = ['proposals/list', 'skills/versions', 'skills/read', 'skills/list'];

/** One proposal: what it changes (the diff), why (rationale and cited PK), and the PM's decision. */
export function ProposalDetail(props: { id: string; onClose: () => void }) {
  const detail = useProcedure('proposals/get', { id: props.id }, { staleTime: 5_000 });
  return (
    <article className="record-view proposal-detail" data-testid="proposal-detail" data-id={props.id} aria-label={`Proposal ${props.id}`}>
      <div className="record-toolbar">
        <code className="record-path">/memory/proposals/{props.id}.md</code>
        <button type="button" className="icon-button" aria-label="Close proposal" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      {detail.isPending && <p className="muted pad">Opening {props.id}…</p>}
      {detail.isError && <ErrorPanel error={detail.error} onRetry={() => void detail.refetch()} />}
      {detail.data && <DetailBody view={detail.data} />}
    </article>
  );
}

function DetailBody(props: { view: ProposalDetailView }) {
  const { proposal: p } = props.view;
  // Kept here, not in the decision form: a refused approval (e.g. a stale proposal rejected
  // automatically) re-reads the record, the form goes away with "pending", and the reason must stay.
  const [failure, setFailure] = useState<unknown>(null);
  const decision = decisionLine(p);
  const pending = p.status === 'pending';
  const diff = diffOf(props.view);
  return (
    <div className="proposal-scroll">
      <header className="proposal-head">
        <div className="proposal-head-line">
          <span className="record-id">{p.id}</span>
          <span className={`chip status-${p.status}`} data-testid="proposal-status">
            {statusLabel(p.status)}
          </span>
        </div>
        <h1 className="record-title">{p.title}</h1>
        <dl className="facts proposal-facts">
          <dt>Edits</dt>
          <dd>
            <code>{targetLabel(p)}</code>
          </dd>
          <dt>Proposed</dt>
          <dd>
            {formatWhen(p.createdAt)}
            {p.model ? ` by ${p.model}` : ''}
          </dd>
        </dl>
        {decision && (
          <p className={`proposal-decision is-${p.status}`} data-testid="proposal-decision">
            {decision}
            {p.status === 'approved' && p.skill && (
              <>
                {' '}
                <a
                  href={formatHash({ screen: 'skills', rest: skillRoute({ name: p.skill, path: p.targetFile ?? undefined }) })}
                  data-testid="proposal-open-skill"
                >
                  Open {targetLabel(p)}
                </a>
              </>
            )}
          </p>
        )}
      </header>
      {p.problems.length > 0 && (
        <div className="error-panel" role="alert" data-testid="proposal-problems">
          <strong>This record is not a proposal Forge can apply.</strong>
          <ul>
            {p.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {pending && props.view.fileChanged && (
        <p className="proposal-note" role="status" data-testid="proposal-file-changed">
          {p.targetFile ?? 'The file'} changed since this was proposed. The quoted text is still there, so the edit can still be applied; the diff below is
          against the file as it is now.
        </p>
      )}
      {pending && p.problems.length === 0 && props.view.proposedText === null && (
        <p className="proposal-note" role="status">
          The quoted text is no longer in {p.targetFile ?? 'the file'}, so this proposal cannot be applied. Approving it will record it as rejected
          automatically.
        </p>
      )}
      <section className="proposal-rationale" aria-labelledby="proposal-rationale-title">
        <h2 id="proposal-rationale-title">Why</h2>
        <p>{p.rationale || <span className="muted">No rationale was given.</span>}</p>
        {p.claim && (
          <p className="muted">
            Lesson: {p.direction === 'against' ? 'against' : 'for'} <code>{p.claim}</code>
          </p>
        )}
      </section>
      {diff ? (
        <section className="proposal-diff" aria-label={diff.heading}>
          <h2>{diff.heading}</h2>
          <DiffViewer
            original={diff.original}
            modified={diff.modified}
            language={languageFor(p.targetFile ?? '')}
            label={targetLabel(p)}
            rows={diff.whole ? undefined : screenRows(diff.original, diff.modified)}
          />
        </section>
      ) : (
        <p className="muted">There is no text to compare.</p>
      )}
      <CitedPk entries={props.view.citedPk} corroborating={p.corroborating} />
      {pending && <Decision view={props.view} onFailure={setFailure} />}
      {failure !== null && <ErrorPanel error={failure} testId="proposal-error" />}
    </div>
  );
}

/** About how many wrapped rows the longer side of a short passage takes (a column holds ~50 characters). */
function screenRows(a: string, b: string): number {
  const rows = (t: string) => t.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 50)), 0);
  return Math.max(3, rows(a), rows(b)) + 1;
}

/** Approve (after a confirmation) or Reject (with a required reason). */
function Decision(props: { view: ProposalDetailView; onFailure: (error: unknown) => void }) {
  const { proposal: p, recordHash } = props.view;
  const queryClient = useQueryClient();
  const approve = useProcedureMutation('proposals/approve');
  const reject = useProcedureMutation('proposals/reject');
  const [mode, setMode] = useState<'idle' | 'confirm' | 'reject'>('idle');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const busy = approve.isPending || reject.isPending;

  const settle = (next?: ProposalDetailView, error?: unknown) => {
    props.onFailure(error ?? null);
    if (next) queryClient.setQueryData(procedureKey('proposals/get', { id: p.id }), next);
    // A refusal (stale, decided elsewhere) changed the record too: read it again to show why.
    else void queryClient.invalidateQueries({ queryKey: procedureKey('proposals/get', { id: p.id }) });
    for (const key of decidedKeys) void queryClient.invalidateQueries({ queryKey: [key] });
  };

  const doApprove = () =>
    approve.mutate(
      { id: p.id, expectHash: recordHash },
      { onSuccess: (next) => settle(next), onError: (e) => settle(undefined, e), onSettled: () => setMode('idle') },
    );

  const doReject = () => {
    const problem = rejectReasonError(reason);
    setReasonError(problem);
    if (problem) return;
    reject.mutate({ id: p.id, reason: reason.trim() }, { onSuccess: (next) => settle(next), onError: (e) => settle(undefined, e) });
  };

  return (
    <section className="proposal-decide" aria-label="Your decision" data-testid="proposal-decide">
      <p className="proposal-decide-note">
        Nothing changes in a skill until you approve. Approving keeps the current text as an earlier version you can restore.
      </p>
      {mode === 'idle' && (
        <div className="proposal-actions">
          <button type="button" className="button primary" data-testid="proposal-approve" disabled={busy} onClick={() => setMode('confirm')}>
            Approve…
          </button>
          <button type="button" className="button danger" data-testid="proposal-reject" disabled={busy} onClick={() => setMode('reject')}>
            Reject…
          </button>
        </div>
      )}
      {mode === 'confirm' && (
        <div className="proposal-confirm" role="group" aria-label="Confirm the approval">
          <p>
            Apply this edit to <code>{targetLabel(p)}</code> now? The skill is reloaded and the analyst uses the new text from its next task.
          </p>
          <div className="proposal-actions">
            <button
              type="button"
              className="button primary"
              data-testid="proposal-approve-confirm"
              disabled={busy}
              onClick={doApprove}
              // biome-ignore lint/a11y/noAutofocus: the confirmation appears only because the PM just asked for it, so focus follows their action.
              autoFocus
            >
              {approve.isPending ? 'Applying…' : `Approve ${p.id}`}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setMode('idle')}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {mode === 'reject' && (
        <form
          className="proposal-reject-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            doReject();
          }}
        >
          <label htmlFor={`reject-${p.id}`}>Why are you rejecting {p.id}?</label>
          <TextArea
            label="The reason"
            limit={inputLimits.proposalReason}
            id={`reject-${p.id}`}
            data-testid="proposal-reject-reason"
            rows={3}
            value={reason}
            aria-invalid={Boolean(reasonError)}
            aria-describedby={reasonError ? `reject-${p.id}-error` : `reject-${p.id}-hint`}
            onChange={(value) => {
              setReason(value);
              if (reasonError) setReasonError(null);
            }}
            placeholder="e.g. The lesson is about FOMC weeks only; the rule as written would halve every ECB trade too"
            // Autofocus: the field appears only because the PM just asked to reject, so focus follows their action.
            autoFocus
            onKeyDown={(e) => {
              if (e.key === 'Escape') setMode('idle');
            }}
          />
          {reasonError ? (
            <p className="field-error" id={`reject-${p.id}-error`} data-testid="proposal-reject-error">
              {reasonError}
            </p>
          ) : (
            <p className="hint" id={`reject-${p.id}-hint`}>
              The reason is kept with the proposal; the skill file is left as it is.
            </p>
          )}
          <div className="proposal-actions">
            <button type="submit" className="button danger" data-testid="proposal-reject-confirm" disabled={busy}>
              {reject.isPending ? 'Rejecting…' : `Reject ${p.id}`}
            </button>
            <button type="button" className="button" onClick={() => setMode('idle')} disabled={busy}>
              Keep it pending
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
