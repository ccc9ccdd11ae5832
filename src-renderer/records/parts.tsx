import type { GuardrailCheck, ReviewVerdictView } from '../../src-main/api/expression-checks';
import type { MemoryRecordFields } from '../../src-main/api/memory';
import { relativeTime } from '../memory/format';
import { awaitsApproval, ruleLabel, withUnit } from '../memory/approval';
import type { ConditionStatus, SizingField } from './model';
import { recordHref, verdictLabel } from './model';

/**
 * The presentational pieces of the record pages: given data, they render it. The pages fetch;
 * these are rendered to markup in tests.
 */

export function RecordHeader(props: { record: MemoryRecordFields; noun: 'View' | 'Expression' }) {
  const r = props.record;
  const horizon = r.header.horizon;
  return (
    <header className="record-page-head">
      <div className="record-id" data-testid="record-page-id">
        {r.id}
      </div>
      <h1 className="record-title">{r.title}</h1>
      <dl className="record-page-facts">
        <div>
          <dt>Status</dt>
          <dd>{r.status ? <span className={`chip status status-${r.status}`}>{r.status}</span> : '—'}</dd>
        </div>
        {props.noun === 'View' && (
          <div>
            <dt>Confidence</dt>
            <dd className="num">{r.confidence ?? '—'}</dd>
          </div>
        )}
        {horizon !== undefined && (
          <div>
            <dt>Horizon</dt>
            <dd className="num">{String(horizon)}</dd>
          </div>
        )}
        <div>
          <dt>Updated</dt>
          <dd title={r.updatedAt}>{relativeTime(r.updatedAt)}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd className="num">{r.version}</dd>
        </div>
      </dl>
    </header>
  );
}

const stateWords: Record<ConditionStatus['state'], string> = { fired: 'Fired', not_fired: 'Not fired', unknown: 'Not evaluated yet' };

export function ConditionList(props: { conditions: ConditionStatus[]; extra: string[] }) {
  if (props.conditions.length === 0 && props.extra.length === 0) {
    return <p className="muted">This View states no invalidation conditions. Add an ## INVALIDATION section so the morning review can watch them.</p>;
  }
  return (
    <ul className="condition-list" data-testid="condition-list">
      {props.conditions.map((c) => (
        <li key={c.text} data-testid="condition" data-state={c.state}>
          <span className={`chip condition-${c.state}`}>{stateWords[c.state]}</span>
          <span className="condition-text">{c.text}</span>
          <span className="muted condition-basis">{c.basis}</span>
        </li>
      ))}
      {props.extra.map((text) => (
        <li key={`extra:${text}`} data-testid="condition" data-state="fired">
          <span className="chip condition-fired">Fired</span>
          <span className="condition-text">{text}</span>
          <span className="muted condition-basis">Reported by the morning review, but not one of this View’s own conditions.</span>
        </li>
      ))}
    </ul>
  );
}

export function SizingTable(props: { fields: SizingField[] }) {
  if (props.fields.length === 0) return <p className="muted">No sizing fields on this Expression.</p>;
  return (
    <table className="record-table" data-testid="sizing">
      <tbody>
        {props.fields.map((f) => (
          <tr key={f.key}>
            <th scope="row">{f.label}</th>
            <td className={f.numeric ? 'num' : undefined}>{f.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function GuardrailTable(props: { checks: GuardrailCheck[]; basis: 'approval' | 'book'; bookAsOf: string; status?: string }) {
  const asOf = props.bookAsOf.slice(0, 10);
  // Only a pending Expression will meet Approve; a rejected or closed one is checked for the record.
  const pending = props.status === undefined || awaitsApproval(props.status);
  return (
    <>
      <p className="hint" data-testid="guardrail-basis">
        {props.basis === 'book'
          ? `This trade as it stands in the book (positions as of ${asOf}).`
          : pending
            ? `Checked now as Approve will check it: the book (positions as of ${asOf}) plus this trade.`
            : `This Expression is ${props.status?.replace(/_/g, ' ')} and will not be approved; for the record, its figures against today's book (positions as of ${asOf}).`}
      </p>
      <table className="record-table" data-testid="guardrail-checks">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col" className="num">
              Value
            </th>
            <th scope="col" className="num">
              Limit
            </th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {props.checks.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one response's rows, replaced whole on refetch; a rule can repeat (two unreadable fields).
            <tr key={i} data-testid="guardrail-check" data-rule={c.rule} data-pass={c.pass}>
              <th scope="row">
                {ruleLabel(c.rule)}
                <div className="muted">{c.message}</div>
              </th>
              <td className="num">{c.value === null ? '—' : withUnit(c.rule, c.value)}</td>
              <td className="num">{withUnit(c.rule, c.limit)}</td>
              <td>
                <span className={c.pass ? 'chip check-pass' : 'chip check-fail'}>{c.pass ? 'Pass' : 'Fail'}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function ReviewVerdict(props: { review: ReviewVerdictView | null; reviewReason?: unknown }) {
  const reason = typeof props.reviewReason === 'string' && props.reviewReason.trim() ? props.reviewReason : null;
  return (
    <div data-testid="review-verdict">
      {reason && <p className="approval-banner">Sent back for review: {reason}</p>}
      {!props.review ? (
        <p className="muted">
          No reviewer verdict is on file for this Expression (Expressions you write yourself, and the sample workspace’s, are not reviewed).
        </p>
      ) : (
        <>
          <p>
            <span className={`chip verdict-${props.review.verdict}`}>{verdictLabel(props.review.verdict)}</span>{' '}
            <span className="muted" title={props.review.at}>
              {new Date(props.review.at).toLocaleString()} · focus: {props.review.focus || '—'}
            </span>
          </p>
          {!props.review.matched && <p className="hint">The latest review in the session that wrote this Expression; it may have been of an earlier draft.</p>}
          <p className="review-reasons">{props.review.reasons}</p>
        </>
      )}
    </div>
  );
}

/** A record id as a link to its page (Views, Expressions) or to the memory pane (`href` given). */
export function IdLink(props: { id: string; title?: string; href?: string }) {
  const href = recordHref(props.id) ?? props.href;
  const text = props.title ? `${props.id} — ${props.title}` : props.id;
  if (!href) return <span>{text}</span>;
  return (
    <a className="record-link" href={href}>
      {text}
    </a>
  );
}
