import { useCallback, useRef, useState } from 'react';
import type { ContractScope } from '../../src-main/api/contracts';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { ContractPanel } from './ContractPanel';
import { formatBytes, storedScope, storeScope } from './model';
import './contracts.css';

const DISCARD = 'You have unsaved changes to this contract. Discard them?';

/**
 * Contracts: Forge's governance contracts (what the MCP server gives attached IDEs) or a build
 * project's Forge/Contracts/, listed on the left and edited on the right.
 */
export function ContractsScreen(props: { selected: string | null; onSelect: (name: string | null) => void }) {
  const info = screenInfo.contracts;
  const [scope, setScope] = useState<ContractScope>(() => storedScope());
  const [pathDraft, setPathDraft] = useState(scope.projectPath ?? '');
  const [choosingFolder, setChoosingFolder] = useState(false);
  const dirty = useRef(false);
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);
  const list = useProcedure('contracts/list', scope);
  const builds = useProcedure('builds/list', {});
  const projects = [...new Map((builds.data?.builds ?? []).map((b) => [b.workDir, b.projectName])).entries()];

  // Another contract is another address: the app's unsaved-changes guard asks on the way out.
  const choose = (name: string) => {
    if (name !== props.selected) props.onSelect(name);
  };
  // Another folder keeps the address, so this switch asks itself.
  const open = (next: ContractScope) => {
    if (dirty.current && !window.confirm(DISCARD)) return;
    dirty.current = false;
    storeScope(next);
    setScope(next);
    setChoosingFolder(false);
  };

  const scopeValue = scope.projectPath ? `project:${scope.projectPath}` : 'forge';
  const contracts = list.data?.contracts ?? [];
  const selected = props.selected && contracts.some((c) => c.name === props.selected) ? props.selected : null;

  return (
    <section className="screen memory-screen contracts-screen" data-testid="screen-contracts" aria-labelledby="title-contracts">
      <div className="list-pane">
        <header className="screen-header compact">
          <h1 id="title-contracts">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>
        <div className="contracts-scope">
          <label>
            <span>Contracts of</span>
            <select
              value={choosingFolder ? 'folder' : scopeValue}
              data-testid="contracts-scope"
              onChange={(e) => {
                const v = e.target.value;
                if (v === 'folder') setChoosingFolder(true);
                else if (v === 'forge') open({});
                else open({ projectPath: v.slice('project:'.length) });
              }}
            >
              <option value="forge">Forge (served to IDEs over MCP)</option>
              {projects.map(([dir, name]) => (
                <option key={dir} value={`project:${dir}`}>
                  Project: {name}
                </option>
              ))}
              {scope.projectPath && !projects.some(([dir]) => dir === scope.projectPath) && <option value={scopeValue}>Project: {scope.projectPath}</option>}
              <option value="folder">A project folder…</option>
            </select>
          </label>
          {choosingFolder && (
            <form
              className="contracts-folder"
              onSubmit={(e) => {
                e.preventDefault();
                if (pathDraft.trim()) open({ projectPath: pathDraft.trim() });
              }}
            >
              <label>
                <span>Project folder (holds Forge/Contracts/)</span>
                <input
                  value={pathDraft}
                  maxLength={4096}
                  onChange={(e) => setPathDraft(e.target.value)}
                  placeholder="/path/to/project"
                  data-testid="contracts-folder"
                />
              </label>
              <button type="submit" className="button small" disabled={!pathDraft.trim()}>
                Open
              </button>
            </form>
          )}
        </div>
        {list.data && (
          <p className="list-summary muted contracts-folder-path" title={list.data.folder}>
            {contracts.length} {contracts.length === 1 ? 'contract' : 'contracts'} in {list.data.folder}
          </p>
        )}
        {list.error && (
          <div className="empty-list">
            <ErrorPanel inline error={list.error} onRetry={() => void list.refetch()} />
          </div>
        )}
        {list.data && contracts.length === 0 && <div className="empty-list">No .md, .json or .yaml files in this folder yet.</div>}
        {contracts.length > 0 && (
          <ul className="contracts-list" aria-label="Contracts" data-testid="contracts-list">
            {contracts.map((c) => (
              <li key={c.name}>
                <button
                  type="button"
                  className={c.name === selected ? 'contract-row selected' : 'contract-row'}
                  aria-current={c.name === selected ? 'true' : undefined}
                  onClick={() => choose(c.name)}
                >
                  <span className="row-line">
                    <span className="contract-row-name">{c.name}</span>
                    <span className="chip subtle">{c.kind.toUpperCase()}</span>
                  </span>
                  {c.brief && <span className="contract-row-brief">{c.brief}</span>}
                  <span className="row-meta muted">
                    {formatBytes(c.bytes)} · {new Date(c.updatedAt).toLocaleDateString()} · {c.versions} {c.versions === 1 ? 'version' : 'versions'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="detail-pane">
        {selected ? (
          <ContractPanel key={`${scopeValue}|${selected}`} scope={scope} name={selected} onDirtyChange={onDirtyChange} />
        ) : (
          <div className="empty-state subtle" data-testid="contracts-empty">
            <p>Pick a contract on the left to read and edit it. It is checked as you type; each save keeps the text it replaces as a version.</p>
          </div>
        )}
      </div>
    </section>
  );
}
