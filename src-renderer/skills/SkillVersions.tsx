import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SkillVersionView } from '../../src-main/api/proposals';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { formatWhen } from '../proposals/model';

/** `.versions/SKILL.md@2` is a kept version's text; the file bar then offers Restore. */
export function isVersionSnapshot(path: string): boolean {
  return path.startsWith('.versions/');
}

/** Where a version came from: "approved SEP-001", "restored v1", or the reason recorded with it. */
export function versionCaption(v: Pick<SkillVersionView, 'proposalId' | 'restoredFrom' | 'reason'>): string {
  if (v.proposalId) return `approved ${v.proposalId}`;
  if (v.restoredFrom !== null) return `restored v${v.restoredFrom}`;
  return v.reason;
}

/**
 * The skill's kept versions, newest first per file, in the file list: opening one shows its text
 * read-only, and the file bar offers to restore it. Empty until the first approved edit.
 */
export function VersionsGroup(props: { skill: string; path: string; onOpenFile: (path: string) => void }) {
  const versions = useProcedure('skills/versions', { skill: props.skill }, { staleTime: 10_000 });
  const list = versions.data?.versions ?? [];
  return (
    <section className="skill-file-group skill-versions" data-testid="skill-versions">
      <h2 title="Every text a file had through Forge: before the first approved edit, each edit, each restore">Versions</h2>
      {versions.isError && <p className="muted pad-small">Versions could not be read.</p>}
      {versions.data && list.length === 0 && <p className="muted skill-versions-none">No edits yet. Approved proposals are kept here as versions.</p>}
      {list.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: Safari drops list semantics from a <ul> styled list-style: none unless the role is explicit.
        <ul role="list">
          {list.map((v) => (
            <li key={`${v.file}@${v.version}`}>
              <button
                type="button"
                className={v.snapshot === props.path ? 'skill-file selected' : 'skill-file'}
                aria-current={v.snapshot === props.path ? 'true' : undefined}
                data-testid="skill-version"
                data-file={v.file}
                data-version={v.version}
                data-current={v.current}
                onClick={() => props.onOpenFile(v.snapshot)}
                title={`${v.file} version ${v.version}: ${v.reason}, by ${v.by} on ${formatWhen(v.createdAt)}`}
              >
                <span className="skill-version-line">
                  <span className="skill-file-name">
                    {v.file} v{v.version}
                  </span>
                  {v.current && <span className="skill-file-size">current</span>}
                </span>
                <span className="skill-version-why">{versionCaption(v)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Above an open version: who made it and why, and Restore (with a confirmation). */
export function VersionBar(props: { skill: string; path: string; onOpenFile: (path: string) => void }) {
  const queryClient = useQueryClient();
  const versions = useProcedure('skills/versions', { skill: props.skill }, { staleTime: 10_000 });
  const restore = useProcedureMutation('skills/restore');
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const v = versions.data?.versions.find((x) => x.snapshot === props.path);
  if (!v) return null;

  const doRestore = () =>
    restore.mutate(
      { skill: props.skill, file: v.file, version: v.version },
      {
        onSuccess: (r) => {
          setDone(
            r.changed ? `Restored: ${v.file} is now version ${r.version.version}, the text of version ${v.version}.` : `${v.file} already has this text.`,
          );
          for (const key of ['skills/versions', 'skills/read', 'skills/list']) void queryClient.invalidateQueries({ queryKey: [key] });
          void queryClient.invalidateQueries({ queryKey: procedureKey('skills/read', { name: props.skill, path: v.file }) });
        },
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <div className="skill-version-bar" data-testid="skill-version-bar">
      <p>
        <strong>
          {v.file}, version {v.version}
        </strong>
        {v.current ? ' (the text in use now)' : ''} — {v.reason}, by {v.by} on {formatWhen(v.createdAt)}.{' '}
        <button type="button" className="link-button" onClick={() => props.onOpenFile(v.file)}>
          Open the current {v.file}
        </button>
      </p>
      {!v.current && !confirming && (
        <button type="button" className="button small" data-testid="skill-restore" onClick={() => setConfirming(true)} disabled={restore.isPending}>
          Restore this version…
        </button>
      )}
      {confirming && (
        <div className="skill-restore-confirm" role="group" aria-label="Confirm the restore">
          <span>
            Replace the current {v.file} with version {v.version}? The current text is kept as a version too.
          </span>
          <button type="button" className="button small primary" data-testid="skill-restore-confirm" onClick={doRestore} disabled={restore.isPending}>
            {restore.isPending ? 'Restoring…' : `Restore version ${v.version}`}
          </button>
          <button type="button" className="button small" onClick={() => setConfirming(false)} disabled={restore.isPending}>
            Cancel
          </button>
        </div>
      )}
      {done && (
        <p className="saved" role="status" data-testid="skill-restored">
          {done}
        </p>
      )}
      {restore.isError && <ErrorPanel error={restore.error} inline />}
    </div>
  );
}
