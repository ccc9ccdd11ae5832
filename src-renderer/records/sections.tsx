import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useClient, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { formatHash } from '../app/routes';
import { ConfidenceChart } from './charts';
import { confidenceSeries, linkQueries } from './model';
import { IdLink } from './parts';

/** The record pages' data-backed sections: each loads on its own, with its own loading and error state. */

export function Section(props: { title: string; id: string; children: ReactNode; testId?: string }) {
  return (
    <section className="record-section" aria-labelledby={props.id} data-testid={props.testId}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** Versions with their dates and confidence (as a chart for Views), then the audit trail for this path. */
export function HistorySection(props: { path: string; confidence: number | null; updatedAt: string; chart: boolean }) {
  const history = useProcedure('memory/history', { path: props.path });
  const audit = useProcedure('memory/audit', { path: props.path, limit: 50 });
  const points = history.data ? confidenceSeries(history.data.versions, { confidence: props.confidence, updatedAt: props.updatedAt }) : [];
  return (
    <Section title="History" id="record-page-history" testId="record-page-history">
      {history.isPending && <p className="muted">Loading versions…</p>}
      {history.isError && <ErrorPanel error={history.error} inline onRetry={() => void history.refetch()} />}
      {history.data && (
        <>
          {props.chart && points.length > 1 && <ConfidenceChart points={points} />}
          {props.chart && points.length <= 1 && <p className="muted">Confidence has not changed since this View was written.</p>}
          <table className="record-table">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Replaced</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Confidence
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Current</th>
                <td title={props.updatedAt}>updated {new Date(props.updatedAt).toLocaleString()}</td>
                <td>—</td>
                <td className="num">{props.confidence ?? '—'}</td>
              </tr>
              {history.data.versions.map((v, i) => (
                <tr key={v.archivePath} data-testid="record-page-version">
                  <th scope="row">
                    <a href={formatHash({ screen: 'views', rest: [v.archivePath] })}>{history.data.versions.length - i}</a>
                  </th>
                  <td title={v.archivedAt}>{new Date(v.archivedAt).toLocaleString()}</td>
                  <td>{v.status ?? '—'}</td>
                  <td className="num">{v.confidence ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {history.data.versions.length === 0 && <p className="muted">No earlier versions: unchanged since it was written.</p>}
        </>
      )}
      <h3>Changes</h3>
      {audit.isPending && <p className="muted">Loading changes…</p>}
      {audit.isError && <ErrorPanel error={audit.error} inline onRetry={() => void audit.refetch()} />}
      {audit.data && audit.data.entries.length === 0 && <p className="muted">No recorded changes: this record came with the workspace.</p>}
      {audit.data && audit.data.entries.length > 0 && (
        <ol className="audit" data-testid="record-page-audit">
          {audit.data.entries.map((e) => (
            <li key={e.seq}>
              <span title={e.at}>{new Date(e.at).toLocaleString()}</span> <span className="audit-actor">{e.actor}</span>{' '}
              <span className="audit-op">
                {e.operation}
                {e.sessionId ? ` — session ${e.sessionId}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

type ListOut = ProcedureOutput<'memory/list'>;

/** Records that cite this View: Expressions on it, Observations about it, PK and Linkages that name it. */
export function LinkedRecords(props: { id: string }) {
  const client = useClient();
  const queries = linkQueries(props.id);
  const results = useQueries({
    queries: queries.map((q) => {
      const input = { path: q.folder, query: q.query, limit: 50 };
      return { queryKey: procedureKey('memory/list', input), queryFn: () => client.call('memory/list', input) as Promise<ListOut> };
    }),
  });
  const failed = results.find((r) => r.isError);
  return (
    <Section title="Linked records" id="record-page-links" testId="linked-records">
      {results.some((r) => r.isPending) && <p className="muted">Looking for records that cite {props.id}…</p>}
      {failed && <ErrorPanel error={failed.error} inline onRetry={() => results.forEach((r) => void r.refetch())} />}
      {results.every((r) => r.isSuccess) &&
        (results.every((r) => (r.data?.entries.filter((e) => !e.isDir && e.id !== props.id).length ?? 0) === 0) ? (
          <p className="muted">Nothing cites {props.id} yet. Ask the analyst to express it, or record an Observation about it.</p>
        ) : (
          queries.map((q, i) => {
            const entries = (results[i]?.data?.entries ?? []).filter((e) => !e.isDir && e.id !== props.id);
            if (!entries.length) return null;
            return (
              <div key={q.folder} className="linked-group">
                <h3>{q.noun}</h3>
                <ul>
                  {entries.map((e) => (
                    <li key={e.path}>
                      <IdLink id={e.id ?? e.name} title={e.title} href={formatHash({ screen: 'views', rest: [e.path] })} />
                      {e.status && <span className={`chip status status-${e.status}`}>{e.status}</span>}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })
        ))}
    </Section>
  );
}
