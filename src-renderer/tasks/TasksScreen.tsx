import { ErrorPanel } from '../app/ErrorPanel';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TaskView } from '../../src-main/api/tasks';
import { useProcedure } from '../api/hooks';
import { Icon } from '../app/Icon';
import { screenInfo } from '../app/screens';
import { relativeTime } from '../memory/format';
import { TaskDetail } from './TaskDetail';
import { tasksListInput } from './live';
import { formatCost, formatDuration, formatTokens, groupBySession, isLive, statusLabel, verdictLabel, type TaskStatus } from './model';
import './tasks.css';

type Filter = 'all' | 'live' | 'failed' | 'done';
const filters: { key: Filter; label: string; match: (s: TaskStatus) => boolean }[] = [
  { key: 'all', label: 'All', match: () => true },
  { key: 'live', label: 'In progress', match: (s) => isLive({ status: s }) },
  { key: 'failed', label: 'Failed or cancelled', match: (s) => s === 'failed' || s === 'cancelled' },
  { key: 'done', label: 'Done', match: (s) => s === 'ok' },
];

/**
 * The sub-agents the analyst dispatched, grouped by session, each placed under the tasks it waits
 * on. Updates arrive as `tasks/changed` events merged into the listing (see live.ts), so nothing
 * here polls.
 */
export function TasksScreen(props: { selected: { sessionId: string; id: string } | null; onSelect: (t: { sessionId: string; id: string } | null) => void }) {
  const info = screenInfo.tasks;
  const list = useProcedure('tasks/list', tasksListInput, { staleTime: 30_000 });
  const [filter, setFilter] = useState<Filter>('all');
  const listRef = useRef<HTMLDivElement>(null);

  const all = list.data?.tasks ?? [];
  const match = filters.find((f) => f.key === filter)!.match;
  const groups = useMemo(() => groupBySession(all.filter((t) => match(t.status))), [all, match]);
  const live = all.filter(isLive).length;

  // Up/Down move between task rows like a list; Enter/Space open (they are buttons).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-task-row]') ?? []);
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at - 1);
    e.preventDefault();
    rows[next]?.focus();
  };

  let summary = '';
  if (list.isPending) summary = 'Loading…';
  else if (!list.isError) {
    summary = `${all.length} ${all.length === 1 ? 'task' : 'tasks'}`;
    if (live > 0) summary += ` · ${live} in progress`;
  }

  return (
    <section className="screen memory-screen tasks-screen" data-testid="screen-tasks" aria-labelledby="title-tasks">
      <div className="list-pane">
        <header className="screen-header compact">
          <h1 id="title-tasks">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>
        <div className="chip-row tasks-filters" role="group" aria-label="Show tasks">
          {filters.map((f) => (
            <button
              key={f.key}
              type="button"
              className="chip"
              data-testid={`tasks-filter-${f.key}`}
              aria-pressed={filter === f.key}
              onClick={() => setFilter(f.key)}
            >
              {f.label}
            </button>
          ))}
        </div>
        <div className="list-summary" aria-live="polite">
          {summary}
          {list.isFetching && !list.isPending && <span className="spinner" role="img" aria-label="Updating" />}
        </div>
        {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && all.length === 0 && (
          <div className="empty-list">
            <p>Nothing dispatched yet.</p>
          </div>
        )}
        {list.data && all.length > 0 && groups.length === 0 && (
          <div className="empty-list">
            <p>No tasks are {filters.find((f) => f.key === filter)!.label.toLowerCase()}.</p>
          </div>
        )}
        {groups.length > 0 && (
          // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys bubble up from the task row buttons inside; the container itself is never focused.
          <div className="tasks-list" ref={listRef} onKeyDown={onKeyDown} data-testid="tasks-list">
            {groups.map((g) => (
              <section key={g.sessionId} className="task-session" aria-label={`Session ${g.sessionId}`} data-testid="task-session">
                <h2 className="task-session-head">
                  <span>Session</span> <code>{g.sessionId}</code>
                  <span className="task-session-counts">
                    {(Object.keys(g.counts) as TaskStatus[]).map((s) => (
                      <span key={s} className={`task-status is-${s}`}>
                        {g.counts[s]} {statusLabel[s]}
                      </span>
                    ))}
                  </span>
                </h2>
                <ul className="task-rows">
                  {g.rows.map(({ task, depth }) => (
                    <li key={task.id} style={{ paddingLeft: `${depth * 18}px` }}>
                      <TaskRowButton
                        task={task}
                        depth={depth}
                        selected={props.selected?.sessionId === task.sessionId && props.selected.id === task.id}
                        onOpen={() => props.onSelect({ sessionId: task.sessionId, id: task.id })}
                      />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </div>
      <div className="detail-pane">
        {list.data && all.length === 0 && !props.selected ? (
          <div className="empty-state subtle" data-testid="tasks-empty">
            <div className="empty-icon">
              <Icon name="tasks" size={30} />
            </div>
            <h2>No sub-agent tasks yet</h2>
            <p>
              When the analyst delegates work — checking a View, designing a trade, a morning review — each sub-agent appears here as it is dispatched, with its
              dependencies, progress, tokens, cost and validation. You can open its full output, retry a failure or cancel one that is still working.
            </p>
            <p className="muted">The offline demo runs on a copy of the sample workspace, so its work does not appear here.</p>
          </div>
        ) : props.selected ? (
          <TaskDetail
            key={`${props.selected.sessionId}/${props.selected.id}`}
            sessionId={props.selected.sessionId}
            id={props.selected.id}
            onClose={() => props.onSelect(null)}
            onOpen={props.onSelect}
          />
        ) : (
          <div className="empty-state subtle">
            <div className="empty-icon">
              <Icon name="tasks" size={30} />
            </div>
            <h2>Select a task</h2>
            <p>Pick one from the list to read its full output, validation and what happened step by step.</p>
          </div>
        )}
      </div>
    </section>
  );
}

function TaskRowButton(props: { task: TaskView; depth: number; selected: boolean; onOpen: () => void }) {
  const t = props.task;
  return (
    <button
      type="button"
      data-task-row=""
      data-testid="task-row"
      data-id={t.id}
      data-status={t.status}
      className={props.selected ? 'task-row selected' : 'task-row'}
      aria-current={props.selected ? 'true' : undefined}
      onClick={props.onOpen}
    >
      <span className="row-line">
        {props.depth > 0 && (
          <span className="task-branch" aria-hidden="true">
            ↳
          </span>
        )}
        <span className="row-id">{t.id}</span>
        <span className="chip">{t.skill}</span>
        <span className={`task-status is-${t.status}`}>{statusLabel[t.status]}</span>
        <span className="row-updated" title={t.createdAt}>
          {relativeTime(t.createdAt)}
        </span>
      </span>
      <span className="task-objective">{t.objective}</span>
      <span className="row-meta">
        {t.dependsOn.length > 0 && <span className="chip subtle">after {t.dependsOn.join(', ')}</span>}
        {t.retryOf && <span className="chip subtle">retry of {t.retryOf}</span>}
        <span className="chip subtle" title="Time from start to finish (or to now)">
          {formatDuration(t.durationMs)}
        </span>
        <span className="chip subtle" title="Input / output tokens">
          {formatTokens(t.inputTokens)} in · {formatTokens(t.outputTokens)} out
        </span>
        <span className="chip subtle">{formatCost(t.costUsd)}</span>
        {t.validation && (
          <span className={`chip verdict-${t.validation.verdict}`}>
            {t.validation.contrastive ? 'contrastive ' : ''}check {verdictLabel[t.validation.verdict]}
          </span>
        )}
      </span>
    </button>
  );
}
