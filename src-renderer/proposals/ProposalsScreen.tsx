import { useRef, useState, type KeyboardEvent } from 'react';
import type { ProposalSummary } from '../../src-main/api/proposals';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { Icon } from '../app/Icon';
import { screenInfo } from '../app/screens';
import { relativeTime } from '../memory/format';
import { decisionLine, sortProposals, statusLabel, targetLabel } from './model';
import { ProposalDetail } from './ProposalDetail';
import { RunMetaOptimizer } from './RunMetaOptimizer';
import './proposals.css';

type Filter = 'all' | 'pending' | 'decided';
const filters: { key: Filter; label: string; match: (p: ProposalSummary) => boolean }[] = [
  { key: 'all', label: 'All', match: () => true },
  { key: 'pending', label: 'Pending', match: (p) => p.status === 'pending' },
  { key: 'decided', label: 'Decided', match: (p) => p.status !== 'pending' },
];

/**
 * Skill edits the MetaOptimizer proposed from corroborated lessons: pending ones first, each
 * opening as a side-by-side diff with the Process Knowledge behind it, to approve or reject.
 * `proposals/changed` events re-read the listing (see live.ts), so nothing here polls.
 */
export function ProposalsScreen(props: { selected: string | null; onSelect: (id: string | null) => void }) {
  const info = screenInfo.proposals;
  const list = useProcedure('proposals/list', {}, { staleTime: 30_000 });
  const [filter, setFilter] = useState<Filter>('all');
  const listRef = useRef<HTMLUListElement>(null);

  const all = sortProposals(list.data?.proposals ?? []);
  const match = filters.find((f) => f.key === filter)!.match;
  const shown = all.filter(match);
  const pending = list.data?.pendingCount ?? 0;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-testid="proposal-row"]') ?? []);
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at - 1);
    e.preventDefault();
    rows[next]?.focus();
  };

  let summary = '';
  if (list.isPending) summary = 'Loading…';
  else if (list.data) summary = `${all.length} ${all.length === 1 ? 'proposal' : 'proposals'} · ${pending} pending`;

  return (
    <section className="screen memory-screen proposals-screen" data-testid="screen-proposals" aria-labelledby="title-proposals">
      <div className="list-pane">
        <header className="screen-header compact">
          <h1 id="title-proposals">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>
        <div className="chip-row proposals-filters" role="group" aria-label="Show">
          {filters.map((f) => (
            <button key={f.key} type="button" className="chip" aria-pressed={filter === f.key} onClick={() => setFilter(f.key)}>
              {f.label}
            </button>
          ))}
        </div>
        <RunMetaOptimizer />
        <div className="list-summary" aria-live="polite" data-testid="proposals-summary">
          {summary}
          {list.isFetching && !list.isPending && <span className="spinner" role="img" aria-label="Updating" />}
        </div>
        {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && all.length === 0 && (
          <div className="empty-list" data-testid="proposals-empty">
            <p>No skill edits have been proposed yet.</p>
            <p className="muted">
              After each weekly retrospective Forge looks for lessons that five or more Process Knowledge entries agree on, with none against; only those become
              proposals.
            </p>
          </div>
        )}
        {list.data && all.length > 0 && shown.length === 0 && (
          <div className="empty-list">
            <p>{filter === 'pending' ? 'Nothing is waiting for you.' : 'Nothing decided yet.'}</p>
          </div>
        )}
        {shown.length > 0 && (
          <ul className="proposals-list" ref={listRef} onKeyDown={onKeyDown} aria-label="Proposals" data-testid="proposals-list">
            {shown.map((p) => (
              <li key={p.id}>
                <ProposalRow proposal={p} selected={p.id === props.selected} onOpen={() => props.onSelect(p.id)} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="detail-pane">
        {props.selected ? (
          <ProposalDetail key={props.selected} id={props.selected} onClose={() => props.onSelect(null)} />
        ) : (
          <div className="empty-state subtle" data-testid="proposal-none">
            <div className="empty-icon">
              <Icon name="proposals" size={30} />
            </div>
            <h2>Select a proposal</h2>
            <p>
              Each proposal quotes the exact text of a skill file and its replacement. Open one to see the change side by side, why it was proposed, and the
              lessons behind it.
            </p>
            <p className="muted">Approving keeps the earlier text as a version you can restore from the Skills screen.</p>
          </div>
        )}
      </div>
    </section>
  );
}

function ProposalRow(props: { proposal: ProposalSummary; selected: boolean; onOpen: () => void }) {
  const p = props.proposal;
  const decision = decisionLine(p);
  return (
    <button
      type="button"
      data-testid="proposal-row"
      data-id={p.id}
      data-status={p.status}
      className={props.selected ? 'proposal-row selected' : 'proposal-row'}
      aria-current={props.selected ? 'true' : undefined}
      onClick={props.onOpen}
    >
      <span className="row-line">
        <span className="row-id">{p.id}</span>
        <span className="row-title">{p.title}</span>
        <span className={`chip status-${p.status}`}>{statusLabel(p.status)}</span>
      </span>
      <span className="row-meta">
        <code>{targetLabel(p)}</code> · {p.pkIds.length} PK cited · proposed {relativeTime(p.createdAt)}
      </span>
      {decision && <span className="proposal-row-decision">{decision}</span>}
    </button>
  );
}
