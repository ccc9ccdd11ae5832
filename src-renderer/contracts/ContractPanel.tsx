import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ContractProblem, ContractScope } from '../../src-main/api/contracts';
import { isApiError, readableMessage } from '../api/errors';
import { useClient, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { useUnsavedGuard } from '../app/useUnsavedGuard';
import { ContractEditor } from './ContractEditor';
import { ContractVersions } from './ContractVersions';
import { languageOf, problemsSummary, SAVE_BLOCK_TEXT, saveBlock } from './model';

/** How long typing must pause before the text is checked. */
const VALIDATE_DELAY_MS = 300;

interface Base {
  text: string;
  version: number;
  hash: string;
}

/**
 * One contract open for editing: its text in Monaco, checked as the PM types (problems inline and
 * listed below), saved only when changed and valid, with the version it became, a conflict
 * message with Reload when the file changed elsewhere, and its kept versions to compare against.
 */
export function ContractPanel(props: { scope: ContractScope; name: string; onDirtyChange: (dirty: boolean) => void }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const read = useProcedure('contracts/read', { ...props.scope, name: props.name });
  const [base, setBase] = useState<Base | null>(null);
  const [draft, setDraft] = useState('');
  const [docKey, setDocKey] = useState(0);
  const [check, setCheck] = useState<{ text: string; problems: ContractProblem[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'saved' | 'conflict' | 'error'; text: string } | null>(null);
  const [reveal, setReveal] = useState<{ line: number; column: number; n: number } | null>(null);
  const forceReload = useRef(false);
  const validation = useRef(0);

  const dirty = base !== null && draft !== base.text;
  const { onDirtyChange } = props;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  // A read that brings another text (first load, Reload after a conflict) replaces the editor's
  // content; a refetch of the text just saved does not disturb the PM's typing.
  useEffect(() => {
    const d = read.data;
    if (!d) return;
    if (base && !forceReload.current && base.hash === d.hash && base.version === d.version) return;
    if (base && dirty && !forceReload.current) return;
    forceReload.current = false;
    setBase({ text: d.text, version: d.version, hash: d.hash });
    setDraft(d.text);
    setDocKey((k) => k + 1);
  }, [read.data, base, dirty]);

  // Checked as the PM types: the newest answer wins, an older one arriving late is dropped.
  useEffect(() => {
    if (!base) return;
    const n = ++validation.current;
    const text = draft;
    const timer = setTimeout(() => {
      client
        .call('contracts/validate', { name: props.name, text })
        .then((r) => {
          if (n === validation.current) setCheck({ text, problems: r.problems });
        })
        .catch(() => {
          // Could not check (link down): Save stays off until a check succeeds.
        });
    }, VALIDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, base, client, props.name]);

  // Leaving for another contract or screen, or closing the window, asks before edits are lost.
  useUnsavedGuard(dirty, props.name);

  const problems = check?.text === draft ? check.problems : (check?.problems ?? []);
  const errors = check?.text === draft ? check.problems.filter((p) => p.severity === 'error').length : 0;
  const block = saveBlock({ dirty, checkedText: check?.text ?? null, text: draft, errors, saving });

  const save = async () => {
    if (block !== null || !base) return;
    setSaving(true);
    setNotice(null);
    const text = draft;
    try {
      const r = await client.call('contracts/save', { ...props.scope, name: props.name, text, expectedVersion: base.version, expectedHash: base.hash });
      setBase({ text, version: r.version, hash: r.hash });
      setNotice({ kind: 'saved', text: r.changed ? `Saved as version ${r.version}.` : `Nothing changed: this is version ${r.version}.` });
      for (const key of ['contracts/list', 'contracts/versions', 'contracts/read']) void queryClient.invalidateQueries({ queryKey: [key] });
    } catch (e) {
      if (isApiError(e) && e.code === 'conflict') setNotice({ kind: 'conflict', text: e.message });
      else setNotice({ kind: 'error', text: readableMessage(e) });
    } finally {
      setSaving(false);
    }
  };

  const reload = () => {
    if (dirty && !window.confirm('Reload the contract from disk and discard your unsaved changes?')) return;
    forceReload.current = true;
    setNotice(null);
    void read.refetch();
  };

  if (read.error && !read.data) return <ErrorPanel error={read.error} onRetry={() => void read.refetch()} />;
  const kind = read.data?.kind ?? 'md';

  return (
    <div className="contract-panel" data-testid="contract-panel">
      <header className="contract-panel-header">
        <div>
          <h2 data-testid="contract-name">{props.name}</h2>
          <p className="muted contract-panel-meta">
            {base ? (base.version > 0 ? `Version ${base.version}` : 'Not yet saved in Forge') : 'Loading…'}
            {dirty && <span className="chip contract-unsaved">Unsaved changes</span>}
          </p>
        </div>
        <div className="contract-panel-actions">
          <button type="button" className="button small" onClick={reload} disabled={read.isFetching}>
            Reload
          </button>
          <button
            type="button"
            className="button primary"
            data-testid="contract-save"
            onClick={() => void save()}
            disabled={block !== null}
            title={block ? SAVE_BLOCK_TEXT[block] : 'Save (Ctrl/Cmd+S)'}
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </header>
      {notice && (
        <div className={`contract-notice is-${notice.kind}`} role={notice.kind === 'saved' ? 'status' : 'alert'} data-testid="contract-notice">
          {notice.text}
          {notice.kind === 'conflict' && (
            <button type="button" className="button small" onClick={reload}>
              Reload from disk
            </button>
          )}
        </div>
      )}
      <ContractEditor
        docKey={`${props.name}:${docKey}`}
        text={draft}
        language={languageOf(kind)}
        label={`${props.name} (editable; Ctrl/Cmd+S saves)`}
        problems={problems}
        onChange={setDraft}
        onSave={() => void save()}
        reveal={reveal}
      />
      <section className="contract-problems" aria-labelledby="contract-problems-title" data-testid="contract-problems">
        <h3 id="contract-problems-title">
          Problems <span className="muted">{check ? problemsSummary(problems) : 'Checking…'}</span>
          {block && block !== 'saving' && <span className="muted contract-save-hint"> · {SAVE_BLOCK_TEXT[block]}</span>}
        </h3>
        {problems.length > 0 && (
          <ul>
            {problems.map((p) => (
              <li key={`${p.line}:${p.column}:${p.path}:${p.message}`} className={`is-${p.severity}`}>
                <button type="button" className="contract-problem" onClick={() => setReveal({ line: p.line, column: p.column, n: Date.now() })}>
                  <span className="contract-problem-where">
                    {p.line}:{p.column}
                  </span>
                  {p.path !== '(syntax)' && p.path !== '(document)' && <code>{p.path}</code>}
                  <span>{p.message}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ContractVersions scope={props.scope} name={props.name} current={draft} language={languageOf(kind)} />
    </div>
  );
}
