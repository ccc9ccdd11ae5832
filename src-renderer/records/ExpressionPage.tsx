import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { Markdown } from '../markdown';
import { ApprovalPanel } from '../memory/ApprovalPanel';
import { awaitsDecision } from '../memory/approval';
import { recordBody } from '../memory/format';
import { sizingFields } from './model';
import { GuardrailTable, IdLink, RecordHeader, ReviewVerdict, SizingTable } from './parts';
import { PriceSourceSection } from './price-source-section';
import { HistorySection, Section } from './sections';
import './records.css';

/** An Expression's full page: its View, sizing, every guardrail check, the review verdict, Approve / Reject, body and history. */
export function ExpressionPage(props: { id: string }) {
  const path = `/memory/expressions/${props.id}.md`;
  const read = useProcedure('memory/read', { path, depth: 'full' });
  const queryClient = useQueryClient();
  const [decided, setDecided] = useState<{ kind: 'approved' | 'rejected'; message: string } | null>(null);
  if (read.isPending)
    return (
      <p className="muted pad" data-testid="record-page-loading">
        Opening {props.id}…
      </p>
    );
  if (read.isError) return <ErrorPanel error={read.error} onRetry={() => void read.refetch()} testId="record-page-error" />;
  const r = read.data.record;
  if (!r) return <p className="muted pad">{path} is not an Expression record.</p>;
  const viewId = r.viewId ?? (typeof r.header.view_id === 'string' ? r.header.view_id : null);
  return (
    <article className="record-page" data-testid="expression-page" aria-label={`Expression ${r.id}`}>
      <RecordHeader record={r} noun="Expression" />
      <p className="muted">
        <a className="record-link" href={`#/expressions/${r.id}/lineage`} data-testid="trace-decision">
          Trace this decision
        </a>{' '}
        — everything that shaped it, in time order
      </p>
      {decided && (
        <p className={`approval-done is-${decided.kind}`} role="status" data-testid="approval-done">
          {decided.message}
        </p>
      )}
      {awaitsDecision(path, r.status) && (
        <ApprovalPanel
          id={r.id}
          status={r.status ?? ''}
          proposedBy={r.header.proposed_by}
          onDecided={(d) => {
            setDecided(d);
            void queryClient.invalidateQueries({ queryKey: ['expressions/checks'] });
          }}
        />
      )}
      <Section title="View" id="expression-view" testId="expression-view">
        {viewId ? <LinkedView id={viewId} /> : <p className="field-error">This Expression names no View (view_id), so it cannot be approved.</p>}
      </Section>
      <Section title="Sizing" id="expression-sizing">
        <SizingTable fields={sizingFields(r.header)} />
      </Section>
      <PriceSourceSection id={r.id} version={r.version} />
      <Checks id={r.id} reviewReason={r.header.review_reason} />
      <Section title="Text" id="expression-body">
        <Markdown source={recordBody(read.data.content)} />
      </Section>
      <HistorySection path={path} confidence={r.confidence} updatedAt={r.updatedAt} chart={false} />
    </article>
  );
}

function LinkedView(props: { id: string }) {
  const view = useProcedure('memory/read', { path: `/memory/views/${props.id}.md`, depth: 'header' });
  if (view.isPending) return <IdLink id={props.id} />;
  if (view.isError) return <ErrorPanel error={view.error} inline onRetry={() => void view.refetch()} />;
  const v = view.data.record;
  return (
    <p data-testid="expression-view-link">
      <IdLink id={props.id} title={v?.title} />{' '}
      {v && (
        <span className="muted">
          {v.status ?? ''} · confidence <span className="num">{v.confidence ?? '—'}</span>
        </span>
      )}
    </p>
  );
}

function Checks(props: { id: string; reviewReason: unknown }) {
  const checks = useProcedure('expressions/checks', { id: props.id });
  return (
    <>
      <Section title="Guardrail checks" id="expression-guardrails">
        {checks.isPending && <p className="muted">Checking the limits against the book…</p>}
        {checks.isError && <ErrorPanel error={checks.error} inline onRetry={() => void checks.refetch()} />}
        {checks.data && <GuardrailTable checks={checks.data.checks} basis={checks.data.basis} bookAsOf={checks.data.bookAsOf} status={checks.data.status} />}
      </Section>
      <Section title="Review verdict" id="expression-review">
        {checks.isPending && <p className="muted">Looking for the reviewer’s verdict…</p>}
        {checks.isError && <p className="muted">The verdict could not be read (see above).</p>}
        {checks.data && <ReviewVerdict review={checks.data.review} reviewReason={props.reviewReason} />}
      </Section>
    </>
  );
}
