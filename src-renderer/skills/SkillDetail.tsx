import { useState, type KeyboardEvent } from 'react';
import type { SkillProblemView, SkillView } from '../../src-main/api/skills';
import { useProcedure } from '../api/hooks';
import { errorHeadline, readableMessage } from '../api/errors';
import { Icon } from '../app/Icon';
import { CodeViewer } from './CodeViewer';
import { isVersionSnapshot, VersionBar, VersionsGroup } from './SkillVersions';
import { fieldLine, fileGroups, fileLabel, formatBytes, languageFor, SKILL_FILE, stateBadge } from './model';

/** One skill: what it is, what is wrong with it, its files, and the open file read-only. */
export function SkillDetail(props: { skill: SkillView; path: string; onOpenFile: (path: string) => void; onClose: () => void }) {
  const { skill } = props;
  // Keep the previous file on screen while the next loads, so the editor is reused, not rebuilt.
  const file = useProcedure('skills/read', { name: skill.name, path: props.path }, { staleTime: 10_000, placeholderData: (prev) => prev });
  const groups = fileGroups(skill);
  const errors = skill.problems.filter((p) => p.severity === 'error');
  // The problem the PM clicked: its file opens and its field's line is brought into view.
  const [focus, setFocus] = useState<{ problem: SkillProblemView; n: number } | null>(null);
  const showProblem = (problem: SkillProblemView) => {
    setFocus((f) => ({ problem, n: (f?.n ?? 0) + 1 }));
    if (problem.file !== props.path) props.onOpenFile(problem.file);
  };
  // Up/Down move between files like a list; Enter/Space open (they are buttons).
  const onFilesKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const rows = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-testid="skill-file"]'));
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    e.preventDefault();
    rows[e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at - 1)]?.focus();
  };
  const revealLine =
    focus && file.data && !file.isPlaceholderData && file.data.path === focus.problem.file ? fieldLine(file.data.text, focus.problem.field) : null;

  return (
    <article className="record-view skill-detail" data-testid="skill-detail" aria-label={`Skill ${skill.name}`}>
      <div className="record-toolbar">
        <code className="record-path">/skills/{skill.name}/</code>
        <button type="button" className="icon-button" aria-label="Close skill" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <header className="skill-head">
        <div className="skill-head-line">
          <h1 className="skill-title">{skill.name}</h1>
          <span className={`skill-state is-${skill.state}`} data-testid="skill-state">
            {stateBadge(skill)}
          </span>
          {skill.license && <span className="chip subtle">license {skill.license}</span>}
        </div>
        {skill.description && <p className="skill-description">{skill.description}</p>}
        <div className="skill-tools">
          <span className="muted">Tools it may use beyond read-only memory:</span>{' '}
          {skill.allowedTools.length ? (
            skill.allowedTools.map((t) => (
              <span key={t} className="chip">
                {t}
              </span>
            ))
          ) : (
            <span className="muted">none</span>
          )}
        </div>
        {skill.compatibility && <p className="muted skill-compat">Needs: {skill.compatibility}</p>}
        {skill.scriptPermission !== 'none' && (
          <p className="muted skill-scripts-permission" data-testid="skill-script-permission">
            {skill.scriptPermission === 'allowed'
              ? 'Its Python and shell scripts may run, sandboxed (no network, writes only to a scratch folder).'
              : 'Its Python and shell scripts will be refused until you allow them'}
            {skill.scriptPermission === 'allowed' ? ' Change this in ' : ' in '}
            <a href="#/settings">Settings → Skills</a>.
          </p>
        )}
        {skill.problems.length > 0 && (
          <div className={`skill-problems ${errors.length ? 'has-errors' : ''}`} role={errors.length ? 'alert' : 'status'} data-testid="skill-problems">
            <strong>
              {errors.length ? 'The analyst cannot use this skill until these are fixed:' : 'The analyst can use this skill; these are worth fixing:'}
            </strong>
            <ul>
              {skill.problems.map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the problem list is replaced whole on each validation and its items hold no state.
                <li key={i} className={`is-${p.severity}`}>
                  <span className="problem-severity">{p.severity}</span>{' '}
                  <button type="button" className="link-button" title={`Show ${p.field} in ${p.file}`} onClick={() => showProblem(p)}>
                    {p.file}
                  </button>{' '}
                  <code>{p.field}</code> {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        <p className="skill-readonly-note" data-testid="skill-readonly-note">
          <Icon name="proposals" size={14} />
          <span>
            Read-only here. Changes to a skill come through skill-edit proposals that you approve on the <a href="#/proposals">Proposals</a> screen; each
            approved edit is kept as a version you can restore.
          </span>
        </p>
      </header>
      <div className="skill-body">
        <nav className="skill-files" aria-label={`Files of ${skill.name}`} data-testid="skill-files" onKeyDown={onFilesKeyDown}>
          {groups.map((g) => (
            <section key={g.key} className="skill-file-group">
              <h2 title={g.hint || undefined}>{g.label}</h2>
              {/* biome-ignore lint/a11y/noRedundantRoles: Safari drops list semantics from a <ul> styled list-style: none unless the role is explicit. */}
              <ul role="list">
                {g.files.map((f) => (
                  <li key={f.path}>
                    <button
                      type="button"
                      className={f.path === props.path ? 'skill-file selected' : 'skill-file'}
                      aria-current={f.path === props.path ? 'true' : undefined}
                      data-testid="skill-file"
                      data-path={f.path}
                      onClick={() => props.onOpenFile(f.path)}
                      title={f.path}
                    >
                      <span className="skill-file-name">{g.key === 'skill' || g.key === 'other' ? f.path : fileLabel(f.path)}</span>
                      {g.key !== 'skill' && <span className="skill-file-size">{formatBytes(f.bytes)}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <VersionsGroup skill={skill.name} path={props.path} onOpenFile={props.onOpenFile} />
        </nav>
        <div className="skill-file-view">
          <div className="skill-file-bar">
            <code>{props.path}</code>
            {file.data && <span className="muted">{formatBytes(file.data.bytes)} · read-only</span>}
          </div>
          {isVersionSnapshot(props.path) && <VersionBar skill={skill.name} path={props.path} onOpenFile={props.onOpenFile} />}
          {file.isPending && !file.data && <p className="muted pad">Opening {props.path}…</p>}
          {file.isError && (
            <div className="error-panel" role="alert">
              <strong>{errorHeadline(file.error)}.</strong> {readableMessage(file.error)}{' '}
              {props.path !== SKILL_FILE && (
                <button type="button" className="button small" onClick={() => props.onOpenFile(SKILL_FILE)}>
                  Open SKILL.md
                </button>
              )}
            </div>
          )}
          {file.data?.binary && (
            <p className="muted pad" data-testid="skill-binary">
              {props.path} is not a text file ({formatBytes(file.data.bytes)}); the sub-agent receives it as an asset, not as text.
            </p>
          )}
          {file.data && !file.data.binary && (
            <CodeViewer
              text={file.data.text}
              // A kept version (`.versions/SKILL.md@2`) reads like the file it was.
              language={languageFor(file.data.path.replace(/@\d+$/, ''))}
              path={file.data.path}
              reveal={revealLine && focus ? { line: revealLine, n: focus.n } : null}
            />
          )}
        </div>
      </div>
    </article>
  );
}
