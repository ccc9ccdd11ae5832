import { useQueries } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useClient, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { RecordSharing } from '../desk/RecordSharing';
import { Markdown } from '../markdown';
import { recordBody } from '../memory/format';
import { ScenarioChart } from './charts';
import { conditionStates, invalidationConditions, parseScenarios, probabilityTotal } from './model';
import { ConditionList, RecordHeader } from './parts';
import { HistorySection, LinkedRecords, Section } from './sections';
import './records.css';

/** How many recent morning reviews are read to find the newest that covered a View. */
const REPORTS_READ = 5;

/** A View's full page: header, scenarios chart, confidence over versions, conditions and their state, linked records, body, history. */
export function ViewPage(props: { id: string }) {
  const path = `/memory/views/${props.id}.md`;
  const read = useProcedure('memory/read', { path, depth: 'full' });
  if (read.isPending)
    return (
      <p className="muted pad" data-testid="record-page-loading">
        Opening {props.id}…
      </p>
    );
  if (read.isError) return <ErrorPanel error={read.error} onRetry={() => void read.refetch()} testId="record-page-error" />;
  const r = read.data.record;
  if (!r) return <p className="muted pad">{path} is not a View record.</p>;
  const body = recordBody(read.data.content);
  const scenarios = parseScenarios(body);
  const total = probabilityTotal(scenarios);
  return (
    <article className="record-page" data-testid="view-page" aria-label={`View ${r.id}`}>
      <RecordHeader record={r} noun="View" />
      {/* On a desk: who can read this View, and its owner's control to change it. */}
      <RecordSharing path={path} />
      <Section title="Scenarios" id="view-scenarios" testId="view-scenarios">
        {scenarios.length === 0 ? (
          <p className="muted">No ## SCENARIOS section with probabilities: add lines such as “- Base (60%): …”.</p>
        ) : (
          <>
            {scenarios.some((s) => s.probability !== null) && <ScenarioChart scenarios={scenarios} />}
            <ul className="scenario-list">
              {scenarios.map((s) => (
                <li key={`${s.name}:${s.text}`}>
                  <strong>{s.name}</strong> <span className="num">{s.probability === null ? 'no probability' : `${s.probability}%`}</span> {s.text}
                </li>
              ))}
            </ul>
            {total.off && <p className="hint">The stated probabilities add up to {total.total}%, not 100%.</p>}
          </>
        )}
      </Section>
      <Conditions id={r.id} body={body} header={r.header} />
      <LinkedRecords id={r.id} />
      <Section title="Text" id="view-body">
        <Markdown source={body} />
      </Section>
      <HistorySection path={path} confidence={r.confidence} updatedAt={r.updatedAt} chart />
    </article>
  );
}

type ReportOut = ProcedureOutput<'schedule/report'>;

function Conditions(props: { id: string; body: string; header: Record<string, unknown> }) {
  const client = useClient();
  const list = useProcedure('schedule/reports', { limit: REPORTS_READ });
  const details = useQueries({
    queries: (list.data?.reports ?? []).map((s) => {
      const input = { runId: s.runId };
      return { queryKey: procedureKey('schedule/report', input), queryFn: () => client.call('schedule/report', input) as Promise<ReportOut> };
    }),
  });
  const conditions = invalidationConditions(props.body, props.header);
  const loading = list.isPending || details.some((d) => d.isPending);
  const failed = list.error ?? details.find((d) => d.isError)?.error;
  const reports = details.flatMap((d) => (d.data ? [d.data.report] : []));
  // Until the reviews are read, every condition shows as not evaluated rather than as a guess.
  const states = conditionStates(props.id, conditions, loading || failed ? [] : reports);
  return (
    <Section title="Invalidation conditions" id="view-conditions" testId="view-conditions">
      {loading && <p className="muted">Reading the latest morning reviews…</p>}
      {failed && <ErrorPanel error={failed} inline onRetry={() => void list.refetch()} />}
      <ConditionList conditions={states.conditions} extra={states.extra} />
    </Section>
  );
}
