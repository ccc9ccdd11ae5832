import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { readableMessage } from '../api/errors';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import './data-folder.css';

type FolderView = ProcedureOutput<'providers/data-folder'>;
type FileView = FolderView['files'][number];

/** The folder is watched by the core; the screen asks again this often (and when the window regains focus). */
const REFRESH_MS = 3_000;

/**
 * Settings → Data → "Your data folder": where the PM's exports are read from, a field to choose
 * another folder, and each file as Forge reads it — its datasets and series, the dialect it
 * detected, and what is wrong with it. The sample files follow, folded away.
 */
export function DataFolder() {
  const queryClient = useQueryClient();
  const view = useProcedure('providers/data-folder', {}, { refetchInterval: REFRESH_MS, refetchOnWindowFocus: true, staleTime: 0 });
  const onSaved = (next: FolderView) => {
    queryClient.setQueryData(procedureKey('providers/data-folder', {}), next);
    // The datasets source's description counts the new folder's datasets.
    void queryClient.invalidateQueries({ queryKey: procedureKey('providers/list') });
  };
  const v = view.data;
  const mine = v?.files.filter((f) => f.origin === 'folder') ?? [];
  const samples = v?.files.filter((f) => f.origin === 'sample') ?? [];

  return (
    <section className="data-section" aria-labelledby="data-folder-title" data-testid="data-folder">
      <h2 id="data-folder-title">Your data folder</h2>
      <p className="hint data-section-lead">
        Drop CSV, TSV or Excel (.xlsx) exports here: Forge reads each as soon as it changes. Name a series in an Expression as <code>dataset.column</code> (for
        example <code>spy.us.Close</code>); a workbook with several sheets gives one dataset per sheet, <code>file.sheet</code>.
      </p>
      {view.isPending && <p className="muted">Loading…</p>}
      {view.isError && <ErrorPanel error={view.error} onRetry={() => void view.refetch()} inline testId="data-folder-error" />}
      {v && (
        <div className="card data-folder-card">
          {v.folder === null ? (
            <p className="muted" data-testid="data-folder-demo">
              The demo workspace reads only its sample files.
            </p>
          ) : (
            <>
              <dl className="facts data-provider-facts">
                <dt>Folder</dt>
                <dd>
                  <code data-testid="data-folder-path">{v.folder}</code> {v.isDefault && <span className="badge">default</span>}
                  {!v.exists && (
                    <span className="data-folder-missing" data-testid="data-folder-missing">
                      {' '}
                      — this folder does not exist now; make it again or choose another.
                    </span>
                  )}
                </dd>
              </dl>
              <FolderForm view={v} onSaved={onSaved} />
            </>
          )}
          {v.folder !== null && (
            <ul className="data-folder-files" data-testid="data-folder-files" aria-label="Your files">
              {mine.length === 0 && <li className="muted">No data files in the folder yet.</li>}
              {mine.map((f) => (
                <FileRow key={f.file} file={f} />
              ))}
            </ul>
          )}
          {samples.length > 0 && (
            <details className="data-disclosure" open={v.folder === null}>
              <summary data-testid="data-folder-samples-open">Sample files ({samples.length})</summary>
              <ul className="data-folder-files" aria-label="Sample files">
                {samples.map((f) => (
                  <FileRow key={f.file} file={f} />
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </section>
  );
}

/** A path typed by the PM (the browser has no folder picker that gives a path); empty goes back to the default. */
function FolderForm(props: { view: FolderView; onSaved: (view: FolderView) => void }) {
  const current = props.view.isDefault ? '' : (props.view.folder ?? '');
  const [value, setValue] = useState(current);
  const [done, setDone] = useState(false);
  const save = useProcedureMutation('providers/set-data-folder');
  // A folder changed elsewhere (another window, the API) shows here unless the PM is typing.
  useEffect(() => {
    if (!save.isPending) setValue((v) => (v === '' || v === current ? current : v));
  }, [current, save.isPending]);

  const submit = (folder: string) =>
    save.mutate(
      { folder },
      {
        onSuccess: (next) => {
          setValue(next.isDefault ? '' : (next.folder ?? ''));
          setDone(true);
          props.onSaved(next);
        },
      },
    );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    submit(value.trim());
  };
  const error = save.isError ? readableMessage(save.error) : null;

  return (
    <form className="data-folder-form" onSubmit={onSubmit} noValidate>
      <div className={error ? 'field data-field has-error' : 'field data-field'}>
        <label htmlFor="data-folder-input">Use another folder</label>
        <div className="data-inline">
          <input
            id="data-folder-input"
            type="text"
            data-testid="data-folder-input"
            placeholder={props.view.defaultFolder ?? ''}
            spellCheck={false}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby="data-folder-input-hint"
            onChange={(e) => {
              setDone(false);
              setValue(e.target.value);
            }}
          />
          <button type="submit" className="button small" data-testid="data-folder-save" disabled={save.isPending || value.trim() === current}>
            Save
          </button>
          {!props.view.isDefault && (
            <button type="button" className="button small" data-testid="data-folder-reset" disabled={save.isPending} onClick={() => submit('')}>
              Use the default
            </button>
          )}
        </div>
        <p className="hint" id="data-folder-input-hint">
          The full path of a folder Forge can read; leave empty for {props.view.defaultFolder}.
        </p>
        {error && (
          <p className="field-error" data-testid="data-folder-input-error">
            {error}
          </p>
        )}
        <p className="form-status" role="status" aria-live="polite">
          {done && <span className="saved">Saved</span>}
        </p>
      </div>
    </form>
  );
}

function FileRow(props: { file: FileView }) {
  const f = props.file;
  return (
    <li className="data-folder-file" data-testid="data-file" data-file={f.file}>
      <div className="data-folder-file-head">
        <strong className="data-folder-file-name">{f.file}</strong>
        <span className="hint">
          {formatBytes(f.bytes)} · changed {f.modified.slice(0, 16).replace('T', ' ')} UTC
        </span>
      </div>
      {f.datasets.map((d) => {
        // As an Expression's price_series names them: a space would split the list (`Adj Close` → `Adj_Close`).
        const series = (d.first !== null ? d.columns.slice(1) : d.columns).map((c) => c.trim().replace(/\s+/g, '_'));
        return (
          <p className="data-folder-dataset" key={d.name} data-testid="data-file-dataset">
            <code>{d.name}</code>
            {d.sheet !== null && <span className="hint"> (sheet {d.sheet})</span>}: {d.rows} rows
            {d.first !== null && (
              <>
                , {d.first} to {d.last}
              </>
            )}
            . Series: {series.map((c) => `${d.name}.${c}`).join(', ') || 'none'}
          </p>
        );
      })}
      {f.dialect && (
        <p className="hint data-folder-dialect" data-testid="data-file-dialect">
          Read as: {readableDialect(f.dialect)}
        </p>
      )}
      {f.problems.map((p) => (
        <p className="data-folder-problem" data-testid="data-file-problem" key={p}>
          {p}
        </p>
      ))}
    </li>
  );
}

/** The core writes the delimiter as the character (`, delimited`); a sentence on screen names it. */
function readableDialect(dialect: string): string {
  const names: Record<string, string> = { ',': 'comma', ';': 'semicolon' };
  return dialect.replace(/^([,;]) delimited/, (_, d: string) => `${names[d]} delimited`);
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 102.4) / 10} KB`;
  return `${Math.round(n / 104857.6) / 10} MB`;
}
