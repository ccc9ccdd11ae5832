import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { useProcedureMutation } from '../api/hooks';
import { cleanReason, decisionBanner, overBy, ruleLabel, withUnit, type Violation } from './approval';
import './approval.css';
import { ErrorPanel } from '../app/ErrorPanel';

/** What memory screens show; all of it is stale once the PM approves or rejects. */
const memoryKeys = ['memory/list', 'memory/read', 'memory/history', 'memory/audit', 'memory/search'];

/**
 * The PM's decision on a proposed Expression: Approve (the guardrails run again now and may
 * refuse, showing rule, actual value and limit) or Reject with a reason (a Counterfactual then
 * tracks what declining cost or saved).
 */
export function ApprovalPanel(props: {
  id: string;
  status: string;
  proposedBy?: unknown;
  onDecided: (decision: { kind: 'approved' | 'rejected'; message: string }) => void;
}) {
  const queryClient = useQueryClient();
  const approve = useProcedureMutation('expressions/approve');
  const reject = useProcedureMutation('expressions/reject');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [blocked, setBlocked] = useState<ProcedureOutput<'expressions/approve'> | null>(null);
  const busy = approve.isPending || reject.isPending;
  // isPending lands a render later; a double-click must not send the decision twice meanwhile.
  const inFlight = useRef(false);
  const settle = () => {
    inFlight.current = false;
  };
  const refresh = () => memoryKeys.forEach((k) => void queryClient.invalidateQueries({ queryKey: [k] }));

  const doApprove = () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBlocked(null);
    approve.mutate(
      { id: props.id },
      {
        onSettled: settle,
        onSuccess: (r) => {
          if (!r.approved) setBlocked(r);
          else
            props.onDecided({
              kind: 'approved',
              message: `Approved: ${r.id} is now ${r.status}. ${r.message === `${r.id} is active.` ? '' : r.message}`.trim(),
            });
          refresh();
        },
      },
    );
  };
  const doReject = () => {
    const why = cleanReason(reason);
    if (!why || inFlight.current) return;
    inFlight.current = true;
    reject.mutate(
      { id: props.id, reason: why },
      {
        onSettled: settle,
        onSuccess: (r) => {
          props.onDecided({
            kind: 'rejected',
            message: `Rejected: ${r.id} is now ${r.status}.${/already rejected/.test(r.message) ? ' It was already rejected; nothing changed.' : ''}${r.counterfactual ? ` Counterfactual ${r.counterfactual} tracks what declining it costs or saves.` : ''}`,
          });
          refresh();
        },
      },
    );
  };
  const error = approve.error ?? reject.error;

  return (
    <section className="approval" data-testid="approval" aria-label="Your decision">
      <div className="approval-banner" role="status" data-testid="approval-banner">
        <strong>{decisionBanner(props.status, props.proposedBy)}.</strong>
        <span>Nothing is traded until you approve; the risk guardrails are checked again at that moment.</span>
      </div>
      {!rejecting ? (
        <div className="approval-actions">
          <button type="button" className="button primary" data-testid="approve" disabled={busy} onClick={doApprove}>
            {approve.isPending ? 'Checking guardrails…' : `Approve ${props.id}`}
          </button>
          <button
            type="button"
            className="button danger"
            data-testid="reject"
            disabled={busy}
            onClick={() => {
              setRejecting(true);
              setBlocked(null);
            }}
          >
            Reject…
          </button>
        </div>
      ) : (
        <form
          className="approval-reject"
          onSubmit={(e) => {
            e.preventDefault();
            doReject();
          }}
        >
          <label htmlFor={`reject-${props.id}`}>Why are you rejecting {props.id}?</label>
          <textarea
            id={`reject-${props.id}`}
            data-testid="reject-reason"
            rows={2}
            // No maxLength: a paste past the limit would be cut without a word. Over 300, the counter says so and Reject waits.
            aria-invalid={reason.length > 300 ? true : undefined}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="e.g. Too much US rates risk already; wait for the payrolls print"
            // biome-ignore lint/a11y/noAutofocus: the control appears only because the user just asked for it, so focus follows their action.
            autoFocus
            onKeyDown={(e) => {
              if (e.key === 'Escape') setRejecting(false);
            }}
          />
          <p className={reason.length > 300 ? 'hint field-error' : 'hint'} data-testid="reject-reason-count" aria-live="polite">
            {reason.length} / 300 characters{reason.length > 300 ? ' — the reason can be at most 300 characters; shorten it to reject' : ''}
          </p>
          <p className="hint">The reason is kept with the record and a Counterfactual tracks what declining it cost or saved.</p>
          <div className="approval-actions">
            <button type="submit" className="button danger" data-testid="reject-confirm" disabled={busy || !cleanReason(reason) || reason.length > 300}>
              {reject.isPending ? 'Rejecting…' : `Reject ${props.id}`}
            </button>
            <button type="button" className="button" onClick={() => setRejecting(false)} disabled={busy}>
              Keep it proposed
            </button>
          </div>
        </form>
      )}
      {blocked && <GuardrailBlock result={blocked} />}
      {error && <ErrorPanel error={error} />}
    </section>
  );
}

/**
 * A refusal by the risk limits (at approval, or when the PM saves an Expression): each broken
 * limit with the value the trade would reach and the limit. `heading`/`hint` reword it for the editor.
 */
export function GuardrailBlock(props: { result: { id: string; violations: Violation[]; message: string }; heading?: string; hint?: string }) {
  const v = props.result.violations;
  return (
    <div className="guardrail-block" role="alert" data-testid="guardrail-block">
      <strong>{props.heading ?? `Not approved: ${v.length === 1 ? 'a guardrail blocks' : `${v.length} guardrails block`} ${props.result.id}.`}</strong>
      {v.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">This trade</th>
              <th scope="col">Limit</th>
              <th scope="col">Over by</th>
            </tr>
          </thead>
          <tbody>
            {v.map((x, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one check's violations, replaced whole by the next check; the rows hold no state.
              <tr key={i} data-testid="guardrail-violation" data-rule={x.rule}>
                <th scope="row">
                  {ruleLabel(x.rule)}
                  <div className="rule-code">{x.rule}</div>
                  {x.message && <div className="muted">{x.message}</div>}
                </th>
                <td className="num">{withUnit(x.rule, x.actual)}</td>
                <td className="num">{withUnit(x.rule, x.limit)}</td>
                <td className="num">{overBy(x.actual, x.limit) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{props.result.message}</p>
      )}
      <p className="hint">{props.hint ?? 'It stays proposed. Ask the analyst to resize it, or reject it.'}</p>
    </div>
  );
}
