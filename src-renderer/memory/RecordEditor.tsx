import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useClient, useProcedureMutation } from '../api/hooks';
import { isApiError, readableMessage } from '../api/errors';
import { ErrorPanel } from '../app/ErrorPanel';
import { GuardrailBlock } from './ApprovalPanel';
import { blockedLimits, errorLine, recordTemplate, type RecordKind } from './draft';
import { MarkdownEditor } from './MarkdownEditor';
import './editor.css';

/** What memory screens show; all of it is stale after a save. */
const memoryKeys = ['memory/list', 'memory/read', 'memory/history', 'memory/audit', 'memory/search'];

type Loaded = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; version: number | null };

/**
 * The PM writes a View or an Expression: New starts from the category's template, Edit from the
 * record as it is now. Save goes through memory/write with the version the edit started from,
 * so a change made meanwhile is reported (with a way to reload) rather than overwritten.
 */
export function RecordEditor(props: {
  kind: RecordKind;
  folder: string;
  /** The record to edit; null for a new one. */
  path: string | null;
  onSaved: (path: string) => void;
  onCancel: () => void;
  /** Tells the screen whether there are unsaved changes (to ask before leaving). */
  onDirty?: (dirty: boolean) => void;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const save = useProcedureMutation('memory/write');
  const { reset: clearSaveError } = save;
  const [text, setText] = useState(() => (props.path ? '' : recordTemplate(props.kind)));
  const [original, setOriginal] = useState(text);
  const [loaded, setLoaded] = useState<Loaded>(props.path ? { state: 'loading' } : { state: 'ready', version: null });
  const noun = props.kind === 'views' ? 'View' : 'Expression';

  // The record is read once when the editor opens (and on Reload): refreshes of the screen
  // behind it must not replace what the PM is typing.
  const load = useCallback(async () => {
    if (!props.path) return;
    setLoaded({ state: 'loading' });
    try {
      const r = await client.call('memory/read', { path: props.path, depth: 'full' });
      setText(r.content);
      setOriginal(r.content);
      setLoaded({ state: 'ready', version: r.record?.version ?? null });
      clearSaveError();
    } catch (error) {
      setLoaded({ state: 'failed', error });
    }
  }, [client, props.path, clearSaveError]);
  useEffect(() => void load(), [load]);

  const dirty = text !== original;
  const { onDirty } = props;
  useEffect(() => onDirty?.(dirty), [dirty, onDirty]);

  const doSave = () => {
    if (loaded.state !== 'ready' || save.isPending) return;
    const path = props.path ?? `${props.folder}new.md`;
    save.mutate(
      { path, content: text, ...(loaded.version !== null ? { expectedVersion: loaded.version } : {}) },
      {
        onSuccess: (r) => {
          memoryKeys.forEach((k) => void queryClient.invalidateQueries({ queryKey: [k] }));
          onDirty?.(false);
          props.onSaved(r.path);
        },
      },
    );
  };

  const err = save.error;
  const line = errorLine(err);
  const limits = blockedLimits(err);
  const conflict = isApiError(err) && err.code === 'conflict';
  const id = props.path ? props.path.slice(props.folder.length).replace(/\.md$/, '') : null;
  const title = id ? `Edit ${id}` : `New ${noun}`;
  const subject = id ?? `this ${noun}`;

  return (
    <article className="record-view record-editor" data-testid="record-editor" aria-label={title}>
      <div className="record-toolbar">
        <strong className="record-editor-title">{title}</strong>
        {loaded.state === 'ready' && loaded.version !== null && <span className="chip subtle">editing version {loaded.version}</span>}
        <span className="record-path" />
        <button type="button" className="button" data-testid="editor-cancel" onClick={props.onCancel} disabled={save.isPending}>
          Cancel
        </button>
        <button type="button" className="button primary" data-testid="editor-save" onClick={doSave} disabled={loaded.state !== 'ready' || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
      <div className="record-editor-problems" aria-live="polite">
        {props.kind === 'expressions' && !err && (
          <p className="hint record-editor-note">
            Saved as <strong>proposed</strong>: the risk limits are checked on save and again when you approve it.
          </p>
        )}
        {line !== null && (
          <p className="editor-error" role="alert" data-testid="editor-parse-error" data-line={line}>
            {readableMessage(err)}
          </p>
        )}
        {limits.length > 0 && (
          <div data-testid="editor-guardrail-error">
            <GuardrailBlock
              result={{ id: subject, violations: limits, message: readableMessage(err) }}
              heading={`Not saved: ${limits.length === 1 ? 'a risk limit blocks' : `${limits.length} risk limits block`} ${subject}.`}
              hint="Nothing was saved. Resize the trade (notional, max_loss_pct, duration_impact) or link it to an existing View, then save again."
            />
          </div>
        )}
        {conflict && (
          <ErrorPanel error={err} testId="editor-conflict">
            {' '}
            <button type="button" className="button small" data-testid="editor-reload" onClick={() => void load()}>
              Reload (drops your changes)
            </button>
          </ErrorPanel>
        )}
        {err && line === null && limits.length === 0 && !conflict && <ErrorPanel error={err} testId="editor-error" />}
        {loaded.state === 'failed' && <ErrorPanel error={loaded.error} onRetry={() => void load()} />}
      </div>
      {loaded.state !== 'failed' &&
        (loaded.state === 'ready' ? (
          <MarkdownEditor
            value={text}
            onChange={setText}
            onSave={doSave}
            problem={line !== null && err ? { line, message: readableMessage(err) } : null}
            label={`${title}: the record's markdown`}
          />
        ) : (
          <p className="muted pad">Opening…</p>
        ))}
    </article>
  );
}
