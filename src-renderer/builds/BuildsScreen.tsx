import { useRef, type KeyboardEvent } from 'react';
import type { BuildSummary } from '../../src-main/api/builds';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { relativeTime } from '../memory/format';
import { formatCost, formatTokens } from '../tasks/model';
import { BuildDetailView } from './BuildDetail';
import { buildsListInput } from './live';
import { folderName, isActive, sortNewestFirst, statusLabel } from './model';
import { StartBuildForm } from './StartBuildForm';
import './builds.css';

/**
 * The builder's projects: every build, newest first, and the open one in full (phases board,
 * live log, scratchpad, context). With none open, the pane is the Start-a-build form. Progress
 * arrives as `builds/changed` and `builds/log` events (live.ts), so nothing here polls.
 */
export function BuildsScreen(props: { selected: string | null; onSelect: (id: string | null) => void }) {
  const info = screenInfo.builds;
  const list = useProcedure('builds/list', buildsListInput, { staleTime: 30_000 });
  const listRef = useRef<HTMLUListElement>(null);
  const builds = sortNewestFirst(list.data?.builds ?? []);
  const active = builds.filter((b) => isActive(b.status)).length;

  // Up/Down move between build rows like a list; Enter/Space open (they are buttons).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-build-row]') ?? []);
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at - 1);
    e.preventDefault();
    rows[next]?.focus();
  };

  let summary = '';
  if (list.isPending) summary = 'Loading…';
  else if (!list.isError) {
    summary = `${builds.length} ${builds.length === 1 ? 'build' : 'builds'}`;
    if (active > 0) summary += ` · ${active} active`;
  }

  return (
    <section className="screen memory-screen builds-screen" data-testid="screen-builds" aria-labelledby="title-builds">
      <div className="list-pane builds-list-pane">
        <header className="screen-header compact builds-list-head">
          <div>
            <h1 id="title-builds">{info.label}</h1>
            <p className="screen-purpose">{info.purpose}</p>
          </div>
          <button
            type="button"
            className="button primary small"
            data-testid="builds-new"
            aria-pressed={props.selected === null}
            onClick={() => props.onSelect(null)}
          >
            New build
          </button>
        </header>
        <div className="list-summary" aria-live="polite">
          {summary}
          {list.isFetching && !list.isPending && <span className="spinner" role="img" aria-label="Updating" />}
        </div>
        {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && builds.length === 0 && (
          <div className="empty-list" data-testid="builds-empty">
            <p>No builds yet. Start one with the form on the right.</p>
          </div>
        )}
        {builds.length > 0 && (
          <ul className="builds-list" ref={listRef} onKeyDown={onKeyDown} data-testid="builds-list" aria-label="Builds">
            {builds.map((b) => (
              <li key={b.id}>
                <BuildRow build={b} selected={props.selected === b.id} onOpen={() => props.onSelect(b.id)} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="detail-pane">
        {props.selected ? (
          <BuildDetailView key={props.selected} id={props.selected} onClose={() => props.onSelect(null)} />
        ) : (
          <StartBuildForm onStarted={(id) => props.onSelect(id)} />
        )}
      </div>
    </section>
  );
}

function BuildRow(props: { build: BuildSummary; selected: boolean; onOpen: () => void }) {
  const b = props.build;
  return (
    <button
      type="button"
      data-build-row=""
      data-testid="build-row"
      data-id={b.id}
      data-status={b.status}
      className={props.selected ? 'build-row selected' : 'build-row'}
      aria-current={props.selected ? 'true' : undefined}
      onClick={props.onOpen}
    >
      <span className="row-line">
        <span className="build-project">{b.projectName || folderName(b.workDir)}</span>
        <span className={`build-status is-${b.status}`} data-testid="build-row-status">
          {statusLabel[b.status]}
        </span>
        <span className="row-updated" title={b.createdAt}>
          {relativeTime(b.createdAt)}
        </span>
      </span>
      <span className="row-meta">
        <span className="chip subtle" data-testid="build-row-phase" title="The phase the builder is on, and how many the build has">
          {b.status === 'completed' ? `${b.totalPhases}/${b.totalPhases} phases` : `phase ${b.currentPhase} · ${b.totalPhases} in all`}
        </span>
        <span className="chip subtle" title="Input / output tokens">
          {formatTokens(b.inputTokens)} in · {formatTokens(b.outputTokens)} out
        </span>
        <span className="chip subtle">{formatCost(b.costUsd)}</span>
        {b.mini && <span className="chip subtle">mini</span>}
        {b.mode === 'dump' && <span className="chip subtle">contract dump</span>}
      </span>
      <code className="build-workdir" title={b.workDir}>
        {b.workDir}
      </code>
    </button>
  );
}
