import { Fragment, useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useProcedure, useProcedureMutation } from '../api/hooks';
import { fieldErrors, readableMessage, errorHeadline } from '../api/errors';
import { modelRoleInfo } from './models';
import { draftFrom, draftValue, patchFrom, sameDraft, settingsLabels, visibleErrors, withValue, type DraftField } from './form';
import { SecretsSection } from './SecretsSection';
import { SearchIndexCard } from './SearchIndexCard';
import { SkillScriptsSection } from './SkillScriptsSection';
import { BuilderSection } from './BuilderSection';
import { DeskDatabaseSection } from './DeskDatabaseSection';
import { useUnsavedGuard } from '../app/useUnsavedGuard';
import { parseHash } from '../app/routes';
import { inputLimits, TextInput } from '../app/TextField';
import './builder.css';
import './settings.css';

type SettingsView = ProcedureOutput<'settings/get'>;

const timezones: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

const modelSuggestions = ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

export function SettingsScreen() {
  const query = useProcedure('settings/get', {});
  const info = useProcedure('app/info', {}, { staleTime: Infinity });
  useSectionFromHash(Boolean(query.data));
  return (
    <section className="screen screen-scroll" data-testid="screen-settings" aria-labelledby="title-settings">
      <header className="screen-header">
        <h1 id="title-settings">Settings</h1>
        <p className="screen-purpose">
          Appearance, your profile, the model connection, search weights, API keys, which skills may run scripts, the builder, and the desk database to connect
          to.
        </p>
      </header>
      {query.isPending && <p className="muted">Loading settings…</p>}
      {query.isError && (
        <div className="error-panel" role="alert">
          <strong>{errorHeadline(query.error)}</strong> {readableMessage(query.error)}
        </div>
      )}
      {query.data && (
        <>
          <SettingsForm view={query.data} />
          <SecretsSection view={query.data} />
          <SearchIndexCard />
          <SkillScriptsSection />
          <BuilderSection view={query.data} />
          <DeskDatabaseSection />
        </>
      )}
      {info.data && (
        <section className="card" aria-labelledby="about-title">
          <h2 id="about-title">About this workspace</h2>
          <dl className="facts">
            <dt>Version</dt>
            <dd>Forge {info.data.version}</dd>
            <dt>Data folder</dt>
            <dd>
              <code>{info.data.dataDir}</code>
            </dd>
            <dt>Running as</dt>
            <dd>{info.data.mode === 'electron' ? 'Desktop app' : info.data.mode === 'headless' ? 'Headless host (browser)' : 'Test host'}</dd>
            <dt>Started</dt>
            <dd>{new Date(info.data.startedAt).toLocaleString()}</dd>
            {info.data.build && <BuildFacts info={info.data} build={info.data.build} />}
          </dl>
        </section>
      )}
    </section>
  );
}

/** `#/settings/keys` and `#/settings/search` (Home's first-run links) and `#/settings/desk` open at that section. */
const SECTIONS: Record<string, string> = { keys: 'keys-title', search: 'index-title', desk: 'desk-db-title' };

function useSectionFromHash(loaded: boolean) {
  useEffect(() => {
    if (!loaded) return;
    const heading = document.getElementById(SECTIONS[parseHash(window.location.hash).rest[0] ?? ''] ?? '');
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    // The key field is what the PM came for: put the cursor in it.
    heading.closest('section')?.querySelector<HTMLElement>('input, button')?.focus({ preventScroll: true });
  }, [loaded]);
}

type AppInfo = ProcedureOutput<'app/info'>;

/** The exact build and the optional parts active here, as `forge version` prints them. */
function BuildFacts(props: { info: AppInfo; build: NonNullable<AppInfo['build']> }) {
  const { build } = props;
  const runtime = `Node ${props.info.nodeVersion}${build.electronVersion ? `, Electron ${build.electronVersion}` : ''}`;
  return (
    <>
      <dt>Build</dt>
      <dd data-testid="about-build">{build.commit === 'source checkout' ? 'Source checkout (not built)' : `Commit ${build.commit}, built ${build.builtAt}`}</dd>
      <dt>Platform</dt>
      <dd data-testid="about-platform">
        {props.info.platform}-{build.arch}, {runtime}
      </dd>
      {build.parts.map((p) => (
        <Fragment key={p.name}>
          <dt>{p.name[0]?.toUpperCase() + p.name.slice(1)}</dt>
          <dd data-testid="about-part" data-part={p.name} data-active={p.active}>
            <strong>{p.active ? 'On' : 'Off'}</strong> — {p.detail}
          </dd>
        </Fragment>
      ))}
    </>
  );
}

function SettingsForm(props: { view: SettingsView }) {
  const queryClient = useQueryClient();
  const save = useProcedureMutation('settings/set');
  const serverDraft = useMemo(() => draftFrom(props.view.settings), [props.view.settings]);
  const [base, setBase] = useState(serverDraft);
  const [draft, setDraft] = useState(serverDraft);
  const [localErrors, setLocalErrors] = useState<Partial<Record<DraftField, string>>>({});
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  // Fields changed since the last Save: their old server error no longer describes what is there.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());

  // Settings changed elsewhere (another window, the CLI): follow them unless the PM is mid-edit.
  useEffect(() => {
    if (sameDraft(serverDraft, base)) return;
    if (sameDraft(draft, base)) setDraft(serverDraft);
    setBase(serverDraft);
  }, [serverDraft, base, draft]);

  const dirty = !sameDraft(draft, base);
  // Leaving Settings (sidebar, palette, address bar) or closing the tab with edits asks first.
  useUnsavedGuard(dirty, 'Settings', () => {
    setDraft(base);
    setLocalErrors({});
  });
  const serverErrors = fieldErrors(save.error, 'settings', settingsLabels);
  const errors = visibleErrors(serverErrors, localErrors, edited);
  const formError =
    save.error && Object.keys(serverErrors).length === 0 ? `${errorHeadline(save.error)}: ${readableMessage(save.error, settingsLabels)}` : null;

  const set = (field: DraftField) => (value: string) => {
    setDraft((d) => withValue(d, field, value));
    setSavedAt(null);
    setEdited((e) => (e.has(field) ? e : new Set([...e, field])));
    if (localErrors[field]) setLocalErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const patch = patchFrom(draft);
    if (patch.errors) {
      setLocalErrors(patch.errors);
      return;
    }
    setLocalErrors({});
    setEdited(new Set());
    save.mutate(
      { settings: patch.settings },
      {
        onSuccess: (next) => {
          queryClient.setQueryData(procedureKey('settings/get', {}), next);
          const nextDraft = draftFrom(next.settings);
          setBase(nextDraft);
          setDraft(nextDraft);
          setSavedAt(new Date());
        },
      },
    );
  };

  const field = (name: DraftField) => ({
    name,
    value: draftValue(draft, name),
    onChange: set(name),
    error: errors[name],
  });

  return (
    <form className="card settings-form" data-testid="settings-form" onSubmit={onSubmit} noValidate aria-labelledby="general-title">
      <h2 id="general-title">General</h2>

      <fieldset>
        <legend>Appearance</legend>
        <Field label="Theme" hint="System follows your operating system's light or dark mode." error={errors.theme} name="theme">
          {(a) => (
            <select {...a} value={draft.theme} onChange={(e) => set('theme')(e.target.value)}>
              <option value="system">System</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          )}
        </Field>
      </fieldset>

      <fieldset>
        <legend>You</legend>
        <TextField label="Display name" hint="How the analyst addresses you." {...field('displayName')} autoComplete="name" limit={inputLimits.displayName} />
        <TextField
          label="Time zone"
          hint="Schedules (morning review, end of day) run in this zone. An IANA name, e.g. America/New_York."
          list="forge-timezones"
          {...field('timezone')}
          limit={inputLimits.timezone}
        />
        <datalist id="forge-timezones">
          {timezones.map((tz) => (
            <option key={tz} value={tz} />
          ))}
        </datalist>
      </fieldset>

      <fieldset>
        <legend>Analyst</legend>
        <TextField
          label="Session timeout (minutes)"
          hint="After this long without activity the next message starts a new session."
          inputMode="numeric"
          {...field('sessionTimeoutMinutes')}
        />
        <TextField
          label="Anthropic base URL"
          hint="Leave empty for Anthropic's own API. Set it to use a proxy or gateway."
          placeholder="https://api.anthropic.com"
          inputMode="url"
          {...field('anthropicBaseUrl')}
        />
      </fieldset>

      <fieldset>
        <legend>Search ranking</legend>
        <p className="hint">How search blends meaning with freshness. The defaults are 0.7 semantic and 0.3 recency.</p>
        <div className="field-row">
          <TextField label="Semantic weight" inputMode="decimal" {...field('searchWeights.semantic')} />
          <TextField label="Recency weight" inputMode="decimal" {...field('searchWeights.recency')} />
        </div>
      </fieldset>

      <fieldset>
        <legend>Models</legend>
        <p className="hint">
          Which Claude model answers for each role. Stronger models judge better and cost more; the fastest one is enough for compressing context.
        </p>
        <datalist id="forge-models">
          {modelSuggestions.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <div className="models-grid">
          {modelRoleInfo.map((r) => (
            <TextField key={r.role} label={r.label} hint={r.hint} list="forge-models" {...field(`models.${r.role}`)} />
          ))}
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button primary" data-testid="settings-save" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
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
            <span className="saved" data-testid="settings-saved">
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

interface FieldA11y {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  'data-testid': string;
}

function Field(props: { label: string; name: string; hint?: string; error?: string; children: (a: FieldA11y) => ReactNode }) {
  const id = useId();
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': Boolean(props.error),
        'aria-describedby': describedBy || undefined,
        'data-testid': `setting-${props.name}`,
      })}
      {props.hint && (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={`${id}-error`} data-testid={`setting-error-${props.name}`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

function TextField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  error?: string;
  placeholder?: string;
  list?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'url';
  /** Free text with a limit in the schema: show the counter and say when it is over. */
  limit?: number;
}) {
  return (
    <Field label={props.label} name={props.name} hint={props.hint} error={props.error}>
      {(a) =>
        props.limit !== undefined ? (
          <TextInput
            {...a}
            label={props.label}
            limit={props.limit}
            type="text"
            value={props.value}
            placeholder={props.placeholder}
            list={props.list}
            autoComplete={props.autoComplete ?? 'off'}
            spellCheck={false}
            onChange={props.onChange}
          />
        ) : (
          <input
            {...a}
            type="text"
            value={props.value}
            placeholder={props.placeholder}
            list={props.list}
            autoComplete={props.autoComplete ?? 'off'}
            inputMode={props.inputMode}
            spellCheck={false}
            onChange={(e) => props.onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}
