import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { skillScriptRows, type SkillScriptRow } from './skill-scripts';
import './skill-scripts.css';

/**
 * Settings → Skills: the installed skills, with an "Allow scripts" switch for each one that ships
 * Python or shell scripts. Off by default; saved in the settings file by skills/allow-scripts.
 */
export function SkillScriptsSection() {
  const list = useProcedure('skills/list', {}, { staleTime: 15_000 });
  const rows = list.data ? skillScriptRows(list.data.skills) : [];
  return (
    <section className="card" aria-labelledby="skills-settings-title" data-testid="settings-skills">
      <h2 id="skills-settings-title">Skills</h2>
      <p className="hint">
        Skills you download and drop into the skills folder may carry Python or shell scripts. Forge runs them only for the skills you allow here, and then only
        inside a sandbox (bubblewrap on Linux): no network, no access to your files, writes only to a scratch folder that is deleted afterwards. Where no
        sandbox is available they are refused.
      </p>
      {list.isPending && <p className="muted">Loading skills…</p>}
      {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <p className="muted">No skills are installed.</p>}
      {rows.length > 0 && (
        <ul className="skill-scripts-list" aria-label="Skills and their scripts">
          {rows.map((r) => (
            <li key={r.name}>
              <SkillScriptSwitch row={r} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SkillScriptSwitch(props: { row: SkillScriptRow }) {
  const { row } = props;
  const queryClient = useQueryClient();
  const allow = useProcedureMutation('skills/allow-scripts');
  // The PM's choice shows at once and stays until the refreshed list agrees (or the save fails),
  // so the switch never flicks back while the list is being re-read.
  const [wanted, setWanted] = useState<boolean | null>(null);
  useEffect(() => {
    if (wanted !== null && Boolean(row.allowed) === wanted) setWanted(null);
  }, [row.allowed, wanted]);
  const checked = wanted ?? Boolean(row.allowed);
  const id = `skill-scripts-${row.name}`;
  return (
    <div className="skill-scripts-row" data-testid="skill-scripts-row" data-name={row.name}>
      <div className="skill-scripts-head">
        {row.allowed === null ? (
          <strong>{row.name}</strong>
        ) : (
          <label htmlFor={id} className="skill-scripts-label">
            <input
              id={id}
              type="checkbox"
              role="switch"
              checked={checked}
              aria-checked={checked}
              aria-describedby={`${id}-note`}
              disabled={allow.isPending}
              data-testid="skill-allow-scripts"
              onChange={(e) => {
                setWanted(e.target.checked);
                allow.mutate(
                  { name: row.name, allow: e.target.checked },
                  {
                    onError: () => setWanted(null),
                    onSettled: () => void queryClient.invalidateQueries({ queryKey: procedureKey('skills/list') }),
                  },
                );
              }}
            />{' '}
            <strong>{row.name}</strong> — Allow scripts
          </label>
        )}
      </div>
      <p className="hint" id={`${id}-note`}>
        {row.note}
        {row.allowed !== null && row.scripts.length > 0 && (
          <>
            {' '}
            Scripts:{' '}
            {row.scripts.map((s, i) => (
              <span key={s}>
                {i > 0 && ', '}
                <code>{s}</code>
              </span>
            ))}
            .
          </>
        )}
      </p>
      {allow.isError && <ErrorPanel error={allow.error} inline />}
    </div>
  );
}
