import { useRef, useState, type KeyboardEvent } from 'react';
import type { SkillView } from '../../src-main/api/skills';
import { useProcedure } from '../api/hooks';
import { Icon } from '../app/Icon';
import { screenInfo } from '../app/screens';
import { SkillDetail } from './SkillDetail';
import { matchesFilter, stateBadge } from './model';
import './skills.css';
import { ErrorPanel } from '../app/ErrorPanel';

/**
 * The analyst's skills: each folder with its validation state, and one skill open with its
 * SKILL.md and files in a read-only editor. Edits arrive as skill-edit proposals, never typed here.
 */
export function SkillsScreen(props: { selected: { name: string; path: string } | null; onSelect: (sel: { name: string; path?: string } | null) => void }) {
  const info = screenInfo.skills;
  const list = useProcedure('skills/list', {}, { staleTime: 15_000 });
  const [filter, setFilter] = useState('');
  const listRef = useRef<HTMLUListElement>(null);

  const all = list.data?.skills ?? [];
  const shown = all.filter((s) => matchesFilter(s, filter));
  const broken = all.filter((s) => s.state === 'errors').length;
  const warned = all.filter((s) => s.state === 'warnings').length;
  const selected = props.selected ? (all.find((s) => s.name === props.selected!.name) ?? null) : null;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-testid="skill-row"]') ?? []);
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at - 1);
    e.preventDefault();
    rows[next]?.focus();
  };

  let summary = '';
  if (list.isPending) summary = 'Loading…';
  else if (list.data) {
    summary = `${all.length} ${all.length === 1 ? 'skill' : 'skills'}`;
    if (broken) summary += ` · ${broken} cannot be used`;
    if (warned) summary += ` · ${warned} with warnings`;
    if (filter.trim()) summary += ` · ${shown.length} shown`;
  }

  return (
    <section className="screen memory-screen skills-screen" data-testid="screen-skills" aria-labelledby="title-skills">
      <div className="list-pane">
        <header className="screen-header compact">
          <h1 id="title-skills">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>
        <div className="query-box">
          <label className="query-input">
            <Icon name="search" size={15} />
            <input
              type="search"
              placeholder="Filter by name, purpose or tool"
              aria-label="Filter skills"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              data-testid="skills-filter"
            />
          </label>
        </div>
        <div className="list-summary" aria-live="polite" data-testid="skills-summary">
          {summary}
          {list.isFetching && !list.isPending && <span className="spinner" role="img" aria-label="Updating" />}
          <button type="button" className="button small skills-refresh" onClick={() => void list.refetch()} disabled={list.isFetching}>
            Refresh
          </button>
        </div>
        {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && all.length === 0 && (
          <div className="empty-list">
            <p>No skills are installed in this workspace’s skills folder.</p>
          </div>
        )}
        {list.data && all.length > 0 && shown.length === 0 && (
          <div className="empty-list">
            <p>No skill matches “{filter.trim()}”.</p>
          </div>
        )}
        {shown.length > 0 && (
          <ul className="skills-list" ref={listRef} onKeyDown={onKeyDown} data-testid="skills-list" aria-label="Skills">
            {shown.map((s) => (
              <li key={s.name}>
                <SkillRow skill={s} selected={selected?.name === s.name} onOpen={() => props.onSelect({ name: s.name })} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="detail-pane">
        {selected && props.selected ? (
          <SkillDetail
            key={selected.name}
            skill={selected}
            path={props.selected.path}
            onOpenFile={(path) => props.onSelect({ name: selected.name, path })}
            onClose={() => props.onSelect(null)}
          />
        ) : props.selected && list.data ? (
          <div className="empty-state subtle" role="alert">
            <h2>No skill named “{props.selected.name}”</h2>
            <p>It may have been renamed or removed from the skills folder. Pick one from the list.</p>
          </div>
        ) : (
          <div className="empty-state subtle" data-testid="skills-empty">
            <div className="empty-icon">
              <Icon name="skills" size={30} />
            </div>
            <h2>Select a skill</h2>
            <p>
              A skill is a procedure the analyst hands to a sub-agent: its instructions (SKILL.md), the template its answer follows, the references it consults
              and the scripts it runs for numbers. Open one to read it.
            </p>
            <p className="muted">Skills are read-only here; changes come through skill-edit proposals you approve.</p>
          </div>
        )}
      </div>
    </section>
  );
}

function SkillRow(props: { skill: SkillView; selected: boolean; onOpen: () => void }) {
  const s = props.skill;
  return (
    <button
      type="button"
      data-testid="skill-row"
      data-name={s.name}
      data-state={s.state}
      className={props.selected ? 'skill-row selected' : 'skill-row'}
      aria-current={props.selected ? 'true' : undefined}
      onClick={props.onOpen}
    >
      <span className="row-line">
        <span className="skill-row-name">{s.name}</span>
        <span className={`skill-state is-${s.state}`}>{stateBadge(s)}</span>
      </span>
      <span className="skill-row-description">{s.description || <em className="muted">No description</em>}</span>
      {s.allowedTools.length > 0 && (
        <span className="row-meta skill-row-tools" role="group" aria-label="Allowed tools">
          {s.allowedTools.map((t) => (
            <span key={t} className="chip subtle">
              {t}
            </span>
          ))}
        </span>
      )}
    </button>
  );
}
