import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { readableMessage } from '../api/errors';
import { ErrorPanel } from '../app/ErrorPanel';

type DeskDatabaseView = ProcedureOutput<'settings/desk-database'>;

/** Where the running workspace is, in a sentence (the URL already masked by the core). */
function runningText(view: DeskDatabaseView): string {
  if (!view.running) return 'Now: your own workspace on this machine.';
  const from =
    view.runningFrom === 'flag'
      ? ' (named by --db, which overrides this setting)'
      : view.runningFrom === 'environment'
        ? ' (named by FORGE_DB, which overrides this setting)'
        : '';
  return `Now: the desk at ${view.running}${from}.`;
}

/**
 * Settings → Desk database: the desktop app's "connect to a desk" mode. The URL goes to the core,
 * which keeps its password in the secret store; what comes back, and what this field shows again,
 * reads "***" where the password was. Saving applies at the next start.
 */
export function DeskDatabaseSection() {
  const view = useProcedure('settings/desk-database', {});
  return (
    <section className="card" aria-labelledby="desk-db-title" data-testid="settings-desk-database">
      <h2 id="desk-db-title">Desk database</h2>
      <p className="hint">
        Connect this app to your desk: the PostgreSQL database your desk shares (set up with <code>forge desk create</code>). Leave it empty to work in your own
        workspace on this machine.
      </p>
      {view.isPending && <p className="muted">Loading…</p>}
      {view.isError && <ErrorPanel error={view.error} onRetry={() => void view.refetch()} />}
      {view.data && <DeskDatabaseForm view={view.data} />}
    </section>
  );
}

function DeskDatabaseForm(props: { view: DeskDatabaseView }) {
  const { view } = props;
  const queryClient = useQueryClient();
  const save = useProcedureMutation('settings/set-desk-database');
  const test = useProcedureMutation('settings/test-desk-database');
  const [url, setUrl] = useState(view.saved ?? '');
  const [done, setDone] = useState<string | null>(null);
  // A save elsewhere (another window) shows here too, unless the PM is typing a different one.
  useEffect(() => setUrl(view.saved ?? ''), [view.saved]);

  const send = (next: string, message: string) => {
    setDone(null);
    test.reset();
    save.mutate(
      { url: next },
      {
        onSuccess: (saved) => {
          queryClient.setQueryData(procedureKey('settings/desk-database', {}), saved);
          setUrl(saved.saved ?? '');
          setDone(message);
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim()) send(url.trim(), 'Desk database saved');
  };
  const probe = test.data;

  return (
    <form onSubmit={onSubmit} aria-label="Desk database">
      <p data-testid="desk-db-running">{runningText(view)}</p>
      {view.startProblem && (
        <p className="field-error" role="alert" data-testid="desk-db-start-problem">
          {view.startProblem}
        </p>
      )}
      <label htmlFor="desk-db-url">PostgreSQL URL</label>
      <div className="secret-controls">
        <input
          id="desk-db-url"
          data-testid="desk-db-url"
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="postgres://user:password@host:5432/desk"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setDone(null);
            test.reset();
          }}
          aria-describedby="desk-db-hint"
        />
        <button
          type="button"
          className="button"
          data-testid="desk-db-test"
          disabled={test.isPending || (!url.trim() && !view.saved)}
          onClick={() => {
            setDone(null);
            test.mutate(url.trim() ? { url: url.trim() } : {});
          }}
        >
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="button" data-testid="desk-db-save" disabled={!url.trim() || save.isPending}>
          Save
        </button>
        <button
          type="button"
          className="button danger"
          data-testid="desk-db-clear"
          disabled={!view.saved || save.isPending}
          onClick={() => send('', 'Desk database cleared')}
        >
          Clear
        </button>
      </div>
      <p className="hint" id="desk-db-hint">
        The password is kept as your API keys are ({view.passwordStorage}) and never shown again: the field shows *** in its place, and saving or testing ***
        uses the saved password. A desk named by <code>forge serve --db</code> or <code>FORGE_DB</code> overrides this setting.
      </p>
      <div aria-live="polite">
        {probe && (
          <p className={probe.isDesk ? 'saved' : 'field-error'} data-testid="desk-db-test-result" data-result={probe.result}>
            {probe.isDesk ? '✓ ' : ''}
            {probe.message}
          </p>
        )}
        {test.error && <p className="field-error">{readableMessage(test.error)}</p>}
        {done && (
          <p className="saved" data-testid="desk-db-saved">
            ✓ {done}
          </p>
        )}
        {save.error && <p className="field-error">{readableMessage(save.error)}</p>}
        {view.restartNeeded && (
          <p className="hint" data-testid="desk-db-restart">
            Restart Forge to switch: {view.saved ? `it will open the desk at ${view.saved}` : 'it will open your own workspace'} at the next start.
          </p>
        )}
      </div>
    </form>
  );
}
