import { useState } from 'react';
import type { ContractScope } from '../../src-main/api/contracts';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { ContractDiff } from './ContractDiff';
import { formatBytes } from './model';

/** The kept versions of a contract; Compare shows one beside the text in the editor. */
export function ContractVersions(props: { scope: ContractScope; name: string; current: string; language: string }) {
  const versions = useProcedure('contracts/versions', { ...props.scope, name: props.name });
  const [open, setOpen] = useState<number | null>(null);
  const old = useProcedure('contracts/read', { ...props.scope, name: props.name, version: open ?? 1 }, { enabled: open !== null });
  const list = versions.data?.versions ?? [];

  return (
    <section className="contract-versions" aria-labelledby="contract-versions-title" data-testid="contract-versions">
      <h3 id="contract-versions-title">Versions</h3>
      {versions.error && <ErrorPanel inline error={versions.error} onRetry={() => void versions.refetch()} />}
      {!versions.error && list.length === 0 && <p className="muted">No versions yet: the first save keeps the text it replaces as version 1.</p>}
      {list.length > 0 && (
        <ul>
          {list.map((v) => (
            <li key={v.version}>
              <span className="contract-version-number">v{v.version}</span>
              <span className="muted">
                {new Date(v.createdAt).toLocaleString()} · {v.by} · {v.reason} · {formatBytes(v.bytes)}
              </span>
              {v.current && <span className="chip">on disk</span>}
              <button type="button" className="button small" aria-pressed={open === v.version} onClick={() => setOpen(open === v.version ? null : v.version)}>
                {open === v.version ? 'Close' : 'Compare'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {open !== null && old.error && <ErrorPanel inline error={old.error} onRetry={() => void old.refetch()} />}
      {open !== null && old.data && (
        <ContractDiff
          original={old.data.text}
          modified={props.current}
          language={props.language}
          originalLabel={`Version ${open}`}
          modifiedLabel="In the editor"
        />
      )}
    </section>
  );
}
