import { useState } from 'react';
import type { MemoryVersion } from '../../src-main/api/memory';
import { useProcedure } from '../api/hooks';
import { readableMessage } from '../api/errors';
import { formatHash } from '../app/routes';
import { Icon } from '../app/Icon';
import { Markdown } from '../markdown';
import { headerValue, recordBody, relativeTime, screenOfId } from './format';
import { awaitsDecision, expressionIdOf, isDemoRecord } from './approval';
import { ApprovalPanel } from './ApprovalPanel';
import { SeriesProvenanceLine } from '../records/SeriesProvenance';
import { canEdit } from './draft';
import { ErrorPanel } from '../app/ErrorPanel';
import { RecordSharing } from '../desk/RecordSharing';

/** The full View or Expression page for a current record (not an archived version). */
function pageHash(path: string): string | null {
  const m = /^\/memory\/(views|expressions)\/([VE]-\d+)\.md$/.exec(path);
  return m ? formatHash({ screen: m[1] as 'views' | 'expressions', rest: [m[2]] }) : null;
}

type Decision = { kind: 'approved' | 'rejected'; message: string };

/** Header fields already shown as the record's title and chips. */
const shownAbove = new Set(['id', 'title', 'status', 'confidence', 'weight', 'scope', 'created', 'updated', 'created_at', 'updated_at']);

export function RecordView(props: {
  path: string;
  onClose: () => void /** Opens the editor on this record (Views, proposed Expressions). */;
  onEdit?: () => void;
}) {
  const [archivePath, setArchivePath] = useState<string | null>(null);
  /** What the PM's last approve/reject did, kept after the record refreshes to its new status. */
  const [decided, setDecided] = useState<Decision | null>(null);
  const shownPath = archivePath ?? props.path;
  const read = useProcedure('memory/read', { path: shownPath, depth: 'full' });
  const history = useProcedure('memory/history', { path: props.path });
  const version = history.data?.versions.find((v) => v.archivePath === archivePath) ?? null;
  const editable = Boolean(props.onEdit) && !archivePath && Boolean(read.data?.record) && canEdit(props.path, read.data?.record?.status);

  return (
    <article className="record-view" data-testid="record-view" aria-label={`Record ${props.path}`}>
      <div className="record-toolbar">
        <code className="record-path">{shownPath}</code>
        {pageHash(shownPath) && (
          <a
            className="button small"
            data-testid="record-open-page"
            href={pageHash(shownPath)!}
            title="Scenarios, confidence history, conditions, links and checks"
          >
            Open page
          </a>
        )}
        {editable && (
          <button type="button" className="button small" data-testid="record-edit" onClick={props.onEdit}>
            Edit
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Close record" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      {archivePath && (
        <div className="archive-banner" role="status">
          <Icon name="history" size={16} />
          <span>
            You are reading an archived version from <strong>{version ? new Date(version.archivedAt).toLocaleString() : 'an earlier date'}</strong>.
          </span>
          <button type="button" className="button small" onClick={() => setArchivePath(null)}>
            Back to current
          </button>
        </div>
      )}
      <div className="record-scroll">
        {read.isPending && <p className="muted pad">Opening…</p>}
        {read.isError && <ErrorPanel error={read.error} />}
        {/* On a desk: who can read the current note or View, and the owner's control (nothing on an archived version). */}
        {!archivePath && read.data?.record && (
          <div className="record-sharing-slot">
            <RecordSharing path={props.path} />
          </div>
        )}
        {read.data && <RecordContent data={read.data} path={shownPath} decided={decided} onDecided={setDecided} />}
        <History
          loading={history.isPending}
          error={history.isError ? readableMessage(history.error) : null}
          current={history.data?.current ?? null}
          versions={history.data?.versions ?? []}
          open={archivePath}
          onOpen={setArchivePath}
        />
        <Lineage path={props.path} />
      </div>
    </article>
  );
}

type ReadData = NonNullable<ReturnType<typeof useProcedure<'memory/read'>>['data']>;

function RecordContent({ data, path, decided, onDecided }: { data: ReadData; path: string; decided: Decision | null; onDecided: (d: Decision) => void }) {
  const r = data.record;
  if (!r) return <Markdown source={data.content} className="markdown pad" />;
  const extra = Object.entries(r.header).filter(([k]) => !shownAbove.has(k.toLowerCase()));
  const expressionId = expressionIdOf(path);
  return (
    <div className="pad">
      {decided && (
        <p className={`approval-done is-${decided.kind}`} role="status" data-testid="approval-done">
          {decided.message}
        </p>
      )}
      {expressionId && awaitsDecision(path, r.status) && (
        <ApprovalPanel id={expressionId} status={r.status ?? ''} proposedBy={r.header?.proposed_by} onDecided={onDecided} />
      )}
      <header className="record-head">
        <div className="record-id">{r.id}</div>
        <h1 className="record-title">{r.title}</h1>
        <div className="record-chips">
          {isDemoRecord(r.header) && (
            <span className="demo-label" data-testid="demo-label" title="Sample data shipped with Forge or written by the offline demo — not a real position">
              DEMO
            </span>
          )}
          {r.status && <span className={`chip status status-${r.status}`}>{r.status}</span>}
          <span className="chip subtle" data-testid="record-version" title="1 as first written, +1 for every change">
            version {r.version}
          </span>
          {r.confidence !== null && <span className="chip">confidence {r.confidence}</span>}
          {r.weight !== null && <span className="chip">weight {r.weight}</span>}
          {r.scope && <span className="chip">{r.scope}</span>}
          {r.viewId && <IdLink id={r.viewId} />}
          <span className="chip subtle" title={r.updatedAt}>
            updated {relativeTime(r.updatedAt)}
          </span>
        </div>
        {extra.length > 0 && (
          <dl className="facts record-facts">
            {extra.map(([k, v]) => (
              <div key={k} className="fact">
                <dt>{k.replace(/_/g, ' ')}</dt>
                <dd>
                  <HeaderValue value={v} />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </header>
      {/* Outcomes and Counterfactuals: the series, provider, file or URL and as-of they were priced from. */}
      <SeriesProvenanceLine header={r.header} />
      <Markdown source={recordBody(data.content)} />
    </div>
  );
}

function HeaderValue({ value }: { value: unknown }) {
  const items = Array.isArray(value) ? value : [value];
  if (items.length > 0 && items.every((v) => typeof v === 'string' && screenOfId(v))) {
    return (
      <>
        {items.map((v) => (
          <IdLink key={String(v)} id={String(v)} />
        ))}
      </>
    );
  }
  return <>{headerValue(value)}</>;
}

function IdLink({ id }: { id: string }) {
  const target = screenOfId(id);
  if (!target) return <span className="chip">{id}</span>;
  return (
    <a className="chip link" href={formatHash({ screen: target.screen, rest: [target.file] })}>
      {id}
    </a>
  );
}

function History(props: {
  loading: boolean;
  error: string | null;
  current: { updatedAt: string; contentHash: string } | null;
  versions: MemoryVersion[];
  open: string | null;
  onOpen: (archivePath: string | null) => void;
}) {
  return (
    <section className="record-history" data-testid="record-history" aria-labelledby="history-title">
      <h2 id="history-title">
        <Icon name="history" size={16} /> Version history
      </h2>
      {props.loading && <p className="muted">Loading history…</p>}
      {props.error && <p className="field-error">{props.error}</p>}
      {!props.loading && !props.error && (
        <ol className="versions">
          {props.current && (
            <li>
              <button
                type="button"
                className={props.open === null ? 'version active' : 'version'}
                aria-current={props.open === null ? 'true' : undefined}
                onClick={() => props.onOpen(null)}
              >
                <span className="version-when">Current</span>
                <span className="version-detail">updated {relativeTime(props.current.updatedAt)}</span>
                <code className="version-hash">{props.current.contentHash.slice(0, 8)}</code>
              </button>
            </li>
          )}
          {props.versions.map((v) => (
            <li key={v.archivePath}>
              <button
                type="button"
                data-testid="history-version"
                className={props.open === v.archivePath ? 'version active' : 'version'}
                aria-current={props.open === v.archivePath ? 'true' : undefined}
                onClick={() => props.onOpen(v.archivePath)}
              >
                <span className="version-when" title={v.archivedAt}>
                  {new Date(v.archivedAt).toLocaleString()}
                </span>
                <span className="version-detail">{[v.status, v.confidence !== null ? `conf ${v.confidence}` : null, v.title].filter(Boolean).join(' · ')}</span>
                <code className="version-hash">{v.contentHash.slice(0, 8)}</code>
              </button>
            </li>
          ))}
          {props.versions.length === 0 && <li className="muted">No earlier versions: this record has not been changed since it was written.</li>}
        </ol>
      )}
    </section>
  );
}

const actorNames: Record<string, string> = {
  pm: 'You',
  agent: 'Analyst',
  scheduler: 'Scheduler',
  builder: 'Builder',
  mcp: 'MCP client',
  tracker: 'Tracker',
};

/** Who wrote this record and why: the audit trail for this one path (decision lineage). */
function Lineage(props: { path: string }) {
  const audit = useProcedure('memory/audit', { path: props.path, limit: 50 });
  return (
    <section className="record-history" data-testid="record-audit" aria-labelledby="audit-title">
      <h2 id="audit-title">Changes</h2>
      {audit.isPending && <p className="muted">Loading changes…</p>}
      {audit.isError && <p className="field-error">{readableMessage(audit.error)}</p>}
      {audit.data && audit.data.entries.length === 0 && <p className="muted">No recorded changes: this record came with the workspace.</p>}
      {audit.data && audit.data.entries.length > 0 && (
        <ol className="audit">
          {audit.data.entries.map((e) => {
            // On a desk a row done for a person reads `agent@pm01` / `subagent:t7@pm01`: writer kind, then for whom.
            const [writer, forWhom] = e.actor.split('@', 2);
            const [kind, task] = writer.split(':', 2);
            const named = kind === 'subagent' ? `Sub-agent${task ? ` (${task})` : ''}` : (actorNames[kind] ?? writer);
            const who = forWhom ? `${named} for ${forWhom}` : named;
            const why = [e.sessionId && `session ${e.sessionId}`, e.taskId && `task ${e.taskId}`].filter(Boolean).join(' · ');
            return (
              <li key={e.seq}>
                <span title={e.at}>{new Date(e.at).toLocaleString()}</span>
                <span className="audit-actor">{who}</span>
                <span className="audit-op">
                  {e.operation}
                  {why && ` — ${why}`}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
