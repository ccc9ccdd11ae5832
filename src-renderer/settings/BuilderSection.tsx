import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { fieldErrors, errorHeadline, readableMessage } from '../api/errors';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { builderDraftFrom, builderPatch, parseCommands, riskyCommands, sameBuilderDraft, type BuilderField } from './builder';

/**
 * Settings → Builder: how builds get the governance contracts (fetched on demand through forge
 * tools, or all in the first message to compare), which programs run_command may start, and the
 * context budget with its compaction point. Saved as `settings.builder`, read at each build start.
 */
export function BuilderSection(props: { view: ProcedureOutput<'settings/get'> }) {
  const queryClient = useQueryClient();
  const save = useProcedureMutation('settings/set');
  const uid = useId();
  const serverDraft = useMemo(
    () => builderDraftFrom(props.view.settings.builder, props.view.builderDefaults),
    [props.view.settings.builder, props.view.builderDefaults],
  );
  const [base, setBase] = useState(serverDraft);
  const [draft, setDraft] = useState(serverDraft);
  const [localErrors, setLocalErrors] = useState<Partial<Record<BuilderField, string>>>({});
  const [savedAt, setSavedAt] = useState<Date | null>(null);

  // Changed elsewhere (another window, the CLI): follow it unless the PM is mid-edit.
  useEffect(() => {
    if (sameBuilderDraft(serverDraft, base)) return;
    if (sameBuilderDraft(draft, base)) setDraft(serverDraft);
    setBase(serverDraft);
  }, [serverDraft, base, draft]);

  const dirty = !sameBuilderDraft(draft, base);
  const server = fieldErrors(save.error, 'settings');
  const errors: Partial<Record<BuilderField, string>> = {
    commands: localErrors.commands ?? server['builder.allowedCommands'] ?? firstUnder(server, 'builder.allowedCommands.'),
    contextLimitTokens: localErrors.contextLimitTokens ?? server['builder.contextLimitTokens'],
    compactAtPercent: localErrors.compactAtPercent ?? server['builder.compactAtShare'],
  };
  const formError = save.error && Object.keys(server).length === 0 ? `${errorHeadline(save.error)}: ${readableMessage(save.error)}` : null;
  const risky = draft.useDefaultCommands ? [] : riskyCommands(parseCommands(draft.commands));

  const change = (patch: Partial<typeof draft>, field?: BuilderField) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSavedAt(null);
    if (field && localErrors[field]) setLocalErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const patch = builderPatch(draft);
    if (patch.errors) {
      setLocalErrors(patch.errors);
      return;
    }
    setLocalErrors({});
    save.mutate(
      { settings: { builder: patch.builder } },
      {
        onSuccess: (next) => {
          queryClient.setQueryData(procedureKey('settings/get', {}), next);
          const nextDraft = builderDraftFrom(next.settings.builder, next.builderDefaults);
          setBase(nextDraft);
          setDraft(nextDraft);
          setSavedAt(new Date());
        },
      },
    );
  };

  const id = (f: string) => `${uid}-${f}`;
  return (
    <form className="card settings-form builder-settings" data-testid="settings-builder" onSubmit={onSubmit} noValidate aria-labelledby={id('title')}>
      <h2 id={id('title')}>Builder</h2>
      <p className="hint">Read when a build starts; a build already running keeps the settings it started with.</p>

      <fieldset>
        <legend>Contracts</legend>
        <div className="field">
          <label className="builder-switch" htmlFor={id('mcp')}>
            <input
              id={id('mcp')}
              type="checkbox"
              role="switch"
              checked={draft.useMcpContracts}
              aria-checked={draft.useMcpContracts}
              aria-describedby={id('mcp-hint')}
              data-testid="setting-builder-mcp"
              onChange={(e) => change({ useMcpContracts: e.target.checked })}
            />{' '}
            Fetch contracts on demand (MCP contracts)
          </label>
          <p className="hint" id={id('mcp-hint')}>
            On: the builder starts with a lean prompt and fetches each contract and phase window through forge tools when it needs them. Off: every contract is
            pasted into the first message, the older flow — keep it for comparing the two on the same project; it costs far more context per turn.
          </p>
        </div>
      </fieldset>

      <fieldset>
        <legend>Commands the builder may run</legend>
        <div className="field">
          <label className="builder-switch" htmlFor={id('default-commands')}>
            <input
              id={id('default-commands')}
              type="checkbox"
              checked={draft.useDefaultCommands}
              data-testid="setting-builder-default-commands"
              onChange={(e) => change({ useDefaultCommands: e.target.checked }, 'commands')}
            />{' '}
            Use Forge’s default list
          </label>
          {draft.useDefaultCommands ? (
            <p className="hint builder-commands" data-testid="builder-default-commands">
              {props.view.builderDefaults.allowedCommands.map((c) => (
                <code key={c}>{c}</code>
              ))}
            </p>
          ) : (
            <div className={errors.commands ? 'field has-error' : 'field'}>
              <label htmlFor={id('commands')}>Programs, one per line</label>
              <textarea
                id={id('commands')}
                rows={8}
                spellCheck={false}
                value={draft.commands}
                aria-invalid={Boolean(errors.commands)}
                aria-describedby={`${id('commands-hint')}${errors.commands ? ` ${id('commands-error')}` : ''}`}
                data-testid="setting-builder-commands"
                onChange={(e) => change({ commands: e.target.value }, 'commands')}
              />
              {errors.commands && (
                <p className="field-error" id={id('commands-error')} data-testid="setting-error-builder-commands">
                  {errors.commands}
                </p>
              )}
            </div>
          )}
          <p className="hint" id={id('commands-hint')}>
            run_command and run_tests start only these programs, with arguments passed directly (no shell). The list prevents mistakes; it is not a sandbox.
          </p>
          {risky.length > 0 && (
            <p className="builder-risky" role="status" data-testid="builder-risky">
              {risky.join(', ')} {risky.length === 1 ? 'lets' : 'let'} the builder run any program or delete and fetch files, which the list is there to
              prevent.
            </p>
          )}
        </div>
      </fieldset>

      <fieldset>
        <legend>Context</legend>
        <div className="field-row">
          <NumberField
            id={id('limit')}
            label="Context limit (tokens)"
            hint="The context window a build is held within. Default 150,000."
            value={draft.contextLimitTokens}
            error={errors.contextLimitTokens}
            testId="setting-builder-context-limit"
            onChange={(v) => change({ contextLimitTokens: v }, 'contextLimitTokens')}
          />
          <NumberField
            id={id('compact')}
            label="Compact at (% of the limit)"
            hint="Past this share, the middle of the conversation is summarised; the first message and the last four turns stay. Default 70%."
            value={draft.compactAtPercent}
            error={errors.compactAtPercent}
            testId="setting-builder-compact-at"
            onChange={(v) => change({ compactAtPercent: v }, 'compactAtPercent')}
          />
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button primary" data-testid="settings-builder-save" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save builder settings'}
        </button>
        <button
          type="button"
          className="button"
          disabled={!dirty || save.isPending}
          onClick={() => {
            setDraft(base);
            setLocalErrors({});
            save.reset();
          }}
        >
          Discard changes
        </button>
        <span aria-live="polite" className="form-status">
          {savedAt && !dirty && (
            <span className="saved" data-testid="settings-builder-saved">
              ✓ Saved at {savedAt.toLocaleTimeString()}
            </span>
          )}
          {dirty && !save.isPending && <span className="muted">Unsaved changes</span>}
        </span>
      </div>
      {formError && (
        <div className="error-panel" role="alert">
          {formError}
        </div>
      )}
    </form>
  );
}

/** The first server message about any item under `prefix` (e.g. one bad entry of the list). */
function firstUnder(errors: Record<string, string>, prefix: string): string | undefined {
  const key = Object.keys(errors).find((k) => k.startsWith(prefix));
  return key ? errors[key] : undefined;
}

function NumberField(props: { id: string; label: string; hint: string; value: string; error?: string; testId: string; onChange: (v: string) => void }) {
  const describedBy = [`${props.id}-hint`, props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        aria-invalid={Boolean(props.error)}
        aria-describedby={describedBy}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p className="hint" id={`${props.id}-hint`}>
        {props.hint}
      </p>
      {props.error && (
        <p className="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
